package heimdall.lab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The intervals on synthetic runs with a known truth: a run-level offset (a run on a busy CPU) plus
 * exponential within-run noise above a floor, as timing samples look. Each check is over 100 seeds and
 * counts how often the 95% interval covers the truth, against the bar of 93.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IntervalsTest {
    static final int SEEDS = 100;
    static final int RUNS = 7;
    static final int PER_RUN = 2_000;
    static final double FLOOR = 100;
    static final double TAIL = 20; // mean of the exponential part, ns
    static final double RUN_SD = 8; // run-to-run offset, ns

    /** Runs of samples: floor + shift + a run's normal offset + exponential noise, rounded to whole ns. */
    static long[][] runs(Random rnd, int runs, double shift) {
        long[][] out = new long[runs][PER_RUN];
        for (int r = 0; r < runs; r++) {
            double offset = rnd.nextGaussian() * RUN_SD;
            for (int i = 0; i < PER_RUN; i++) {
                out[r][i] = Math.round(FLOOR + shift + offset - TAIL * Math.log(1 - rnd.nextDouble()));
            }
        }
        return out;
    }

    /** The truth for a run's q-quantile, the offset being symmetric about 0: floor + exponential quantile. */
    static double truth(double q, double shift) {
        return FLOOR + shift - TAIL * Math.log(1 - q);
    }

    @Test
    void theMedianIntervalCoversTheTruthAtItsLevel() {
        int covered = 0;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Interval ci = OrderStatistics.overRuns(runs(new Random(seed), RUNS, 0), 50, 0.95);
            assertTrue(ci.reached(), "7 runs reach 95%: " + ci);
            covered += ci.contains(truth(0.5, 0)) ? 1 : 0;
        }
        assertTrue(covered >= 93, "median interval covered the truth in " + covered + " of " + SEEDS);
    }

    @Test
    void theP99IntervalCoversTheTruthAtItsLevel() {
        int covered = 0;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Interval ci = OrderStatistics.overRuns(runs(new Random(1000 + seed), RUNS, 0), 99, 0.95);
            covered += ci.contains(truth(0.99, 0)) ? 1 : 0;
        }
        assertTrue(covered >= 93, "p99 interval covered the truth in " + covered + " of " + SEEDS);
    }

    @Test
    void theAddedIntervalCoversTheKnownShiftAtItsLevel() {
        double shift = 25;
        int covered = 0;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Random rnd = new Random(2000 + seed);
            double[] base = runMedians(runs(rnd, RUNS, 0));
            double[] filtered = runMedians(runs(rnd, RUNS, shift));
            Interval ci = MannWhitney.shift(base, filtered, 0.95);
            assertTrue(ci.confidence() >= 0.95, ci.toString());
            covered += ci.contains(shift) ? 1 : 0;
        }
        assertTrue(covered >= 93, "added interval covered the shift in " + covered + " of " + SEEDS);
    }

    @Test
    void noShiftIsCalledNoDifferenceAtLeastAtTheStatedRate() {
        int none = 0;
        int noneWithoutThreshold = 0;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Random rnd = new Random(3000 + seed);
            double[] a = runMedians(runs(rnd, RUNS, 0));
            double[] b = runMedians(runs(rnd, RUNS, 0));
            none += ChangeTest.compare(a, b, 0.05, 0.95).verdict() == Verdict.NO_DIFFERENCE ? 1 : 0;
            noneWithoutThreshold += ChangeTest.compare(a, b, 0, 0.95).verdict() == Verdict.NO_DIFFERENCE ? 1 : 0;
        }
        // the test alone (no threshold) holds its 5% false-alarm rate; the threshold only adds to "no difference"
        assertTrue(noneWithoutThreshold >= 93, "no difference in " + noneWithoutThreshold + " of " + SEEDS);
        assertTrue(none >= noneWithoutThreshold, none + " < " + noneWithoutThreshold);
    }

    @Test
    void aRealShiftBeyondTheThresholdIsFoundOnTheRightSide() {
        int slower = 0;
        int faster = 0;
        for (int seed = 1; seed <= SEEDS; seed++) {
            Random rnd = new Random(4000 + seed);
            double[] a = runMedians(runs(rnd, RUNS, 0));
            double[] b = runMedians(runs(rnd, RUNS, 30)); // ~24% slower, run noise sd 8 ns
            ChangeTest.Change up = ChangeTest.compare(a, b, 0.05, 0.95);
            ChangeTest.Change down = ChangeTest.compare(b, a, 0.05, 0.95);
            slower += up.verdict() == Verdict.SLOWER ? 1 : 0;
            faster += down.verdict() == Verdict.FASTER ? 1 : 0;
            assertNotEquals(Verdict.FASTER, up.verdict());
            assertNull(up.warning());
            assertTrue(up.ratio().low() <= up.ratio().estimate()
                    && up.ratio().estimate() <= up.ratio().high());
        }
        assertTrue(slower >= 90, "slower in " + slower + " of " + SEEDS);
        assertEquals(slower, faster, "the verdict is symmetric");
    }

    @Test
    void aSignificantChangeWithinTheThresholdIsNoDifference() {
        double[] a = {100, 101, 100, 102, 101, 100, 101};
        double[] b = {103, 104, 103, 105, 104, 103, 104}; // +3%: every B run above every A run
        assertEquals(Verdict.SLOWER, ChangeTest.compare(a, b, 0.0, 0.95).verdict());
        assertEquals(Verdict.NO_DIFFERENCE, ChangeTest.compare(a, b, 0.05, 0.95).verdict());
    }

    @Test
    void tooFewRunsWarnAndCannotCallAChange() {
        double[] a = {100, 101, 102};
        double[] b = {200, 201, 202};
        ChangeTest.Change c = ChangeTest.compare(a, b, 0.05, 0.95);
        assertEquals(Verdict.NO_DIFFERENCE, c.verdict());
        assertNotNull(c.warning());
        assertTrue(c.warning().contains("at least 4 runs a side"), c.warning());
        assertTrue(c.warning().contains("0.100"), c.warning()); // 2 / C(6, 3)
        assertNull(ChangeTest.compare(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}, 0.05, 0.95)
                .warning());
    }

    @Test
    void oneNoisyRunWidensTheInterval() {
        long[][] quiet = runs(new Random(7), RUNS, 0);
        Interval before = OrderStatistics.overRuns(quiet, 50, 0.95);
        long[][] noisy = quiet.clone();
        noisy[3] = quiet[3].clone();
        for (int i = 0; i < noisy[3].length; i++) {
            noisy[3][i] += 60; // one run on a busy CPU
        }
        Interval after = OrderStatistics.overRuns(noisy, 50, 0.95);
        assertTrue(after.high() > before.high() + 30, before + " -> " + after);
    }

    @Test
    void exactLawsMatchHandCounts() {
        // order statistics: 3 runs give 75% at most, 7 runs 1 - 2/128 with their extremes; 6 needed for 95%
        assertEquals(
                0.75,
                OrderStatistics.forQuantile(new double[] {1, 2, 3}, 0.5, 0.95, 2, "t")
                        .confidence(),
                1e-12);
        Interval seven = OrderStatistics.forQuantile(new double[] {7, 1, 6, 2, 5, 3, 4}, 0.5, 0.95, 4, "t");
        assertEquals(1 - 2.0 / 128, seven.confidence(), 1e-12);
        assertEquals(1, seven.low());
        assertEquals(7, seven.high());
        assertEquals(6, OrderStatistics.runsNeededForMedian(0.95));
        double[] ranks = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        Interval eleven = OrderStatistics.forQuantile(ranks, 0.5, 0.95, 6, "t");
        assertEquals(2, eleven.low()); // P(B <= 1) = 12/2048 <= 2.5%, P(B <= 2) = 67/2048 is not
        assertEquals(10, eleven.high());
        // U: 4 against 4 separated completely: p = 2/70; the null law sums to 1
        assertEquals(2.0 / 70, MannWhitney.pValue(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}), 1e-12);
        assertEquals(1.0, MannWhitney.nullCdf(5, 6)[30], 1e-12);
        assertEquals(1.0 / 462, MannWhitney.nullCdf(5, 6)[0], 1e-15);
        assertEquals(4, MannWhitney.runsNeeded(0.05));
        // ties: all equal gives p = 1; Hodges-Lehmann of a constant shift is that shift
        assertEquals(1.0, MannWhitney.pValue(new double[] {5, 5, 5}, new double[] {5, 5, 5}), 1e-12);
        assertEquals(10, MannWhitney.hodgesLehmann(new double[] {1, 2, 3}, new double[] {11, 12, 13}));
    }

    @Test
    void theNormalApproximationAgreesWithTheExactTestWhereBothApply() {
        Random rnd = new Random(11);
        double[] a = new double[45];
        double[] b = new double[45];
        for (int i = 0; i < 45; i++) {
            a[i] = Math.round(rnd.nextGaussian() * 3);
            b[i] = Math.round(rnd.nextGaussian() * 3 + 1);
        }
        double approx = MannWhitney.pValue(a, b); // 90 > EXACT_LIMIT: the normal law with ties
        double exact = MannWhitney.pValue(java.util.Arrays.copyOf(a, 40), java.util.Arrays.copyOf(b, 40));
        assertTrue(approx > 0 && approx < 0.2 && exact > 0 && exact < 0.2, approx + " " + exact);
    }

    @Test
    void theSameInputGivesTheSameInterval() {
        long[][] r = runs(new Random(5), RUNS, 0);
        assertEquals(OrderStatistics.overRuns(r, 99, 0.95), OrderStatistics.overRuns(r, 99, 0.95));
        double[] a = runMedians(r);
        double[] b = runMedians(runs(new Random(6), RUNS, 3));
        assertEquals(ChangeTest.compare(a, b, 0.05, 0.95), ChangeTest.compare(a, b, 0.05, 0.95));
    }

    @Test
    void nonsenseIsRefused() {
        double[] one = {1};
        assertThrows(IllegalArgumentException.class, () -> ChangeTest.compare(one, new double[] {0}, 0.05, 0.95));
        assertThrows(IllegalArgumentException.class, () -> ChangeTest.compare(one, one, -0.1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> OrderStatistics.overRuns(new long[0][], 50, 0.95));
        assertThrows(IllegalArgumentException.class, () -> new Interval(1, 2, 1, 0.95, 0.9, 3, "t"));
        assertFalse(OrderStatistics.forQuantile(new double[] {1, 2, 3}, 0.5, 0.95, 2, "t")
                .reached());
    }

    private static void assertNotEquals(Verdict unexpected, Verdict actual) {
        org.junit.jupiter.api.Assertions.assertNotEquals(unexpected, actual);
    }

    static double[] runMedians(long[][] runs) {
        double[] m = new double[runs.length];
        for (int r = 0; r < runs.length; r++) {
            long[] s = runs[r].clone();
            java.util.Arrays.sort(s);
            m[r] = OrderStatistics.nearestRank(s, 50);
        }
        return m;
    }
}
