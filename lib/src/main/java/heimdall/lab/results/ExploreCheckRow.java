package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One row of {@code ./lab explore check}'s {@code summary.json}: the same call under the same floor
 * measured by one {@code source}, floor-cost's row code (row 0) or the fluent API (row 1), pooled over
 * every round. Times are nanoseconds; the floor-cost row also has the no-filter median and the added
 * cost, the fluent row its ratio to the floor-cost row and whether that is within the tolerance.
 *
 * @param source who measured the row
 * @param what the floor's row name
 * @param call the call timed
 * @param status {@code ok}
 * @param runsCompleted the runs pooled
 * @param medianNs the median of every sample
 * @param p99Ns their p99
 * @param medianNoneNs the same call's median with no filter (floor-cost's row only)
 * @param addedNs {@code medianNs} minus {@code medianNoneNs} (floor-cost's row only)
 * @param runMediansNs each run's median
 * @param samples the samples pooled
 * @param spread (max − min) / median of the run medians
 * @param roundMediansNs each round's median
 * @param vsFloorCost the fluent median over floor-cost's (the fluent row only)
 * @param tolerance how far from 1 that ratio may be (the fluent row only)
 * @param withinTolerance whether it is (the fluent row only)
 */
public record ExploreCheckRow(
        @JsonProperty(value = "source", required = true) String source,
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "call", required = true) String call,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("p99_ns") Long p99Ns,
        @JsonProperty("median_none_ns") Long medianNoneNs,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("run_medians_ns") List<Long> runMediansNs,
        @JsonProperty("samples") Long samples,
        @JsonProperty("spread") Double spread,
        @JsonProperty("round_medians_ns") List<Long> roundMediansNs,
        @JsonProperty("vs_floor_cost") Double vsFloorCost,
        @JsonProperty("tolerance") Double tolerance,
        @JsonProperty("within_tolerance") Boolean withinTolerance)
        implements ResultRow {

    @Override
    public List<String> labelParts() {
        return List.of(source);
    }
}
