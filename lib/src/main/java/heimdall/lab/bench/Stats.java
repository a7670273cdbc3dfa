package heimdall.lab.bench;

import java.util.Arrays;

/**
 * Order statistics over raw samples. Nothing is filtered: every sample counts, the unfavourable
 * ones included, because the spread is part of the result.
 */
public final class Stats {
    private Stats() {}

    /** Median, p99, min and max of a set of samples (nanoseconds or any unit). */
    public record Summary(long median, long p99, long min, long max, int count) {}

    /** Summarises {@code samples}; the array is not modified. */
    public static Summary of(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples to summarise");
        }
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return new Summary(
                percentileOfSorted(sorted, 50),
                percentileOfSorted(sorted, 99),
                sorted[0],
                sorted[sorted.length - 1],
                sorted.length);
    }

    /** Summarises several runs' samples as one set (statistics are over all samples). */
    public static Summary ofAll(long[][] runs) {
        return of(concat(runs));
    }

    /** Every run's samples back to back, in run order, in a new array (the runs are not modified). */
    public static long[] concat(long[]... runs) {
        int total = 0;
        for (long[] r : runs) {
            total += r.length;
        }
        long[] all = new long[total];
        int at = 0;
        for (long[] r : runs) {
            System.arraycopy(r, 0, all, at, r.length);
            at += r.length;
        }
        return all;
    }

    /**
     * The nearest-rank percentile of sorted samples: the smallest sample such that at least
     * {@code p}% of samples are at or below it. Nearest rank (not interpolation) so every figure
     * reported is a value that was actually observed.
     */
    public static long percentileOfSorted(long[] sorted, double p) {
        if (p <= 0) {
            return sorted[0];
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    /** Each run's median, in run order. */
    public static long[] runMedians(long[][] runs) {
        long[] medians = new long[runs.length];
        for (int i = 0; i < runs.length; i++) {
            medians[i] = of(runs[i]).median();
        }
        return medians;
    }

    /**
     * Spread of run medians: (max - min) / median of the run medians. A row whose spread is over
     * {@link #NOISY_SPREAD} is flagged noisy, as the published benches do.
     */
    public static double spread(long[] runMedians) {
        Summary s = of(runMedians);
        return s.median() == 0 ? 0.0 : (double) (s.max() - s.min()) / s.median();
    }

    /** The spread above which a row is flagged noisy (25%). */
    public static final double NOISY_SPREAD = 0.25;
}
