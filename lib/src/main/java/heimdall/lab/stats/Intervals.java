package heimdall.lab.stats;

import java.util.Arrays;

/**
 * A row's intervals: the small record a result row (summary.json) holds beside its figures, and
 * what {@code Measurement.ci()} answers.
 *
 * @param median the median's interval ({@link OrderStatistics#overRuns})
 * @param p99 the p99's interval, likewise
 * @param added the added cost's interval ({@link MannWhitney#shift} of the run medians), or null where
 *     the row measures no added cost
 */
public record Intervals(Interval median, Interval p99, Interval added) {
    /** The confidence used by default: 95%. */
    public static final double LEVEL = ChangeTest.DEFAULT_LEVEL;

    /**
     * The intervals of runs of samples (each run's samples in one array), and of what they add over a
     * baseline's runs where one is given.
     *
     * @param runs the measured call's runs (not modified)
     * @param baseline the same call's runs without the floor, or null
     * @param level the confidence, in (0, 1)
     */
    public static Intervals of(long[][] runs, long[][] baseline, double level) {
        Interval median = OrderStatistics.overRuns(runs, 50, level);
        Interval p99 = OrderStatistics.overRuns(runs, 99, level);
        Interval added = baseline == null ? null : added(runs, baseline, level);
        return new Intervals(median, p99, added);
    }

    /**
     * The added cost's interval: the Hodges–Lehmann shift of the run medians, about the figure a row
     * reports (the pooled median minus the baseline's pooled median).
     */
    public static Interval added(long[][] runs, long[][] baseline, double level) {
        double estimate = OrderStatistics.overRuns(runs, 50, level).estimate()
                - OrderStatistics.overRuns(baseline, 50, level).estimate();
        return MannWhitney.shift(runMedians(baseline), runMedians(runs), level, estimate);
    }

    /**
     * The intervals from the figures a summary row already holds: run medians (and run p99s where the
     * row keeps them), for rows whose samples are gone.
     *
     * @param median the row's median; {@code runMedians} each run's
     * @param p99 the row's p99 and {@code runP99s} each run's, or {@code runP99s} null: no p99 interval
     * @param added the row's added cost and {@code runMediansNone} the baseline's run medians, or null
     */
    public static Intervals ofRunFigures(
            double median,
            double[] runMedians,
            double p99,
            double[] runP99s,
            Double added,
            double[] runMediansNone,
            double level) {
        return new Intervals(
                OrderStatistics.overRuns(median, runMedians, level),
                runP99s == null ? null : OrderStatistics.overRuns(p99, runP99s, level),
                added == null || runMediansNone == null
                        ? null
                        : MannWhitney.shift(runMediansNone, runMedians, level, added));
    }

    private static double[] runMedians(long[][] runs) {
        double[] m = new double[runs.length];
        for (int r = 0; r < runs.length; r++) {
            long[] sorted = runs[r].clone();
            Arrays.sort(sorted);
            m[r] = OrderStatistics.nearestRank(sorted, 50);
        }
        return m;
    }
}
