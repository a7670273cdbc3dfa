package heimdall.lab.stats;

import java.util.Arrays;
import java.util.Locale;

/**
 * B against A, run figure by run figure: the ratio B/A with its interval and a {@link Verdict}.
 *
 * <p>The ratio's interval is the {@link MannWhitney#shift} of the logarithms, taken back: a
 * multiplicative change, the model of a kernel, host or profile making every call some fraction
 * slower. The verdict is {@link Verdict#SLOWER} (or {@link Verdict#FASTER}) only when all three hold:
 * the U test rejects "no change" at {@code 1 − level} ({@link MannWhitney#TEST}), the ratio's interval
 * excludes 1, and the ratio is beyond the threshold ({@code > 1 + t}, or {@code < 1 − t}). Like
 * criterion.rs, a significant change smaller than the threshold is still "no difference beyond noise":
 * on a shared machine a few percent is the noise floor itself.
 *
 * <p>Too few runs: the exact test cannot reach {@code p < 1 − level} with fewer than
 * {@link MannWhitney#runsNeeded} runs a side (4 at 95%); the change then carries a warning saying so
 * and the verdict can only be "no difference beyond noise".
 */
public final class ChangeTest {
    /** The threshold used where none is given: 5%, as the issue's {@code --threshold 5%}. */
    public static final double DEFAULT_THRESHOLD = 0.05;
    /** The confidence used where none is given. */
    public static final double DEFAULT_LEVEL = 0.95;

    private ChangeTest() {}

    /**
     * One comparison.
     *
     * @param ratio B/A with its interval
     * @param p the U test's two-sided p-value
     * @param verdict faster, slower or no difference beyond noise
     * @param runsA runs on A's side
     * @param runsB runs on B's side
     * @param threshold the change below which no difference is reported (0.05: 5%)
     * @param warning why the verdict cannot be trusted (too few runs), or null
     */
    public record Change(
            Interval ratio, double p, Verdict verdict, int runsA, int runsB, double threshold, String warning) {
        /** The test used, as stated beside every verdict. */
        public String test() {
            return MannWhitney.TEST;
        }
    }

    /** {@link #compare(double[], double[], double, double, double)} about the ratio of the run figures' medians. */
    public static Change compare(double[] a, double[] b, double threshold, double level) {
        return compare(a, b, median(b) / median(a), threshold, level);
    }

    /**
     * B against A.
     *
     * @param a A's run figures (each run's median, or a ratio within the run), all above zero
     * @param b B's, likewise
     * @param estimate the ratio reported (the rows' medians B/A)
     * @param threshold a fraction in [0, 1): the smallest change reported
     * @param level the confidence, in (0, 1)
     */
    public static Change compare(double[] a, double[] b, double estimate, double threshold, double level) {
        if (!(threshold >= 0 && threshold < 1)) {
            throw new IllegalArgumentException("threshold is a fraction in [0, 1): " + threshold);
        }
        double[] la = logs(a, "A");
        double[] lb = logs(b, "B");
        if (!(estimate > 0) || Double.isInfinite(estimate)) {
            throw new IllegalArgumentException("a ratio above zero is needed, not " + estimate);
        }
        Interval log = MannWhitney.shift(la, lb, level, Math.log(estimate));
        Interval ratio = new Interval(
                estimate,
                Math.exp(log.low()),
                Math.exp(log.high()),
                level,
                log.confidence(),
                log.runs(),
                "B/A: " + MannWhitney.METHOD + " on logarithms");
        double p = MannWhitney.pValue(la, lb);
        double alpha = 1 - level;
        boolean significant = p < alpha && !ratio.contains(1);
        Verdict v = significant && estimate > 1 + threshold
                ? Verdict.SLOWER
                : significant && estimate < 1 - threshold ? Verdict.FASTER : Verdict.NO_DIFFERENCE;
        String warning = null;
        double smallest = MannWhitney.smallestP(a.length, b.length);
        if (smallest >= alpha) {
            warning = String.format(
                    Locale.ROOT,
                    "too few runs (%d against %d): the U test cannot reach p < %s "
                            + "(its smallest p here is %.3f); it needs at least %d runs a side",
                    a.length,
                    b.length,
                    trim(alpha),
                    smallest,
                    MannWhitney.runsNeeded(alpha));
        }
        return new Change(ratio, p, v, a.length, b.length, threshold, warning);
    }

    private static double[] logs(double[] xs, String side) {
        if (xs.length == 0) {
            throw new IllegalArgumentException(side + " has no run figures");
        }
        double[] out = new double[xs.length];
        for (int i = 0; i < xs.length; i++) {
            if (!(xs[i] > 0) || Double.isInfinite(xs[i])) {
                throw new IllegalArgumentException(side + "'s run figure " + xs[i] + " is not above zero: no ratio");
            }
            out[i] = Math.log(xs[i]);
        }
        return out;
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : (s[h - 1] + s[h]) / 2;
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
