package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fluent API's intervals on synthetic runs (no kernel needed): {@code Measurement.ci()}, {@code Added.ci()}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MeasurementCiTest {
    private static Measurement measured(String label, int runs, double base, long seed) {
        Random rnd = new Random(seed);
        List<long[]> all = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            double offset = rnd.nextGaussian() * 3;
            long[] s = new long[1_000];
            for (int i = 0; i < s.length; i++) {
                s[i] = Math.round(base + offset - 10 * Math.log(1 - rnd.nextDouble()));
            }
            all.add(s);
        }
        return Measurement.of(label, List.of(), 1, Collections.nCopies(runs, 0), all, runs, false);
    }

    @Test
    void aMeasurementsIntervalsHoldItsOwnFigures() {
        Measurement m = measured("getppid", 7, 100, 1);
        Intervals ci = m.ci();
        assertEquals(m.median(), ci.median().estimate());
        assertEquals(m.p99(), ci.p99().estimate());
        assertTrue(ci.median().contains(m.median()) && ci.p99().contains(m.p99()));
        assertTrue(ci.median().reached() && ci.p99().reached(), ci.toString());
        assertTrue(ci.p99().low() > ci.median().high(), "the tail's interval lies above the median's: " + ci);
        assertNull(ci.added());
        assertEquals(7, ci.median().runs());
    }

    @Test
    void threeRunsSayTheyCannotReach95Percent() {
        Interval median = measured("getppid", 3, 100, 2).ci().median();
        assertFalse(median.reached());
        assertEquals(0.75, median.confidence(), 1e-12);
        assertTrue(median.text().contains("only 75% over 3 runs"), median.text());
    }

    @Test
    void addedsIntervalBracketsTheAddedFigureAndTheTrueShift() {
        Added a = measured("getppid under abcdf", 7, 130, 3).addedOver(measured("getppid", 7, 100, 4));
        Interval ci = a.ci();
        assertEquals(a.addedNs(), ci.estimate());
        assertTrue(ci.contains(a.addedNs()) && ci.contains(30), ci.toString());
        assertTrue(ci.confidence() >= 0.95, ci.toString());
        assertTrue(ci.width() < 20, "7 runs against 7 with 3 ns run noise: " + ci);
    }
}
