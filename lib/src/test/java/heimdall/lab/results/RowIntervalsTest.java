package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A row's interval part: ends rounded outward, the coverage stated where the runs fall short, one run named. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RowIntervalsTest {
    @Test
    void endsAreRoundedOutwardAndTheShortfallIsStated() {
        RowIntervals.Ci ci = RowIntervals.Ci.of(new Interval(100, 97.5, 115.2, 0.95, 0.75, 3, "m"), 3);
        assertEquals(97L, ci.lowNs());
        assertEquals(116L, ci.highNs());
        assertEquals("[97, 116] (75% over 3 runs)", ci.cell());
        RowIntervals.Ci seven = RowIntervals.Ci.of(new Interval(100, 90, 110, 0.95, 0.984375, 7, "m"), 7);
        assertTrue(seven.reached());
        assertEquals("[90, 110]", seven.cell());
        assertEquals("median [95% CI]", RowIntervals.heading("median"));
        assertEquals("—", RowIntervals.cell(null));
    }

    @Test
    void aOneRunRowSaysItsIntervalIsOverItsSamplesOnly() {
        long[][] one = {{100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112}};
        RowIntervals r = RowIntervals.of(Intervals.of(one, one, 0.95), 1, 1);
        assertEquals(1L, r.median().runs(), "runs, not samples");
        assertTrue(
                r.median().cell().endsWith("(one run: its samples only)"),
                r.median().cell());
    }

    @Test
    void aPartWithNoIntervalIsNoneAndBadEndsAreRefused() {
        assertNull(RowIntervals.of(new Intervals(null, null, null), 3, 3));
        assertThrows(IllegalArgumentException.class, () -> new RowIntervals.Ci(10L, 9L, 0.95, 0.75, 3L));
        assertThrows(IllegalArgumentException.class, () -> new RowIntervals.Ci(1L, 9L, 1.5, 0.75, 3L));
    }
}
