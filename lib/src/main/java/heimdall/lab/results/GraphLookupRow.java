package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One row of {@code ./lab reproduce graph-lookup}'s {@code summary.json}: a graph replayed on a trace
 * with one prepared layout, in nanoseconds per event ({@code ns_per_event_*}), or the reason it was
 * not measured. Null where not measured or where an older folder lacks the field;
 * {@code rejections_agree} is written (false) only on the rows of a case whose layouts disagreed.
 */
public record GraphLookupRow(
        @JsonProperty(value = "graph", required = true) String graph,
        @JsonProperty(value = "trace", required = true) String trace,
        @JsonProperty(value = "layout", required = true) String layout,
        @JsonProperty("sites") Long sites,
        @JsonProperty("states") Long states,
        @JsonProperty("transitions") Long transitions,
        @JsonProperty("events") Long events,
        @JsonProperty("prep_ms") Double prepMs,
        @JsonProperty("import_ms") Double importMs,
        @JsonProperty("payload_bytes") Long payloadBytes,
        @JsonProperty("pinned") Boolean pinned,
        @JsonProperty("nodes_sha256") String nodesSha256,
        @JsonProperty("edges_sha256") String edgesSha256,
        @JsonProperty("auto") Boolean auto,
        @JsonProperty("batches_asked") Long batchesAsked,
        @JsonProperty("batches_completed") Long batchesCompleted,
        @JsonProperty("interrupted") Boolean interrupted,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("reason") String reason,
        @JsonProperty("ns_per_event_median") Double nsPerEventMedian,
        @JsonProperty("ns_per_event_min") Double nsPerEventMin,
        @JsonProperty("ns_per_event_max") Double nsPerEventMax,
        @JsonProperty("spread") Double spread,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("speedup_vs_hash") Double speedupVsHash,
        @JsonProperty("speedup_vs_hash_fastutil") Double speedupVsHashFastutil,
        @JsonProperty("rejections") Long rejections,
        @JsonProperty("samples") Long samples,
        @JsonProperty("rejections_agree") Boolean rejectionsAgree,
        @JsonProperty("published_ns_per_event") Double publishedNsPerEvent,
        @JsonProperty("published_sites") Long publishedSites,
        @JsonProperty("published_states") Long publishedStates,
        @JsonProperty("same_graph_as_published") Boolean sameGraphAsPublished) implements ResultRow {

    @Override
    public List<String> labelParts() {
        return List.of(graph + " / " + trace + " / " + layout);
    }

    /** Whether the row has figures (it was prepared and measured). */
    public boolean measured() {
        return nsPerEventMedian != null;
    }
}
