package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce lanes}'s {@code summary.json}: wall time of a batch with
 * {@code workers} worker threads and one collector, per {@code variant} of checking. Null where not
 * measured.
 *
 * <p>Written as lanes writes it: a field is left out when null, except the figures a row not
 * measured still names as null (wall times, spread, noisy, vs_unchecked, verified, failure):
 * {@link #nullsWritten}.
 */
public record LanesRow(
        @JsonProperty(value = "workers", required = true) Long workers,
        @JsonProperty(value = "collectors", required = true) Long collectors,
        @JsonProperty(value = "variant", required = true) String variant,
        @JsonProperty("iterations") Long iterations,
        @JsonProperty("wall_ms_median") Double wallMsMedian,
        @JsonProperty("wall_ms_min") Double wallMsMin,
        @JsonProperty("wall_ms_max") Double wallMsMax,
        @JsonProperty("spread") Double spread,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("vs_unchecked") Double vsUnchecked,
        @JsonProperty("reads_per_worker") Long readsPerWorker,
        @JsonProperty("writes_per_worker") Long writesPerWorker,
        @JsonProperty("bytes_per_worker") Long bytesPerWorker,
        @JsonProperty("collector_getrusage") Long collectorGetrusage,
        @JsonProperty("collector_sched_yield") Long collectorSchedYield,
        @JsonProperty("checks_per_batch") Long checksPerBatch,
        @JsonProperty("verified") Boolean verified,
        @JsonProperty("failure") String failure,
        @JsonProperty("samples") Long samples,
        @JsonProperty("status") String status,
        @JsonProperty("batches_asked") Long batchesAsked,
        @JsonProperty("batches_completed") Long batchesCompleted,
        @JsonProperty("interrupted") Boolean interrupted)
        implements ResultRow {

    private static final Set<String> NULLS_WRITTEN = Set.of(
            "wall_ms_median", "wall_ms_min", "wall_ms_max", "spread", "noisy", "vs_unchecked", "verified", "failure");

    @Override
    public Set<String> nullsWritten() {
        return NULLS_WRITTEN;
    }

    @Override
    public List<String> labelParts() {
        return List.of(workers + " + " + collectors + " threads", variant);
    }
}
