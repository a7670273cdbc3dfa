package heimdall.lab.analysis;

import java.util.Arrays;
import java.util.List;

/** Order statistics used by the tables and plots; nearest-rank, so every figure is a measured sample. */
final class Stats {
    private Stats() {}

    /** The q-quantile (0..1) of sorted values by nearest rank; NaN for none. */
    static double quantileSorted(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        if (s.length == 0) {
            return Double.NaN;
        }
        // The median of an even count is the mean of the middle two, as the reproductions compute it.
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2.0;
    }

    static double median(List<Double> values) {
        return median(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** (largest − smallest) / median of the per-run medians: how far runs disagree, as a fraction. */
    static double spread(double[] runMedians) {
        if (runMedians.length == 0) {
            return Double.NaN;
        }
        double min = Arrays.stream(runMedians).min().orElseThrow();
        double max = Arrays.stream(runMedians).max().orElseThrow();
        double med = median(runMedians);
        return med == 0 ? Double.NaN : (max - min) / med;
    }
}
