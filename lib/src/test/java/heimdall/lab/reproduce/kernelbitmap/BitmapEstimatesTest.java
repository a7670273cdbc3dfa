package heimdall.lab.reproduce.kernelbitmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.reproduce.kernelbitmap.BitmapEstimates.Figures;
import heimdall.lab.reproduce.kernelbitmap.BitmapEstimates.Rule;
import heimdall.lab.reproduce.kernelbitmap.BitmapEstimates.Verdict;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The selftest's arithmetic on fixed inputs: the published run, the tolerance's edges, the skips. */
class BitmapEstimatesTest {
    static final Figures PUBLISHED = new Figures(638, 664, 664, 720, 737);

    @Test
    void thePublishedFiguresGiveThePublishedEstimatesAndSevenPasses() {
        BitmapEstimates e = BitmapEstimates.of(PUBLISHED);
        assertEquals(
                Map.of(
                        "total_overhead_1_bitmapped",
                        26L,
                        "total_overhead_2_bitmapped",
                        26L,
                        "total_overhead_3_full",
                        82L,
                        "total_overhead_4_full",
                        99L,
                        "entry",
                        26L,
                        "per_filter_last_2_diff",
                        17L,
                        "per_filter_filters_div_4",
                        18L),
                e.byName());
        assertEquals(7, e.expectations().size());
        assertTrue(
                e.expectations().stream().allMatch(x -> x.verdict() == Verdict.PASS),
                e.lines().toString());
        assertFalse(e.unexpected());
        assertEquals(
                "native + entry + (per filter * 4) ≈ 4 filters total (732 ≈ 737): ✔",
                e.expectations().get(6).line());
        assertEquals("native ≤ 1 bitmap (638 ≤ 664): ✔", e.expectations().get(0).line());
    }

    @Test
    void thePublishedJsonAgreesWithTheArithmetic() {
        heimdall.lab.results.PublishedKernelBitmap published = KernelBitmap.published();
        BitmapEstimates e = BitmapEstimates.of(PUBLISHED);
        e.byName().forEach((k, v) -> assertEquals(v, published.estimate(k), k));
    }

    @Test
    void approxIsWithinTenPercentOfTheSmallerOrTwoNanoseconds() {
        assertTrue(BitmapEstimates.approx(100, 110));
        assertFalse(BitmapEstimates.approx(100, 111));
        assertTrue(BitmapEstimates.approx(110, 100), "symmetric");
        assertFalse(BitmapEstimates.approx(111, 100));
        // Below 20 ns the 2 ns floor is the wider bound.
        assertTrue(BitmapEstimates.approx(17, 19));
        assertFalse(BitmapEstimates.approx(17, 20));
        assertTrue(BitmapEstimates.approx(0, 2));
        assertFalse(BitmapEstimates.approx(0, 3));
        assertTrue(BitmapEstimates.approx(26, 26));
        // The bound is taken from the smaller value: 20 → 22 holds, 22 → 24.2 holds, 20 → 23 does not.
        assertTrue(BitmapEstimates.approx(20, 22));
        assertFalse(BitmapEstimates.approx(20, 23));
        assertTrue(BitmapEstimates.approx(22, 24));
        assertTrue(BitmapEstimates.le(5, 5));
        assertFalse(BitmapEstimates.le(6, 5));
    }

    @Test
    void aNegativeEstimateSkipsEveryExpectation() {
        // bitmap2 far above bitmap1 makes the entry estimate negative.
        BitmapEstimates e = BitmapEstimates.of(new Figures(100, 110, 150, 200, 220));
        assertEquals(-30, e.entry());
        assertTrue(e.expectations().stream().allMatch(x -> x.verdict() == Verdict.SKIPPED));
        assertTrue(e.unexpected());
        assertTrue(e.lines().contains("Saw unexpected benchmark result. Try running again with more samples?"));
    }

    /**
     * A filtered call cheaper than the native one makes a total negative, so (as in the selftest, whose
     * unsigned totals then exceed INT_MAX) everything is skipped before "native ≤ 1 filter" could fail.
     */
    @Test
    void aFilteredCallCheaperThanNativeSkipsEverything() {
        BitmapEstimates e = BitmapEstimates.of(new Figures(150, 160, 170, 140, 180));
        assertEquals(-10, e.overhead3Full());
        assertTrue(e.expectations().stream().allMatch(x -> x.verdict() == Verdict.SKIPPED));
        assertTrue(e.unexpected());
    }

    /** (filters / 4) of a negative numerator rounds down and stays negative: skipped, as the selftest's huge value. */
    @Test
    void aNegativeQuarterIsNotRoundedUpToZero() {
        BitmapEstimates f = BitmapEstimates.of(new Figures(100, 130, 130, 100, 100));
        assertEquals(30, f.entry());
        assertEquals(-8, f.perFilterDiv4());
        assertTrue(f.expectations().stream().allMatch(x -> x.verdict() == Verdict.SKIPPED));
    }

    @Test
    void equalFiguresPassTheOrderingChecks() {
        BitmapEstimates e = BitmapEstimates.of(new Figures(100, 100, 100, 100, 100));
        assertEquals(Verdict.PASS, e.expectations().get(0).verdict());
        assertEquals(Verdict.PASS, e.expectations().get(1).verdict());
    }

    @Test
    void unequalBitmapFiguresMarkTheCacheUnsupportedAndSkipTheLastThree() {
        // bitmap1 overhead 20, bitmap2 overhead 40: not ≈; entry = 20 - 20 = 0; per filter 20 and 80 / 4.
        BitmapEstimates e = BitmapEstimates.of(new Figures(100, 120, 140, 160, 180));
        List<Verdict> v = e.expectations().stream()
                .map(BitmapEstimates.Expectation::verdict)
                .toList();
        assertEquals(Verdict.FAIL, v.get(3));
        assertEquals(List.of(Verdict.SKIPPED, Verdict.SKIPPED, Verdict.SKIPPED), v.subList(4, 7));
        assertTrue(e.bitmapUnsupported());
        assertTrue(e.lines().contains("Skipping constant action bitmap expectations: they appear unsupported."));
        // As in the selftest, that failure alone is not an "unexpected result".
        assertEquals(Verdict.PASS, v.get(2));
        assertFalse(e.unexpected(), e.lines().toString());
    }

    @Test
    void aFailedApproximationIsUnexpected() {
        // per-filter: last 2 diff = 40, (filters / 4) = (240 - 100 - 20) / 4 = 30: 40 ≈ 30 fails.
        BitmapEstimates e = BitmapEstimates.of(new Figures(100, 120, 120, 200, 240));
        assertEquals(40, e.perFilterLast2Diff());
        assertEquals(30, e.perFilterDiv4());
        assertEquals(Verdict.FAIL, e.expectations().get(2).verdict());
        assertTrue(e.unexpected());
        assertEquals(
                "per-filter (last 2 diff) ≈ per-filter (filters / 4) (40 ≈ 30): ✘",
                e.expectations().get(2).line());
    }

    @Test
    void agreementIsWithinTwentyPercentOfTheSelftestsMethod() {
        assertTrue(KernelBitmap.agrees(120, 100));
        assertTrue(KernelBitmap.agrees(80, 100));
        assertFalse(KernelBitmap.agrees(121, 100));
        assertFalse(KernelBitmap.agrees(79, 100));
        assertFalse(KernelBitmap.agrees(125, 100), "25% is no longer close enough");
        assertTrue(KernelBitmap.agrees(0, 0));
        assertFalse(KernelBitmap.agrees(1, 0));
        assertTrue(KernelBitmap.agrees(-20, -18), "a negative estimate is compared by size");
        assertEquals(0.25, KernelBitmap.relativeDifference(125, 100), 1e-12);
        // The figures: the bare loop's entry estimate of 26 ns against the selftest's 40.
        assertFalse(KernelBitmap.agrees(26, 40));
    }

    /** The 2020 selftest's ≈ (the published output's): within 1% of the smaller or 2 ns. */
    @Test
    void the2020RuleIsWithinOnePercentOrTwoNanoseconds() {
        Rule r = Rule.SELFTEST_2020;
        assertTrue(r.approx(100, 102), "2 ns is more than 1% of 100");
        assertFalse(r.approx(100, 103));
        assertTrue(r.approx(300, 303));
        assertFalse(r.approx(300, 304));
        assertTrue(r.approx(732, 737), "the published last check: 1% of 732 is 7.3");
        assertFalse(r.approx(732, 740));
        assertTrue(Rule.LATER.approx(300, 330));
        assertFalse(Rule.LATER.approx(300, 331));
        assertFalse(r.approx(300, 330));
    }

    @Test
    void thePublishedFiguresPassUnderBothRules() {
        for (Rule r : Rule.values()) {
            BitmapEstimates e = BitmapEstimates.of(PUBLISHED, r);
            assertEquals(r, e.rule());
            assertTrue(e.expectations().stream().allMatch(x -> x.verdict() == Verdict.PASS), r + ": " + e.lines());
            assertFalse(e.unexpected());
        }
    }

    /** Entry 48 against 2 bitmapped 52: 4 ns apart is within 10% but beyond 1% and 2 ns. */
    @Test
    void anEstimateWithinTenPercentButNotOnePassesOnlyTheLaterRule() {
        Figures f = new Figures(100, 150, 152, 208, 228);
        BitmapEstimates later = BitmapEstimates.of(f, Rule.LATER);
        BitmapEstimates old = later.judgedBy(Rule.SELFTEST_2020);
        assertEquals(48, later.entry());
        assertEquals(later.byName(), old.byName(), "the rule judges; it does not change an estimate");
        assertTrue(
                later.expectations().stream().allMatch(x -> x.verdict() == Verdict.PASS),
                later.lines().toString());
        assertFalse(later.unexpected());
        assertEquals(
                "entry ≈ 2 bitmapped (48 ≈ 52): ✘", old.expectations().get(5).line());
        assertEquals(Verdict.PASS, old.expectations().get(4).verdict(), "48 ≈ 50: 2 ns");
        assertTrue(old.unexpected());
    }

    /**
     * A failed "1 bitmapped ≈ 2 bitmapped" after a failed per-filter check: the 2020 selftest jumps
     * past its unexpected-result message; the later one reports the per-filter failure.
     */
    @Test
    void anUnsupportedBitmapEndsThe2020ChecksWithoutAnUnexpectedResult() {
        // o1 20, o2 40; entry 0; last 2 diff 40, (filters / 4) (140 - 0) / 4 = 35: 40 ≈ 35 fails under both.
        Figures f = new Figures(100, 120, 140, 200, 240);
        BitmapEstimates later = BitmapEstimates.of(f, Rule.LATER);
        BitmapEstimates old = BitmapEstimates.of(f, Rule.SELFTEST_2020);
        for (BitmapEstimates e : List.of(later, old)) {
            assertEquals(Verdict.FAIL, e.expectations().get(2).verdict());
            assertEquals(Verdict.FAIL, e.expectations().get(3).verdict());
            assertTrue(e.bitmapUnsupported());
        }
        assertTrue(later.unexpected());
        assertFalse(old.unexpected());
    }

    /** Figures built from rounds say so in the printout; one measurement's do not. */
    @Test
    void builtFiguresAreLabelledAsBuilt() {
        BitmapEstimates one = BitmapEstimates.of(PUBLISHED);
        assertEquals("getpid RET_ALLOW 1 filter (bitmap): 664 ns", one.lines().get(1));
        BitmapEstimates built = BitmapEstimates.ofRounds(List.of(PUBLISHED, PUBLISHED, PUBLISHED));
        assertEquals(3, built.rounds());
        assertEquals("getpid native: 638 ns (median of 3 rounds)", built.lines().get(0));
        assertEquals(
                "getpid RET_ALLOW 1 filter (bitmap): 664 ns (built: native median + median overhead of 3 rounds)",
                built.lines().get(1));
        assertEquals(3, built.judgedBy(Rule.SELFTEST_2020).rounds());
    }

    /** One round alone is the selftest's arithmetic on that round. */
    @Test
    void oneRoundIsTheSelftestsArithmetic() {
        BitmapEstimates one = BitmapEstimates.ofRounds(List.of(PUBLISHED));
        assertEquals(BitmapEstimates.of(PUBLISHED).byName(), one.byName());
        assertEquals(PUBLISHED, one.figures());
    }

    /**
     * A slow spell of the host lifts every configuration of a round: paired within the round, the
     * estimates do not move; taken from each configuration's median run they would (here the per-filter
     * difference would come out negative).
     */
    @Test
    void roundsArePairedSoASlowRoundLiftsBothSidesOfEachDifference() {
        Figures slow = new Figures(638 + 300, 664 + 300, 664 + 300, 720 + 300, 737 + 300);
        Figures mixed = new Figures(638, 664, 664, 720 + 300, 737); // only the 3-filter run of this round was slowed
        BitmapEstimates e = BitmapEstimates.ofRounds(List.of(PUBLISHED, slow, PUBLISHED, slow, mixed));
        assertEquals(26, e.entry());
        assertEquals(17, e.perFilterLast2Diff());
        assertEquals(18, e.perFilterDiv4());
        assertEquals(99, e.overhead4Full());
        // Figures: the native median, then native plus each configuration's median overhead.
        assertEquals(new Figures(638, 664, 664, 720, 737), e.figures());
        assertTrue(
                e.expectations().stream().allMatch(x -> x.verdict() == Verdict.PASS),
                e.lines().toString());
        // Unpaired, the 3-filter configuration's median run is a slow one (1020 of 720, 720, 1020, 1020, 1020)
        // and the others' are not.
        BitmapEstimates unpaired = BitmapEstimates.of(new Figures(638, 664, 664, 1020, 737));
        assertEquals(-283, unpaired.perFilterLast2Diff());
        assertTrue(unpaired.expectations().stream().allMatch(x -> x.verdict() == Verdict.SKIPPED));
    }

    /** An even number of rounds takes the lower middle value, so every estimate is one that was measured. */
    @Test
    void anEvenNumberOfRoundsTakesTheLowerMiddle() {
        BitmapEstimates e = BitmapEstimates.ofRounds(
                List.of(new Figures(100, 130, 130, 150, 170), new Figures(100, 140, 140, 160, 180)));
        assertEquals(30, e.entry());
        assertEquals(20, e.perFilterLast2Diff());
        assertEquals(30, e.overhead1Bitmapped());
    }
}
