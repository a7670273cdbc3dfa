package heimdall.lab.analysis;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/**
 * An empirical CDF reduced to a bounded number of points, for plotting millions of samples: x a
 * sample's value, y the fraction of samples at or below it. The points are order statistics (every x
 * is a measured sample, nearest rank), chosen evenly by rank across the body and densely in the top
 * percent, where a log-scale plot spends most of its width; the minimum, the median, the p99 and the
 * maximum are always among them.
 *
 * @param x sample values, ascending
 * @param y fraction of samples ≤ x, ascending, the last one 1
 * @param count how many samples the curve summarises
 * @param median the median (nearest rank)
 * @param p99 the 99th percentile (nearest rank)
 */
public record Ecdf(double[] x, double[] y, long count, double median, double p99) {
    /** At most this many points per curve: smooth at plot resolution, fast to draw. */
    public static final int MAX_POINTS = 1000;

    private static final int BODY = 800;
    private static final int TAIL = 190;

    /** The largest sample. */
    public double max() {
        return x.length == 0 ? Double.NaN : x[x.length - 1];
    }

    /**
     * The q-quantile as far as the kept points tell: the smallest kept x whose fraction reaches q
     * (exact for min, p50, p99 and max; within the top percent's dense points for q above 0.99).
     */
    public double at(double q) {
        for (int k = 0; k < x.length; k++) {
            if (y[k] >= q) {
                return x[k];
            }
        }
        return max();
    }

    /** The ECDF of every sample of every run (the arrays are not modified). */
    public static Ecdf of(long[]... runs) {
        long[] all = heimdall.lab.bench.Stats.concat(runs);
        Arrays.sort(all);
        return ofSorted(all.length, i -> all[i]);
    }

    /** The ECDF of {@code samples} (not modified). */
    public static Ecdf of(double[] samples) {
        double[] s = samples.clone();
        Arrays.sort(s);
        return ofSorted(s.length, i -> s[i]);
    }

    /**
     * The ECDF kept as nearest-rank quantiles ({@link Distributions}): {@code values[k]} is the
     * {@code q[k]}-quantile of {@code count} samples. Each point's fraction is that of its order
     * statistic, as {@link #of} gives it; grid points that fall on the same order statistic are kept once.
     */
    static Ecdf ofQuantiles(double[] q, double[] values, int count) {
        if (count == 0 || q.length == 0) {
            return new Ecdf(new double[0], new double[0], 0, Double.NaN, Double.NaN);
        }
        double[] x = new double[q.length];
        double[] y = new double[q.length];
        int kept = 0;
        int lastRank = -1;
        double median = Double.NaN;
        double p99 = Double.NaN;
        for (int k = 0; k < q.length; k++) {
            int r = rank(count, q[k]);
            if (r == rank(count, 0.5)) {
                median = values[k];
            }
            if (r == rank(count, 0.99)) {
                p99 = values[k];
            }
            if (r != lastRank) {
                x[kept] = values[k];
                y[kept] = (r + 1) / (double) count;
                kept++;
                lastRank = r;
            }
        }
        return new Ecdf(Arrays.copyOf(x, kept), Arrays.copyOf(y, kept), count, median, p99);
    }

    /**
     * The ECDF of {@code n} sorted samples, {@code at(i)} the i-th smallest (0-based), asked only at
     * {@link #indices}.
     */
    static Ecdf ofSorted(int n, IntToDoubleFunction at) {
        if (n == 0) {
            return new Ecdf(new double[0], new double[0], 0, Double.NaN, Double.NaN);
        }
        int[] idx = indices(n);
        double[] x = new double[idx.length];
        double[] y = new double[idx.length];
        for (int k = 0; k < idx.length; k++) {
            x[k] = at.applyAsDouble(idx[k]);
            y[k] = (idx[k] + 1) / (double) n;
        }
        return new Ecdf(x, y, n, at.applyAsDouble(rank(n, 0.5)), at.applyAsDouble(rank(n, 0.99)));
    }

    /** The 0-based index of the nearest-rank q-quantile of n sorted samples. */
    static int rank(int n, double q) {
        return Math.min(n - 1, Math.max(0, (int) Math.ceil(q * n) - 1));
    }

    /**
     * Which order statistics to keep: {@value #BODY} evenly spaced ranks, {@value #TAIL} ranks with
     * 1 − q spaced evenly on a log scale from 1% down to one sample, and min, p50, p99, max; sorted,
     * without duplicates, so never more than {@link #MAX_POINTS}.
     */
    static int[] indices(int n) {
        if (n <= MAX_POINTS) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] idx = new int[BODY + TAIL + 4];
        int k = 0;
        for (int j = 0; j < BODY; j++) {
            idx[k++] = (int) Math.round((double) j * (n - 1) / (BODY - 1));
        }
        double lo = Math.log10(0.01);
        double hi = Math.log10(1.0 / n);
        for (int j = 0; j < TAIL; j++) {
            double tail = Math.pow(10, lo + (hi - lo) * j / (TAIL - 1)); // 1 − q
            idx[k++] = rank(n, 1 - tail);
        }
        idx[k++] = 0;
        idx[k++] = rank(n, 0.5);
        idx[k++] = rank(n, 0.99);
        idx[k++] = n - 1;
        return Arrays.stream(idx).sorted().distinct().toArray();
    }
}
