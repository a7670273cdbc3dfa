package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StatsTest {
    @Test
    void medianAndP99AreObservedValuesByNearestRank() {
        long[] samples = new long[100];
        for (int i = 0; i < 100; i++) {
            samples[i] = 100 - i; // 100..1, unsorted
        }
        Stats.Summary s = Stats.of(samples);
        assertEquals(50, s.median());
        assertEquals(99, s.p99());
        assertEquals(1, s.min());
        assertEquals(100, s.max());
        assertEquals(100, s.count());
        assertEquals(100, samples[0], "input must not be sorted in place");
    }

    @Test
    void oddCountMedianIsTheMiddleSample() {
        assertEquals(7, Stats.of(new long[] {9, 7, 1}).median());
    }

    @Test
    void runMediansAndSpread() {
        long[][] runs = {{10, 11, 12}, {20, 21, 22}, {12, 13, 14}};
        assertArrayEquals(new long[] {11, 21, 13}, Stats.runMedians(runs));
        // (21 - 11) / 13
        assertEquals(10.0 / 13, Stats.spread(Stats.runMedians(runs)), 1e-12);
        assertEquals(13, Stats.ofAll(runs).median());
    }
}
