package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import java.util.Locale;

/**
 * A row's confidence intervals, the part a measured row holds after all its other keys: for its
 * median, its p99 and its added cost, each written flat under {@code median_ci_}, {@code p99_ci_} and
 * {@code added_ci_} ({@code median_ci_low_ns}, {@code median_ci_high_ns}, {@code median_ci_level},
 * {@code median_ci_coverage}, {@code median_ci_runs}, ...). Computed by {@link heimdall.lab.stats}
 * (order statistics over the runs' figures for the median and p99, the Hodges–Lehmann shift of the
 * run medians for the added cost); folders made before them have none of these keys, and a part
 * whose keys are all absent reads as null.
 *
 * @param median the median's interval, or null
 * @param p99 the p99's interval, or null (no per-run p99 at write time)
 * @param added the added cost's interval, or null (no baseline runs in the row)
 */
public record RowIntervals(
        @Flat(prefix = "median_ci_") Ci median,
        @Flat(prefix = "p99_ci_") Ci p99,
        @Flat(prefix = "added_ci_") Ci added) {

    /**
     * No interval at all (a refused or unmeasured row, or a folder made before intervals): written as
     * no key, exactly as a row without this part.
     */
    public static final RowIntervals NONE = new RowIntervals(null, null, null);

    /**
     * One interval as written: its ends in whole nanoseconds (rounded outward, so never narrower),
     * the confidence asked ({@code level}), the coverage the runs reach ({@code coverage}, less than
     * the level when the runs are too few) and the runs it is over.
     */
    public record Ci(
            @JsonProperty("low_ns") Long lowNs,
            @JsonProperty("high_ns") Long highNs,
            @JsonProperty("level") Double level,
            @JsonProperty("coverage") Double coverage,
            @JsonProperty("runs") Long runs) {
        /** Both ends present and in order, levels fractions: what {@link #interval} needs. */
        public Ci {
            if (lowNs != null && highNs != null && lowNs > highNs) {
                throw new IllegalArgumentException("interval low " + lowNs + " above high " + highNs);
            }
            for (Double p : new Double[] {level, coverage}) {
                if (p != null && !(p >= 0 && p <= 1)) {
                    throw new IllegalArgumentException("a level is a fraction in [0, 1], not " + p);
                }
            }
        }

        /**
         * The record of {@code i} over {@code runs} runs, ends rounded outward; null for null. A one-run
         * row's interval is over that run's samples ({@code OrderStatistics.METHOD_ONE_RUN}): its
         * {@code runs} is still 1, and its cell says the run-to-run noise is not in it.
         */
        public static Ci of(Interval i, int runs) {
            if (i == null) {
                return null;
            }
            return new Ci(
                    (long) Math.floor(i.low()),
                    (long) Math.ceil(i.high()),
                    i.level(),
                    Math.round(i.confidence() * 10_000) / 10_000.0,
                    (long) runs);
        }

        /**
         * The table cell: {@code "[20, 40]"} when the runs reach the level, else with the coverage they
         * reach, {@code "[20, 40] (75% over 3 runs)"}; {@code "—"} when an end is missing.
         */
        public String cell() {
            if (lowNs == null || highNs == null) {
                return "—";
            }
            String bracket = String.format(Locale.ROOT, "[%,d, %,d]", lowNs, highNs);
            if (runs != null && runs == 1) {
                return bracket + " (one run: its samples only)";
            }
            return reached() ? bracket : bracket + " (" + coverageText() + ")";
        }

        /** {@code "95%"} reached, or {@code "75% over 3 runs"} where the runs fall short. */
        public String coverageText() {
            double shown = coverage == null ? 0 : Math.round(coverage * 1000) / 10.0;
            String pc = (shown == Math.rint(shown) ? String.valueOf((long) shown) : String.valueOf(shown)) + "%";
            return reached() ? pc : pc + " over " + runs + " runs";
        }

        /** Whether the runs reach the level asked. */
        public boolean reached() {
            return coverage != null && level != null && coverage >= level - 1e-9;
        }

        /**
         * This interval as the stats package has it, around {@code estimate} (the row's figure); null
         * when a field is missing.
         */
        public Interval interval(double estimate, String method) {
            if (lowNs == null
                    || highNs == null
                    || level == null
                    || coverage == null
                    || runs == null
                    || !(level > 0 && level < 1)) {
                return null;
            }
            return new Interval(estimate, lowNs, highNs, level, coverage, runs.intValue(), method);
        }
    }

    /** The column heading for an interval of {@code what}: {@code "median [95% CI]"}. */
    public static String heading(String what) {
        return what + " [" + Math.round(Intervals.LEVEL * 100) + "% CI]";
    }

    /** The cell of {@code ci} ({@link Ci#cell}); {@code "—"} for none. */
    public static String cell(Ci ci) {
        return ci == null ? "—" : ci.cell();
    }

    /**
     * The part of {@code i}, computed over {@code runs} runs ({@code baselineRuns} for the added cost:
     * the fewer of the two sides); null when it has no interval at all.
     */
    public static RowIntervals of(Intervals i, int runs, int baselineRuns) {
        if (i == null || (i.median() == null && i.p99() == null && i.added() == null)) {
            return null;
        }
        return new RowIntervals(
                Ci.of(i.median(), runs), Ci.of(i.p99(), runs), Ci.of(i.added(), Math.min(runs, baselineRuns)));
    }
}
