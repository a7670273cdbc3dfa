package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce host-load}'s {@code summary.json}: a floor-cost row measured idle
 * or under {@code load}, with each run's p99 ({@code run_p99_ns}) and the same row under the other
 * load ({@code twin_row}). Null where a folder or a row cut short lacks the field.
 */
public record HostLoadRow(
        @JsonProperty(value = "load", required = true) String load,
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "call", required = true) String call,
        @JsonProperty(value = "floor", required = true) String floor,
        @JsonProperty("programs") Long programs,
        @JsonProperty("insns") Long insns,
        @JsonProperty("cache") Boolean cache,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("failure") String failure,
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("runs_none_completed") Long runsNoneCompleted,
        @JsonProperty("interrupted") Boolean interrupted,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("p99_ns") Long p99Ns,
        @JsonProperty("run_medians_ns") List<Long> runMediansNs,
        @JsonProperty("samples") Long samples,
        @JsonProperty("spread") Double spread,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("median_none_ns") Long medianNoneNs,
        @JsonProperty("p99_none_ns") Long p99NoneNs,
        @JsonProperty("run_medians_none_ns") List<Long> runMediansNoneNs,
        @JsonProperty("samples_none") Long samplesNone,
        @JsonProperty("spread_none") Double spreadNone,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("baseline_row") Long baselineRow,
        @JsonProperty("load_avg_runs") List<Double> loadAvgRuns,
        @JsonProperty("cpu_granted") Long cpuGranted,
        @JsonProperty("published") PublishedFloorRow published,
        @JsonProperty("added_vs_published") Double addedVsPublished,
        @JsonProperty("run_p99_ns") List<Long> runP99Ns,
        @JsonProperty("twin_row") Long twinRow) implements MeasuredCallRow {

    /** As floor-cost's rows: {@link FloorCostRow#MEASURED_NULLS}. */
    @Override
    public Set<String> nullsWritten() {
        return FloorCostRow.MEASURED_NULLS;
    }

    @Override
    public List<String> labelParts() {
        return List.of(what, call, load);
    }
}
