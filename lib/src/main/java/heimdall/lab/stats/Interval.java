package heimdall.lab.stats;

import java.util.Locale;

/**
 * A figure with a confidence interval: the small record a result row holds beside its median, p99
 * or added cost.
 *
 * <p>{@code confidence} is what the method guarantees for this many runs, which is at least
 * {@code level} when the runs suffice ({@link #reached()}) and less when they do not: three runs
 * cannot give a 95% distribution-free interval for a median (the widest, their minimum to maximum,
 * covers with 75%), and the interval says so rather than pretending.
 *
 * @param estimate the figure itself (the row's median, p99 or added cost)
 * @param low the interval's lower end
 * @param high the interval's upper end
 * @param level the confidence asked for (0.95)
 * @param confidence the coverage the interval guarantees (its method's exact, distribution-free figure)
 * @param runs the observations (runs) the interval was computed over; per side for a shift, the smaller
 * @param method how it was computed, in words ({@link OrderStatistics#METHOD}, {@link MannWhitney#METHOD})
 */
public record Interval(
        double estimate, double low, double high, double level, double confidence, int runs, String method) {
    public Interval {
        if (!(low <= high)) {
            throw new IllegalArgumentException("interval low " + low + " above high " + high);
        }
        if (!(level > 0 && level < 1) || !(confidence >= 0 && confidence <= 1)) {
            throw new IllegalArgumentException("levels are fractions in (0, 1): " + level + ", " + confidence);
        }
    }

    /** Whether {@code x} lies in the interval, ends included. */
    public boolean contains(double x) {
        return low <= x && x <= high;
    }

    /** Whether the runs were enough for the level asked ({@code confidence >= level}). */
    public boolean reached() {
        return confidence >= level - 1e-12;
    }

    /** The interval's width, high − low. */
    public double width() {
        return high - low;
    }

    /** This interval with every figure multiplied by {@code k > 0} (a unit change). */
    public Interval scaled(double k) {
        return new Interval(estimate * k, low * k, high * k, level, confidence, runs, method);
    }

    /**
     * {@code "97 [94, 99] (95% over 7 runs)"}; where the runs do not reach the level, the coverage they
     * give instead: {@code "97 [94, 99] (only 75% over 3 runs)"}.
     */
    public String text() {
        return String.format(
                Locale.ROOT,
                "%s [%s, %s] (%s%s over %d runs)",
                figure(estimate),
                figure(low),
                figure(high),
                reached() ? "" : "only ",
                percent(reached() ? level : confidence),
                runs);
    }

    /** The bracket alone, {@code "[94, 99]"}. */
    public String bracket() {
        return "[" + figure(low) + ", " + figure(high) + "]";
    }

    static String figure(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return Math.abs(v) >= 100
                ? String.format(Locale.ROOT, "%,.0f", v)
                : String.format(Locale.ROOT, Math.abs(v) >= 1 ? "%.2f" : "%.3f", v);
    }

    static String percent(double p) {
        double pc = Math.round(p * 1000) / 10.0; // 0.1% steps: 0.7499999 is 75%
        String digits = pc == Math.rint(pc) ? "%.0f" : "%.1f";
        return String.format(Locale.ROOT, digits, pc) + "%";
    }

    @Override
    public String toString() {
        return text();
    }
}
