package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The counts a samples file keeps: every order statistic equal to the sorted samples', whatever the values. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SampleCountsTest {

    @Test
    void everyRankIsTheSortedSamplesOrderStatistic() {
        Random rnd = new Random(11);
        SampleCounts counts = new SampleCounts();
        long[] all = new long[0];
        for (int run = 0; run < 4; run++) {
            long[] s = new long[5_000];
            for (int i = 0; i < s.length; i++) {
                // the dense range, its edges, past it (outliers, milliseconds), and values no timer gives
                s[i] = switch (i % 7) {
                    case 0 -> 60 + rnd.nextInt(40);
                    case 1 -> SampleCounts.Series.DENSE - 1 - rnd.nextInt(2);
                    case 2 -> SampleCounts.Series.DENSE + rnd.nextInt(3);
                    case 3 -> 1_000_000L + rnd.nextInt(5_000_000);
                    case 4 -> -1 - rnd.nextInt(3);
                    case 5 -> Long.MAX_VALUE - rnd.nextInt(2);
                    default -> rnd.nextInt(SampleCounts.Series.DENSE);
                };
            }
            counts.add(3, "filtered", run, s);
            all = concat(all, s);
        }
        counts.add(3, "filtered", 9, new long[0]); // an empty run: not a run, as samples.arrow would hold none of it
        long[] sorted = all.clone();
        Arrays.sort(sorted);
        SampleCounts.Series series = counts.series().get(new SampleCounts.Key(3, "filtered"));
        assertEquals(sorted.length, series.count());
        assertEquals(4, series.runs());
        int[] every = IntStream.range(0, sorted.length).toArray();
        assertArrayEquals(sorted, series.valuesAtRanks(every));
        int[] some = {0, 0, 7, sorted.length / 2, sorted.length - 1};
        assertArrayEquals(Arrays.stream(some).mapToLong(k -> sorted[k]).toArray(), series.valuesAtRanks(some));
        assertThrows(IllegalArgumentException.class, () -> series.valuesAtRanks(new int[] {sorted.length}));
        assertThrows(IllegalArgumentException.class, () -> series.valuesAtRanks(new int[] {5, 4}));
        assertThrows(IllegalArgumentException.class, () -> series.valuesAtRanks(new int[] {-1}));
    }

    @Test
    void seriesComeInTheOrderOfTheirFirstSampleAndEmptyOnesNotAtAll() {
        SampleCounts counts = new SampleCounts();
        counts.add(1, "none", 0, new long[] {5});
        counts.add(0, "filtered", 0, new long[] {7, 6});
        counts.add(1, "none", 1, new long[] {4});
        counts.add(2, "filtered", 0, new long[0]);
        counts.add(0, "filtered", 1, new long[] {9});
        assertEquals(
                List.of(new SampleCounts.Key(1, "none"), new SampleCounts.Key(0, "filtered")),
                List.copyOf(counts.series().keySet()));
        SampleCounts.Series none = counts.series().get(new SampleCounts.Key(1, "none"));
        assertEquals(2, none.runs());
        assertArrayEquals(new long[] {4, 5}, none.valuesAtRanks(new int[] {0, 1}));
        assertArrayEquals(
                new long[] {6, 7, 9},
                counts.series().get(new SampleCounts.Key(0, "filtered")).valuesAtRanks(new int[] {0, 1, 2}));
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
