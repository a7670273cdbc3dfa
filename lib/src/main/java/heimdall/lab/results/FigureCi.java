package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.stats.Interval;
import java.util.Locale;

/**
 * A confidence interval of a figure that is not whole nanoseconds (milliseconds of wall time, a
 * ratio), the part a row holds under its figure's prefix ({@code wall_ms_ci_low},
 * {@code wall_ms_ci_high}, {@code wall_ms_ci_level}, {@code wall_ms_ci_coverage},
 * {@code wall_ms_ci_runs}): {@link RowIntervals.Ci}'s fields and meaning with ends in the figure's
 * own unit. {@code runs} counts the observations it is over (a lanes batch is one).
 *
 * @param low the lower end, rounded down to the figure's decimals (never narrower)
 * @param high the upper end, rounded up
 * @param level the confidence asked
 * @param coverage the coverage the observations reach (less than the level when they are too few)
 * @param runs the observations (runs, batches) it is over; per side for a shift, the fewer
 */
public record FigureCi(
        @JsonProperty("low") Double low,
        @JsonProperty("high") Double high,
        @JsonProperty("level") Double level,
        @JsonProperty("coverage") Double coverage,
        @JsonProperty("runs") Long runs) {
    /** Ends in order, levels fractions (a hostile file's values are refused as bad input by the reader). */
    public FigureCi {
        if (low != null && high != null && !(low <= high)) {
            throw new IllegalArgumentException("interval low " + low + " above high " + high);
        }
        for (Double p : new Double[] {level, coverage}) {
            if (p != null && !(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("a level is a fraction in [0, 1], not " + p);
            }
        }
    }

    /**
     * The record of {@code i}, its ends rounded outward to {@code decimals} places (so it still holds
     * the row's figure rounded to as many; an end within a millionth of the last place of such a
     * figure is taken as that figure); null for null.
     */
    public static FigureCi of(Interval i, int decimals) {
        if (i == null) {
            return null;
        }
        double scale = Math.pow(10, decimals);
        // an end already at that many decimals stays (6.094 * 1000 may be 6093.999...: not 6.093)
        double slack = 1e-6;
        return new FigureCi(
                Math.floor(i.low() * scale + slack) / scale,
                Math.ceil(i.high() * scale - slack) / scale,
                i.level(),
                Math.round(i.confidence() * 10_000) / 10_000.0,
                (long) i.runs());
    }

    /** Whether {@code x} lies within, ends included (false when an end is missing). */
    public boolean contains(double x) {
        return low != null && high != null && low <= x && x <= high;
    }

    /** Whether the observations reach the level asked. */
    public boolean reached() {
        return coverage != null && level != null && coverage >= level - 1e-9;
    }

    /**
     * The table cell, each end by {@code format} ({@code "%.3f"}): {@code "[20.125, 40.5]"} when the
     * level is reached, else with the coverage reached, {@code "[20.125, 40.5] (75% over 3 batches)"},
     * {@code observations} naming what {@code runs} counts; {@code "—"} when an end is missing.
     */
    public String cell(String format, String observations) {
        if (low == null || high == null) {
            return "—";
        }
        String bracket =
                "[" + String.format(Locale.ROOT, format, low) + ", " + String.format(Locale.ROOT, format, high) + "]";
        if (reached()) {
            return bracket;
        }
        double pc = coverage == null ? 0 : Math.round(coverage * 1000) / 10.0;
        String shown = pc == Math.rint(pc) ? String.valueOf((long) pc) : String.valueOf(pc);
        String what = runs != null && runs == 1 && observations.endsWith("s")
                ? observations.substring(0, observations.length() - 1)
                : observations;
        return bracket + " (" + shown + "% over " + runs + " " + what + ")";
    }

    /** {@link #cell(String, String)} of {@code ci}; {@code "—"} for none. */
    public static String cell(FigureCi ci, String format, String observations) {
        return ci == null ? "—" : ci.cell(format, observations);
    }
}
