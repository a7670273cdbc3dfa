package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * One row of {@code ./lab explore check}'s {@code summary.json}: the same call under the same floor
 * measured by one {@code source}, floor-cost's row code (row 0) or the fluent API (row 1), pooled over
 * every round. Times are nanoseconds; the floor-cost row also has the no-filter median and the added
 * cost, the fluent row its ratio to the floor-cost row and whether that is within the tolerance.
 * After every other key, the intervals: of the median and p99 over the row's runs (order statistics
 * of the runs' figures), of the floor-cost row's added cost (the Hodges–Lehmann shift of its run
 * medians over the unfiltered ones), as floor-cost's rows have them ({@link RowIntervals}); and of the
 * fluent row's ratio ({@code vs_floor_cost_ci_*}: the Hodges–Lehmann shift of the logarithms of the
 * two rows' run medians with its Mann–Whitney interval, taken back out of logarithms).
 *
 * @param subject who measured the row, the floor and the call
 * @param outcome the row's status ({@code ok})
 * @param runsCompleted the runs pooled
 * @param figures what was measured, pooled over every round
 * @param check the fluent row's ratio to the floor-cost row and its tolerance ({@link Check#NONE} on floor-cost's)
 * @param intervals the median's, p99's and (floor-cost's row) added cost's intervals ({@link RowIntervals#NONE}:
 *     none)
 * @param vsFloorCostCi the ratio's interval, ends to 4 decimals as {@code vs_floor_cost} (the fluent row only)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record ExploreCheckRow(
        @Flat Subject subject,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("runs_completed") Long runsCompleted,
        @Flat Figures figures,
        @Flat Check check,
        @Flat RowIntervals intervals,
        @Flat(prefix = "vs_floor_cost_ci_") FigureCi vsFloorCostCi)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part. */
    public ExploreCheckRow {
        if (subject == null) {
            throw new IllegalArgumentException("an explore-check row names who measured it");
        }
        figures = figures == null ? Figures.NONE : figures;
        check = check == null ? Check.NONE : check;
        intervals = intervals == null ? RowIntervals.NONE : intervals;
    }

    /**
     * Who measured the row and what.
     *
     * @param source who measured the row
     * @param what the floor's row name
     * @param call the call timed
     */
    public record Subject(
            @JsonProperty(value = "source", required = true) String source,
            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty(value = "call", required = true) String call) {}

    /**
     * What was measured, pooled over every round; nanoseconds.
     *
     * @param medianNs the median of every sample
     * @param p99Ns their p99
     * @param medianNoneNs the same call's median with no filter (floor-cost's row only)
     * @param addedNs {@code medianNs} minus {@code medianNoneNs} (floor-cost's row only)
     * @param runMediansNs each run's median
     * @param samples the samples pooled
     * @param spread (max − min) / median of the run medians
     * @param roundMediansNs each round's median
     */
    public record Figures(
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("p99_ns") Long p99Ns,
            @JsonProperty("median_none_ns") Long medianNoneNs,
            @JsonProperty("added_ns") Long addedNs,
            @JsonProperty("run_medians_ns") List<Long> runMediansNs,
            @JsonProperty("samples") Long samples,
            @JsonProperty("spread") Double spread,
            @JsonProperty("round_medians_ns") List<Long> roundMediansNs) {
        /** Nothing measured. */
        public static final Figures NONE = new Figures(null, null, null, null, null, null, null, null);
    }

    /**
     * The check itself, on the fluent row: its median over floor-cost's and how far from 1 that may be.
     *
     * @param vsFloorCost the fluent median over floor-cost's
     * @param tolerance how far from 1 that ratio may be
     * @param withinTolerance whether it is
     */
    public record Check(
            @JsonProperty("vs_floor_cost") Double vsFloorCost,
            @JsonProperty("tolerance") Double tolerance,
            @JsonProperty("within_tolerance") Boolean withinTolerance) {
        /** Not the fluent row: no check. */
        public static final Check NONE = new Check(null, null, null);
    }

    /** Who measured the row. */
    public String source() {
        return subject.source();
    }

    @Override
    public List<String> labelParts() {
        return List.of(subject.source());
    }

    @Override
    public String status() {
        return outcome == null ? null : outcome.label();
    }
}
