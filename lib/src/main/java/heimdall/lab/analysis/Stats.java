package heimdall.lab.analysis;

import java.util.Arrays;
import java.util.List;

/**
 * The median of per-run figures, for the tables and plots (the samples' own order statistics are {@link
 * heimdall.lab.bench.Stats}').
 */
final class Stats {
    private Stats() {}

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
}
