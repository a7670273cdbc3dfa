package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One row of {@code ./lab reproduce lanes}'s {@code summary.json}: wall time of a batch with
 * {@code workers} worker threads and one collector, per {@code variant} of checking. Null where not
 * measured.
 *
 * <p>Written as lanes writes it: a field is left out when null, except the figures a row not
 * measured still names as null (wall times, spread, noisy, vs_unchecked, verified, failure).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LanesRow(
        @JsonProperty(value = "workers", required = true) Long workers,
        @JsonProperty(value = "collectors", required = true) Long collectors,
        @JsonProperty(value = "variant", required = true) String variant,
        @JsonProperty("iterations") Long iterations,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("wall_ms_median") Double wallMsMedian,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("wall_ms_min") Double wallMsMin,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("wall_ms_max") Double wallMsMax,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("spread") Double spread,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("noisy") Boolean noisy,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("vs_unchecked") Double vsUnchecked,
        @JsonProperty("reads_per_worker") Long readsPerWorker,
        @JsonProperty("writes_per_worker") Long writesPerWorker,
        @JsonProperty("bytes_per_worker") Long bytesPerWorker,
        @JsonProperty("collector_getrusage") Long collectorGetrusage,
        @JsonProperty("collector_sched_yield") Long collectorSchedYield,
        @JsonProperty("checks_per_batch") Long checksPerBatch,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("verified") Boolean verified,
        @JsonInclude(JsonInclude.Include.ALWAYS) @JsonProperty("failure") String failure,
        @JsonProperty("samples") Long samples,
        @JsonProperty("status") String status,
        @JsonProperty("batches_asked") Long batchesAsked,
        @JsonProperty("batches_completed") Long batchesCompleted,
        @JsonProperty("interrupted") Boolean interrupted) implements ResultRow {

    @Override
    public List<String> labelParts() {
        return List.of(workers + " + " + collectors + " threads", variant);
    }
}
