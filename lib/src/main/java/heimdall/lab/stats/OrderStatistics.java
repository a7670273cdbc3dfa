package heimdall.lab.stats;

import java.util.Arrays;

/**
 * Distribution-free intervals for a quantile from order statistics: the {@code j}-th and {@code k}-th
 * smallest of {@code n} independent observations bracket the population's {@code q}-quantile with
 * probability {@code P(j <= B < k)}, {@code B ~ Binomial(n, q)}, whatever the distribution (ties only
 * make the closed interval more conservative). The ranks chosen are the innermost whose tails each
 * stay within (1 − level) / 2.
 *
 * <p>Why this and not a bootstrap: with the 3 to 7 runs a reproduction makes, a bootstrap's percentile
 * interval is too narrow (it cannot see beyond the runs it has and its coverage falls well below the
 * level asked), while this law is exact for any number of runs and says plainly when the runs cannot
 * reach the level. Why over runs: each run's figure (its median, its p99) is one observation of what
 * a run measures, carrying that run's own sampling error; the interval over the runs' figures covers
 * the median run's figure, so both within-run and run-to-run noise are in it, and one noisy run, one
 * of the ranked figures, moves an end outward. With 5 runs or fewer a 95% interval is out of reach
 * (5 runs: 93.75% at best); the interval is then the runs' minimum to maximum, with the coverage that
 * gives.
 */
public final class OrderStatistics {
    /** How {@link #overRuns} intervals are computed, for the record. */
    public static final String METHOD = "order statistics over run figures (distribution-free, binomial ranks)";
    /** How a one-run interval is computed: over that run's samples, with no run-to-run noise in it. */
    public static final String METHOD_ONE_RUN =
            "order statistics over one run's samples (run-to-run noise not covered)";

    private OrderStatistics() {}

    /**
     * An interval for the {@code q}-quantile of the population {@code values} were drawn from.
     *
     * @param values independent observations (not modified)
     * @param q the quantile, in (0, 1): 0.5 for a median, 0.99 for a p99
     * @param level the confidence asked, in (0, 1)
     * @param estimate the figure reported (a nearest-rank quantile of the same values, or a pooled one)
     */
    public static Interval forQuantile(double[] values, double q, double level, double estimate, String method) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values for an interval");
        }
        if (!(q > 0 && q < 1) || !(level > 0 && level < 1)) {
            throw new IllegalArgumentException("quantile and level are fractions in (0, 1): " + q + ", " + level);
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double[] cdf = binomialCdf(n, q);
        double tail = (1 - level) / 2;
        // lower rank j (1-based): P(X_(j) > theta) = P(B <= j-1); the largest j with that within the tail
        int j = 1;
        while (j + 1 <= n && cdf[j] <= tail) {
            j++;
        }
        // upper rank k: P(X_(k) < theta) = P(B >= k) = 1 - cdf[k-1]; the smallest k with that within the tail
        int k = n;
        while (k - 1 >= j && 1 - cdf[k - 2] <= tail) {
            k--;
        }
        // coverage P(j <= B <= k-1); for j = 1 that is 1 - P(B = 0) - P(B >= k), the same formula
        double coverage = cdf[k - 1] - cdf[j - 1];
        // a pooled estimate is almost always inside; where it is not, the interval is stretched to hold it
        // (wider, so never less coverage), since a figure outside its own interval reads as an error
        return new Interval(
                estimate,
                Math.min(sorted[j - 1], estimate),
                Math.max(sorted[k - 1], estimate),
                level,
                Math.max(0, Math.min(1, coverage)),
                n,
                method);
    }

    /**
     * The interval for a row's figure from its runs' figures: for the median of the run-figure
     * distribution (what a typical run reports), by {@link #forQuantile} at {@code q = 0.5}.
     *
     * @param estimate the row's figure (over all samples)
     * @param runFigures each run's figure: its median for a median, its p99 for a p99
     */
    public static Interval overRuns(double estimate, double[] runFigures, double level) {
        return forQuantile(runFigures, 0.5, level, estimate, METHOD);
    }

    /**
     * The interval for a nearest-rank percentile of runs of samples: the pooled figure, its interval over
     * the runs' own figures ({@link #overRuns}); a single run's over its samples ({@link #METHOD_ONE_RUN}).
     *
     * @param runs each run's samples (not modified)
     * @param percentile 50 for the median, 99 for the p99
     */
    public static Interval overRuns(long[][] runs, double percentile, double level) {
        if (runs.length == 0) {
            throw new IllegalArgumentException("no runs for an interval");
        }
        double[] figures = new double[runs.length];
        int total = 0;
        for (int r = 0; r < runs.length; r++) {
            long[] sorted = runs[r].clone();
            Arrays.sort(sorted);
            figures[r] = nearestRank(sorted, percentile);
            total += sorted.length;
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] run : runs) {
            System.arraycopy(run, 0, all, at, run.length);
            at += run.length;
        }
        Arrays.sort(all);
        double estimate = nearestRank(all, percentile);
        if (runs.length == 1) {
            return forQuantile(
                    Arrays.stream(all).asDoubleStream().toArray(), percentile / 100, level, estimate, METHOD_ONE_RUN);
        }
        return overRuns(estimate, figures, level);
    }

    /** The nearest-rank percentile of sorted values: the smallest with at least {@code p}% at or below it. */
    public static double nearestRank(long[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    /** The runs needed for a distribution-free interval for a median at {@code level}: 6 at 95%. */
    public static int runsNeededForMedian(double level) {
        for (int n = 1; n < 64; n++) {
            double[] cdf = binomialCdf(n, 0.5);
            if (cdf[n - 1] - cdf[0] >= level) {
                return n;
            }
        }
        return 64;
    }

    /** {@code cdf[i] = P(B <= i)} for {@code B ~ Binomial(n, p)}, {@code i = 0..n}, in logs (n up to millions). */
    static double[] binomialCdf(int n, double p) {
        double[] cdf = new double[n + 1];
        double lp = Math.log(p);
        double lq = Math.log1p(-p);
        double logC = 0; // log C(n, i)
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            if (i > 0) {
                logC += Math.log(n - i + 1) - Math.log(i);
            }
            sum += Math.exp(logC + i * lp + (n - i) * lq);
            cdf[i] = Math.min(1, sum);
        }
        return cdf;
    }
}
