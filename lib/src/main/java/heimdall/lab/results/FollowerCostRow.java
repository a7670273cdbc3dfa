package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce follower-cost}'s {@code summary.json}: a call's cost without and
 * with the follower's {@code hook} in a {@code process}, or the reason it was not measured; the
 * divergence rows ({@code measure} "divergence") give, per run, the divergent call and the calls begun after the kill.
 * The
 * {@code what}, {@code noisy}, {@code published} and divergence fields come from the follower work
 * merged on main. The {@code program_*} fields (absent from older folders) are the follower program's own cost
 * as the kernel counts it (BPF_ENABLE_STATS: run_cnt, run_time_ns) over one extra run of the row made with
 * statistics on, apart from the timed runs. The components are in the order {@code FollowerCost} writes them
 * (the runs last), then the intervals ({@link RowIntervals}: the median and p99 with the hook, and the added
 * cost), absent from folders made before them.
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record FollowerCostRow(
        @JsonProperty("what") String what,
        @JsonProperty(value = "measure", required = true) String measure,
        @JsonProperty(value = "hook", required = true) String hook,
        @JsonProperty(value = "process", required = true) String process,
        @JsonProperty(value = "floor", required = true) String floor,
        @JsonProperty(value = "call", required = true) String call,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("reason") String reason,
        @JsonProperty("median_without_ns") Long medianWithoutNs,
        @JsonProperty("median_with_ns") Long medianWithNs,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("p99_without_ns") Long p99WithoutNs,
        @JsonProperty("p99_with_ns") Long p99WithNs,
        @JsonProperty("run_medians_without_ns") List<Long> runMediansWithoutNs,
        @JsonProperty("run_medians_with_ns") List<Long> runMediansWithNs,
        @JsonProperty("spread_without") Double spreadWithout,
        @JsonProperty("spread_with") Double spreadWith,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("divergent_call_index") List<Long> divergentCallIndex,
        @JsonProperty("calls_begun_after_kill") List<Long> callsBegunAfterKill,
        @JsonProperty("calls_completed_from_divergence") Long callsCompletedFromDivergence,
        @JsonProperty("published") String published,
        @JsonProperty("program_runs") Long programRuns,
        @JsonProperty("program_run_time_ns") Long programRunTimeNs,
        @JsonProperty("program_ns_per_run") Double programNsPerRun,
        @JsonProperty("program_stats_note") String programStatsNote,
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("interrupted") Boolean interrupted,
        @Flat RowIntervals intervals)
        implements ResultRow {

    /** A row without intervals (a refused or divergence row, or a folder made before them). */
    public FollowerCostRow(
            String what,
            String measure,
            String hook,
            String process,
            String floor,
            String call,
            String status,
            String reason,
            Long medianWithoutNs,
            Long medianWithNs,
            Long addedNs,
            Long p99WithoutNs,
            Long p99WithNs,
            List<Long> runMediansWithoutNs,
            List<Long> runMediansWithNs,
            Double spreadWithout,
            Double spreadWith,
            Boolean noisy,
            List<Long> divergentCallIndex,
            List<Long> callsBegunAfterKill,
            Long callsCompletedFromDivergence,
            String published,
            Long programRuns,
            Long programRunTimeNs,
            Double programNsPerRun,
            String programStatsNote,
            Long runsAsked,
            Long runsCompleted,
            Boolean interrupted) {
        this(
                what,
                measure,
                hook,
                process,
                floor,
                call,
                status,
                reason,
                medianWithoutNs,
                medianWithNs,
                addedNs,
                p99WithoutNs,
                p99WithNs,
                runMediansWithoutNs,
                runMediansWithNs,
                spreadWithout,
                spreadWith,
                noisy,
                divergentCallIndex,
                callsBegunAfterKill,
                callsCompletedFromDivergence,
                published,
                programRuns,
                programRunTimeNs,
                programNsPerRun,
                programStatsNote,
                runsAsked,
                runsCompleted,
                interrupted,
                null);
    }

    /** This row with {@code intervals} in place of its own. */
    public FollowerCostRow withIntervals(RowIntervals intervals) {
        return new FollowerCostRow(
                what,
                measure,
                hook,
                process,
                floor,
                call,
                status,
                reason,
                medianWithoutNs,
                medianWithNs,
                addedNs,
                p99WithoutNs,
                p99WithNs,
                runMediansWithoutNs,
                runMediansWithNs,
                spreadWithout,
                spreadWith,
                noisy,
                divergentCallIndex,
                callsBegunAfterKill,
                callsCompletedFromDivergence,
                published,
                programRuns,
                programRunTimeNs,
                programNsPerRun,
                programStatsNote,
                runsAsked,
                runsCompleted,
                interrupted,
                intervals);
    }

    /** A refused row says its reason even when the refusal had no message (null); other rows leave nulls out. */
    @Override
    public Set<String> nullsWritten() {
        return "refused".equals(status) ? Set.of("reason") : Set.of();
    }

    /** Whether this is a divergence row (calls completed from the divergent call on), not a cost row. */
    public boolean divergence() {
        return "divergence".equals(measure);
    }

    @Override
    public List<String> labelParts() {
        return List.of(measure, hook, process, call);
    }
}
