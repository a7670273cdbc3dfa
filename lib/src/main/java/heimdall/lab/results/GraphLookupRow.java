package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Set;

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
        @JsonProperty("same_graph_as_published") Boolean sameGraphAsPublished)
        implements ResultRow {

    /** This row with its speedup over its case's hash layout. */
    public GraphLookupRow withSpeedupVsHash(Double speedup) {
        return new GraphLookupRow(
                graph,
                trace,
                layout,
                sites,
                states,
                transitions,
                events,
                prepMs,
                importMs,
                payloadBytes,
                pinned,
                nodesSha256,
                edgesSha256,
                auto,
                batchesAsked,
                batchesCompleted,
                interrupted,
                status,
                reason,
                nsPerEventMedian,
                nsPerEventMin,
                nsPerEventMax,
                spread,
                noisy,
                speedup,
                speedupVsHashFastutil,
                rejections,
                samples,
                rejectionsAgree,
                publishedNsPerEvent,
                publishedSites,
                publishedStates,
                sameGraphAsPublished);
    }

    /** This row with its speedup over its case's hash-fastutil layout. */
    public GraphLookupRow withSpeedupVsHashFastutil(Double speedup) {
        return new GraphLookupRow(
                graph,
                trace,
                layout,
                sites,
                states,
                transitions,
                events,
                prepMs,
                importMs,
                payloadBytes,
                pinned,
                nodesSha256,
                edgesSha256,
                auto,
                batchesAsked,
                batchesCompleted,
                interrupted,
                status,
                reason,
                nsPerEventMedian,
                nsPerEventMin,
                nsPerEventMax,
                spread,
                noisy,
                speedupVsHash,
                speedup,
                rejections,
                samples,
                rejectionsAgree,
                publishedNsPerEvent,
                publishedSites,
                publishedStates,
                sameGraphAsPublished);
    }

    /** This row marked as one of a case whose layouts disagreed on rejections. */
    public GraphLookupRow withRejectionsDisagreeing() {
        return new GraphLookupRow(
                graph,
                trace,
                layout,
                sites,
                states,
                transitions,
                events,
                prepMs,
                importMs,
                payloadBytes,
                pinned,
                nodesSha256,
                edgesSha256,
                auto,
                batchesAsked,
                batchesCompleted,
                interrupted,
                status,
                reason,
                nsPerEventMedian,
                nsPerEventMin,
                nsPerEventMax,
                spread,
                noisy,
                speedupVsHash,
                speedupVsHashFastutil,
                rejections,
                samples,
                false,
                publishedNsPerEvent,
                publishedSites,
                publishedStates,
                sameGraphAsPublished);
    }

    /** This row with the published figure beside it (all null: none). */
    public GraphLookupRow withPublished(Double nsPerEvent, Long theirSites, Long theirStates, Boolean sameGraph) {
        return new GraphLookupRow(
                graph,
                trace,
                layout,
                sites,
                states,
                transitions,
                events,
                prepMs,
                importMs,
                payloadBytes,
                pinned,
                nodesSha256,
                edgesSha256,
                auto,
                batchesAsked,
                batchesCompleted,
                interrupted,
                status,
                reason,
                nsPerEventMedian,
                nsPerEventMin,
                nsPerEventMax,
                spread,
                noisy,
                speedupVsHash,
                speedupVsHashFastutil,
                rejections,
                samples,
                rejectionsAgree,
                nsPerEvent,
                theirSites,
                theirStates,
                sameGraph);
    }

    /**
     * Every field but {@code reason} and {@code rejections_agree} is written, null or not, as graph-lookup always wrote
     * it.
     */
    private static final Set<String> NULLS_WRITTEN = Set.of(
            "graph",
            "trace",
            "layout",
            "sites",
            "states",
            "transitions",
            "events",
            "prep_ms",
            "import_ms",
            "payload_bytes",
            "pinned",
            "nodes_sha256",
            "edges_sha256",
            "auto",
            "batches_asked",
            "batches_completed",
            "interrupted",
            "status",
            "ns_per_event_median",
            "ns_per_event_min",
            "ns_per_event_max",
            "spread",
            "noisy",
            "speedup_vs_hash",
            "speedup_vs_hash_fastutil",
            "rejections",
            "samples",
            "published_ns_per_event",
            "published_sites",
            "published_states",
            "same_graph_as_published");

    private static final Set<String> NULLS_WRITTEN_NOT_MEASURED = NULLS_WRITTEN.stream()
            .filter(f -> !f.equals("samples"))
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** A row not measured (refused, or a stop came first) names its figures as null but has no {@code samples}. */
    @Override
    public Set<String> nullsWritten() {
        return "measured".equals(status) ? NULLS_WRITTEN : NULLS_WRITTEN_NOT_MEASURED;
    }

    @Override
    public List<String> labelParts() {
        return List.of(graph + " / " + trace + " / " + layout);
    }

    /** Whether the row has figures (it was prepared and measured). */
    public boolean measured() {
        return nsPerEventMedian != null;
    }
}
