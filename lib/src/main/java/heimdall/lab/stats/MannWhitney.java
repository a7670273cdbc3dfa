package heimdall.lab.stats;

import java.util.Arrays;

/**
 * Two sets of runs: the Hodges–Lehmann shift between them with its distribution-free interval, and
 * the Mann–Whitney U (Wilcoxon rank-sum) test that they come from one distribution.
 *
 * <p>The shift estimate is the median of every difference {@code b_j − a_i}; its interval is the
 * {@code (C+1)}-th smallest to the {@code (C+1)}-th largest difference, {@code C} the largest count with
 * {@code P(U <= C) <= (1 − level) / 2} under the U statistic's exact null law. It covers the true shift
 * at that coverage whenever B is A moved by a constant, whatever their shape, which is the model of an
 * added cost: the same call, plus what the filter adds. Runs are the observations (see the package
 * comment); with few of them the interval says which coverage it reaches ({@link Interval#confidence}).
 *
 * <p>The test's p-value is exact: the rank-sum's permutation law computed over the runs' own mid-ranks,
 * so tied figures (run medians in whole nanoseconds tie often) are handled exactly, not by a normal
 * approximation. Above {@link #EXACT_LIMIT} observations in all it falls back to the normal
 * approximation with the tie correction.
 */
public final class MannWhitney {
    /** How {@link #shift} intervals are computed, for the record. */
    public static final String METHOD =
            "Hodges-Lehmann shift over run figures, Mann-Whitney interval (distribution-free)";
    /** The test, as stated beside a verdict. */
    public static final String TEST = "Mann-Whitney U over run figures (two-sided, exact with ties)";
    /** Observations (both sides) up to which the p-value is exact. */
    static final int EXACT_LIMIT = 80;

    /** Work (m·n·min(m, n)) up to which U's null law is computed exactly for an interval. */
    static final long EXACT_WORK = 50_000_000L;

    private MannWhitney() {}

    /**
     * The shift of {@code b} over {@code a} (b − a) with its interval at {@code level}.
     *
     * @param estimate the figure reported (the difference of the pooled medians, say); the interval is
     *     stretched to hold it where it falls outside (never less coverage)
     */
    public static Interval shift(double[] a, double[] b, double level, double estimate) {
        double[] d = differences(a, b);
        int m = a.length;
        int n = b.length;
        double tail = (1 - level) / 2;
        int c = 0;
        double coverage;
        if ((long) m * n * Math.min(m, n) > EXACT_WORK) {
            // many observations (samples, not runs): the normal approximation to U's law is close
            double sd = Math.sqrt(m * (double) n * (m + n + 1) / 12.0);
            c = (int) Math.max(0, Math.floor(m * (double) n / 2 - quantileOfNormal(1 - tail) * sd));
            c = Math.min(c, (d.length - 1) / 2);
            coverage = level;
        } else {
            double[] cdf = nullCdf(m, n);
            while (c + 1 < cdf.length && cdf[c + 1] <= tail && c + 1 < d.length - c - 1) {
                c++;
            }
            coverage = 1 - 2 * cdf[c];
        }
        double low = d[c];
        double high = d[d.length - 1 - c];
        return new Interval(
                estimate,
                Math.min(low, estimate),
                Math.max(high, estimate),
                level,
                Math.max(0, coverage),
                Math.min(m, n),
                METHOD);
    }

    /** {@link #shift(double[], double[], double, double)} about the Hodges–Lehmann estimate itself. */
    public static Interval shift(double[] a, double[] b, double level) {
        return shift(a, b, level, hodgesLehmann(a, b));
    }

    /** The Hodges–Lehmann estimate of b − a: the median of all pairwise differences. */
    public static double hodgesLehmann(double[] a, double[] b) {
        double[] d = differences(a, b);
        int h = d.length / 2;
        return d.length % 2 == 1 ? d[h] : (d[h - 1] + d[h]) / 2;
    }

    private static double[] differences(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("a shift needs observations on both sides");
        }
        double[] d = new double[a.length * b.length];
        int at = 0;
        for (double y : b) {
            for (double x : a) {
                d[at++] = y - x;
            }
        }
        Arrays.sort(d);
        return d;
    }

    /**
     * The two-sided p-value of the U test of "a and b come from one distribution": the probability,
     * under every way of splitting the pooled runs into groups of these sizes, of a rank sum at least as
     * far from its mean as the one observed.
     */
    public static double pValue(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("a test needs observations on both sides");
        }
        int m = a.length;
        int total = m + b.length;
        double[] pooled = new double[total];
        System.arraycopy(a, 0, pooled, 0, m);
        System.arraycopy(b, 0, pooled, m, b.length);
        int[] twiceRank = twiceMidRanks(pooled);
        long observed = 0; // twice a's rank sum
        for (int i = 0; i < m; i++) {
            observed += twiceRank[i];
        }
        double mean = m * (total + 1.0); // twice the expected rank sum
        double distance = Math.abs(observed - mean);
        if (total > EXACT_LIMIT) {
            return normalP(twiceRank, m, total, distance / 2);
        }
        // counts[c][s]: ways to choose c of the items seen so far with doubled rank sum s
        int maxSum = total * (total + 1);
        double[][] counts = new double[m + 1][maxSum + 1];
        counts[0][0] = 1;
        for (int i = 0; i < total; i++) {
            int score = twiceRank[i];
            for (int c = Math.min(i + 1, m); c >= 1; c--) {
                double[] to = counts[c];
                double[] from = counts[c - 1];
                for (int s = maxSum; s >= score; s--) {
                    to[s] += from[s - score];
                }
            }
        }
        double all = 0;
        double extreme = 0;
        for (int s = 0; s <= maxSum; s++) {
            double w = counts[m][s];
            all += w;
            if (Math.abs(s - mean) >= distance - 1e-9) {
                extreme += w;
            }
        }
        return Math.min(1, extreme / all);
    }

    /** The smallest two-sided p-value the exact test can give with {@code m} and {@code n} runs: 2 / C(m+n, m). */
    public static double smallestP(int m, int n) {
        return Math.min(1, 2 / binomial(m + n, m));
    }

    /** The fewest runs a side (both sides alike) with which the test can reach p below {@code alpha}: 4 at 0.05. */
    public static int runsNeeded(double alpha) {
        int k = 1;
        while (smallestP(k, k) >= alpha) {
            k++;
        }
        return k;
    }

    /** Doubled mid-ranks (ties share the mean of their ranks), so they stay integers. */
    private static int[] twiceMidRanks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(values[x], values[y]));
        int[] ranks = new int[values.length];
        for (int i = 0; i < order.length; ) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            int twice = (i + 1) + (j + 1); // ranks i+1 .. j+1, mean doubled
            for (int t = i; t <= j; t++) {
                ranks[order[t]] = twice;
            }
            i = j + 1;
        }
        return ranks;
    }

    private static double normalP(int[] twiceRank, int m, int total, double distance) {
        int n = total - m;
        double tieSum = 0; // sum of (t^3 - t) over groups of ties
        int[] sorted = twiceRank.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < sorted.length; ) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[i]) {
                j++;
            }
            double t = j - i + 1;
            tieSum += t * t * t - t;
            i = j + 1;
        }
        double variance = m * n / 12.0 * ((total + 1) - tieSum / ((double) total * (total - 1)));
        if (variance <= 0) {
            return 1;
        }
        double z = Math.max(0, distance - 0.5) / Math.sqrt(variance); // continuity-corrected
        return Math.min(1, 2 * (1 - phi(z)));
    }

    /** The standard normal CDF (Abramowitz and Stegun 7.1.26 on erf; error below 1.5e-7). */
    private static double phi(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double poly = 0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)));
        double erf = 1 - t * poly * Math.exp(-x * x);
        return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
    }

    /** The standard normal quantile, by bisection on {@link #phi} (only called for a few levels). */
    private static double quantileOfNormal(double p) {
        double lo = -10;
        double hi = 10;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (phi(mid) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /**
     * {@code cdf[u] = P(U <= u)} for the U statistic of {@code m} and {@code n} untied observations
     * under the null, {@code u = 0..mn}: the coefficients of the Gaussian binomial {@code [m+n, m]},
     * built as the product of {@code (1 − q^(n+i)) / (1 − q^i)} for {@code i = 1..m}.
     */
    static double[] nullCdf(int m, int n) {
        int degree = m * n;
        double[] poly = new double[degree + 1];
        poly[0] = 1;
        for (int i = 1; i <= m; i++) {
            int shift = n + i;
            for (int t = degree; t >= shift; t--) {
                poly[t] -= poly[t - shift];
            }
            for (int t = i; t <= degree; t++) {
                poly[t] += poly[t - i];
            }
        }
        double total = 0;
        for (double v : poly) {
            total += v;
        }
        double[] cdf = new double[degree + 1];
        double sum = 0;
        for (int u = 0; u <= degree; u++) {
            sum += Math.max(0, poly[u]);
            cdf[u] = Math.min(1, sum / total);
        }
        return cdf;
    }

    private static double binomial(int n, int k) {
        double r = 1;
        for (int i = 1; i <= k; i++) {
            r = r * (n - k + i) / i;
        }
        return r;
    }
}
