package heimdall.lab.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The median of samples read from a clock with a coarse step, interpolated within the step.
 *
 * <p>On a host whose {@code clock_gettime} advances in steps of, say, 10 ns, every per-call sample
 * is a multiple of the step (give or take the last nanosecond of the conversion), and a plain median
 * can only move in whole steps: a difference of two medians is then uncertain by a step, which is
 * most of a 20 ns seccomp estimate. The samples are grouped on the clock's grid (the step found from
 * the values themselves: the distinct values that occur often, merged where they lie within 2 ns of
 * each other, and the smallest distance between those groups) and the median is interpolated inside
 * its group, the textbook median of grouped data. With a 1 ns clock it equals the plain median to
 * within a nanosecond.
 */
public final class GroupedMedian {
    private GroupedMedian() {}

    /**
     * The result.
     *
     * @param median the interpolated median, ns
     * @param step the clock step found, ns (1 when the samples show none)
     */
    public record Result(double median, long step) {}

    /** The grouped median over all runs' samples. */
    public static Result of(long[][] runs) {
        return of(Stats.concat(runs));
    }

    /** The grouped median of {@code samples} (not modified). */
    public static Result of(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        long[] grid = grid(s);
        long step = grid[0];
        long base = grid[1];
        // Group k holds the samples nearest base + k * step: [base + k*step - step/2, base + k*step + step/2).
        double half = s.length / 2.0;
        int below = 0;
        int i = 0;
        while (i < s.length) {
            long k = Math.floorDiv(s[i] - base + step / 2, step);
            int j = i;
            while (j < s.length && Math.floorDiv(s[j] - base + step / 2, step) == k) {
                j++;
            }
            int inGroup = j - i;
            if (below + inGroup >= half) {
                double lower = base + k * step - step / 2.0;
                return new Result(lower + (half - below) / inGroup * step, step);
            }
            below += inGroup;
            i = j;
        }
        return new Result(s[s.length - 1], step);
    }

    /** The clock step the sorted samples show (or 1) and a value on its grid: {step, base}. */
    static long[] grid(long[] sorted) {
        // Distinct values holding at least 1% of the samples, in order.
        List<long[]> frequent = new ArrayList<>();
        int i = 0;
        while (i < sorted.length) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) {
                j++;
            }
            if ((j - i) * 100L >= sorted.length) {
                frequent.add(new long[] {sorted[i], j - i});
            }
            i = j;
        }
        // Merge values within 2 ns of the previous one (a conversion's last-nanosecond jitter).
        List<Long> groups = new ArrayList<>();
        long last = Long.MIN_VALUE;
        for (long[] f : frequent) {
            if (groups.isEmpty() || f[0] - last > 2) {
                groups.add(f[0]);
            }
            last = f[0];
        }
        long step = Long.MAX_VALUE;
        for (int g = 1; g < groups.size(); g++) {
            step = Math.min(step, groups.get(g) - groups.get(g - 1));
        }
        return new long[] {step == Long.MAX_VALUE || step < 1 ? 1 : step, groups.isEmpty() ? sorted[0] : groups.get(0)};
    }
}
