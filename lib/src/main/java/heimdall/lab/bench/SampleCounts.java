package heimdall.lab.bench;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Every sample of a {@link SamplesFile}, counted per row and variant while it is appended, so the run
 * that measured them can draw its distributions and write {@code distributions.json} from memory instead
 * of reading all of {@code samples.arrow} back (a hundred million samples in a full floor-cost run).
 *
 * <p>Exact, not a sketch: each series is a histogram with one count per distinct nanosecond value, so
 * every order statistic ({@link Series#valuesAtRanks}: the median, the p99, each ECDF point) is the one
 * sorting all the series' samples would give. Values below {@value Series#DENSE} ns (nearly every call
 * a floor or broker reproduction times) are counted in pages of {@value Series#PAGE} counters made when
 * first touched (8 KiB each); the rest (slow outliers, attach costs in milliseconds) are kept as values,
 * eight bytes each, and sorted when asked. Per-run samples are not kept: for those, read samples.arrow.
 *
 * <p>Series are in the order of their first sample, which is the order {@code samples.arrow} holds them.
 * Not thread-safe: one {@link SamplesFile} feeds it.
 */
public final class SampleCounts {
    /** A series' identity, as samples.arrow keys it: its row and its variant. */
    public record Key(int row, String variant) {}

    private final Map<Key, Series> series = new LinkedHashMap<>();
    private Key last;
    private Series lastSeries;

    /** Counts one run's samples of a row and variant. */
    void add(int row, String variant, int run, long[] samples) {
        if (samples.length == 0) {
            return; // samples.arrow holds nothing of it either: no run, no series
        }
        if (last == null || last.row() != row || !last.variant().equals(variant)) {
            last = new Key(row, variant);
            lastSeries = series.computeIfAbsent(last, k -> new Series());
        }
        lastSeries.add(run, samples);
    }

    /** The series counted, in samples.arrow's order (a read-only view). */
    public Map<Key, Series> series() {
        return Collections.unmodifiableMap(series);
    }

    /** One row and variant's samples, all runs together, as counts of their values. */
    public static final class Series {
        /** Values in [0, DENSE) are counted in pages; the rest kept as values. */
        static final int DENSE = 1 << 16;

        static final int PAGE = 1 << 10;

        private final long[][] pages = new long[DENSE / PAGE][];
        private long[] other = new long[16];
        private int others;
        private boolean othersSorted = true;
        private long count;
        private final Set<Integer> runs = new HashSet<>();

        Series() {}

        void add(int run, long[] samples) {
            runs.add(run);
            for (long v : samples) {
                if (v >= 0 && v < DENSE) {
                    long[] page = pages[(int) v / PAGE];
                    if (page == null) {
                        page = pages[(int) v / PAGE] = new long[PAGE];
                    }
                    page[(int) v % PAGE]++;
                } else {
                    if (others == other.length) {
                        other = Arrays.copyOf(other, Math.max(16, (int) Math.min(Integer.MAX_VALUE - 8, others * 2L)));
                    }
                    othersSorted &= others == 0 || other[others - 1] <= v;
                    other[others++] = v;
                }
            }
            count += samples.length;
        }

        /** How many samples, all runs together. */
        public long count() {
            return count;
        }

        /** How many distinct runs gave samples (a run appended with no samples is not one, as in samples.arrow). */
        public int runs() {
            return runs.size();
        }

        /**
         * The order statistics at {@code ranks} (0-based, ascending, each below {@link #count}): what
         * {@code sorted[ranks[k]]} would be for every sample of the series sorted.
         */
        public long[] valuesAtRanks(int[] ranks) {
            if (!othersSorted) {
                Arrays.sort(other, 0, others);
                othersSorted = true;
            }
            if (ranks.length > 0 && ranks[0] < 0) {
                throw new IllegalArgumentException("rank " + ranks[0] + " is negative");
            }
            Walk w = new Walk(ranks);
            int o = 0;
            while (o < others && other[o] < 0) {
                w.value(other[o++], 1);
            }
            for (int p = 0; p < pages.length && !w.done(); p++) {
                if (pages[p] != null) {
                    for (int i = 0; i < PAGE; i++) {
                        if (pages[p][i] > 0) {
                            w.value((long) p * PAGE + i, pages[p][i]);
                        }
                    }
                }
            }
            while (o < others && !w.done()) {
                w.value(other[o++], 1);
            }
            if (!w.done()) {
                throw new IllegalArgumentException("rank " + ranks[w.k] + " is not below the count " + count);
            }
            return w.out;
        }

        /** Values in ascending order with their counts, answering the ranks they cover. */
        private static final class Walk {
            final int[] ranks;
            final long[] out;
            int k;
            long before;

            Walk(int[] ranks) {
                this.ranks = ranks;
                this.out = new long[ranks.length];
            }

            void value(long v, long n) {
                before += n;
                while (k < ranks.length && ranks[k] < before) {
                    if (k > 0 && ranks[k] < ranks[k - 1]) {
                        throw new IllegalArgumentException("ranks must ascend: " + ranks[k - 1] + ", " + ranks[k]);
                    }
                    out[k++] = v;
                }
            }

            boolean done() {
                return k == ranks.length;
            }
        }
    }
}
