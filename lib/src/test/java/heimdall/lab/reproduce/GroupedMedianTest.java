package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import heimdall.lab.bench.GroupedMedian;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class GroupedMedianTest {
    static long[] fill(long[][] valueCount) {
        return Arrays.stream(valueCount)
                .flatMapToLong(
                        vc -> java.util.stream.LongStream.generate(() -> vc[0]).limit(vc[1]))
                .toArray();
    }

    @Test
    void aTenNanosecondClockIsFoundAndTheMedianInterpolatedWithinItsStep() {
        // 30% at 140 (half of them read 141), 70% at 150/151: plain median 150; grouped 145 + 20/70 * 10.
        long[] s = fill(new long[][] {{140, 15}, {141, 15}, {150, 35}, {151, 35}});
        GroupedMedian.Result r = GroupedMedian.of(s);
        assertEquals(10, r.step());
        assertEquals(145 + 20.0 / 70 * 10, r.median(), 1e-9);
    }

    @Test
    void evenlySplitGroupsMeetAtTheirBoundary() {
        long[] s = fill(new long[][] {{180, 50}, {190, 50}, {400, 0}});
        assertEquals(185.0, GroupedMedian.of(s).median(), 1e-9);
    }

    @Test
    void aNanosecondClockGivesThePlainMedianWithinOneNanosecond() {
        long[] s = new long[1001];
        for (int i = 0; i < s.length; i++) {
            s[i] = 100 + i % 37;
        }
        GroupedMedian.Result r = GroupedMedian.of(s);
        assertEquals(1, r.step());
        long[] sorted = s.clone();
        Arrays.sort(sorted);
        assertEquals(sorted[500], r.median(), 1.0);
    }

    @Test
    void runsArePooled() {
        long[][] runs = {{140, 140, 150}, {150, 150, 150, 140, 140}};
        assertEquals(
                GroupedMedian.of(new long[] {140, 140, 150, 150, 150, 150, 140, 140})
                        .median(),
                GroupedMedian.of(runs).median(),
                1e-12);
    }
}
