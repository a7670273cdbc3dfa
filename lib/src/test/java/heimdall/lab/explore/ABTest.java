package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bpf.SeccompData;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.stats.Verdict;
import heimdall.lab.testing.Requires;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link AB} and {@link FloorCompare}: one interleaved runner, B against A judged by the U test. */
class ABTest {
    /** Rules on getppid's first argument that never match a zero-argument call: a chain the filter walks. */
    static final int CHAIN = 150;

    /** Runs of samples around {@code center} ns, each run shifted by up to ±3% (run-to-run noise). */
    static List<long[]> runs(long center, int runs, Random rnd) {
        List<long[]> out = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            double drift = 1 + (rnd.nextDouble() - 0.5) * 0.06;
            long[] s = new long[500];
            for (int i = 0; i < s.length; i++) {
                s[i] = Math.round(center * drift + rnd.nextGaussian() * center * 0.05);
            }
            out.add(s);
        }
        return out;
    }

    static Measurement synthetic(String label, long center, int runs, Random rnd) {
        return Measurement.of(
                label,
                List.of(),
                1,
                new ArrayList<>(java.util.Collections.nCopies(runs, 0)),
                runs(center, runs, rnd),
                runs,
                false);
    }

    /** Synthetic runs: a 30% shift is slower, none is no difference, and the table and text show it. */
    @Test
    void verdictsOfKnownShiftsAreShownInTheTable() {
        Random rnd = new Random(22);
        Measurement none = synthetic("getppid", 100, 8, rnd);
        Measurement a = synthetic("getppid under A", 200, 8, rnd);
        Measurement same = synthetic("getppid under B", 200, 8, rnd);
        Measurement slow = synthetic("getpid under B", 260, 8, rnd);
        FloorCompare.Row r1 =
                new FloorCompare.Row("getppid", 4, 4, true, true, a, same, none, AB.change(a, same, 0.05));
        FloorCompare.Row r2 =
                new FloorCompare.Row("getpid", 4, 300, true, false, a, slow, none, AB.change(a, slow, 0.05));
        assertEquals(Verdict.NO_DIFFERENCE, r1.verdict());
        assertEquals(Verdict.SLOWER, r2.verdict());
        assertTrue(r2.change().ratio().contains(1.3), r2.change().ratio().text());
        FloorCompare.Result res = new FloorCompare.Result("A", "B", List.of(r1, r2), 8, 500, 0.05, false);
        assertEquals(List.of("getpid"), res.calls(Verdict.SLOWER));
        assertEquals(
                List.of("no difference beyond noise", "slower"),
                res.table().stringColumn("verdict").asList());
        assertTrue(res.table().doubleColumn("b_over_a_low").get(1) > 1.05);
        String text = res.text();
        assertTrue(text.contains("1 slower, 0 faster, 1 no difference beyond noise"), text);
        assertTrue(text.contains("Mann-Whitney U"), text);
        assertTrue(text.contains("beyond 5%"), text);
        assertTrue(
                text.contains(String.format(
                        java.util.Locale.ROOT,
                        "slower: B/A %.3f×  [%.3f .. %.3f (95%% " + "over 8 runs)]",
                        r2.change().ratio().estimate(),
                        r2.change().ratio().low(),
                        r2.change().ratio().high())),
                text);
        assertTrue(res.html().contains("verdict"), res.html());
        String report = ExploreAbCommand.report(res, true);
        assertTrue(report.startsWith("quick run: for trying, not for quoting"), report);
        assertTrue(report.contains("b_over_a"), report);

        // fewer runs than the test needs: a warning, and no change called
        Measurement a3 = synthetic("getppid under A", 200, 3, rnd);
        Measurement b3 = synthetic("getppid under B", 400, 3, rnd);
        AB.Result ab = new AB.Result(a3, b3, AB.change(a3, b3, 0.05), 3, 0.05, false);
        assertEquals(Verdict.NO_DIFFERENCE, ab.verdict());
        assertTrue(ab.change().warning().contains("too few runs"), ab.change().warning());
        assertTrue(ab.text().contains("warning"), ab.text());
        assertTrue(ab.text().contains("(only 90% over 3 runs)"), ab.text());
        assertTrue(ab.text().contains("median A"), ab.text());
        assertEquals(3, ab.detail().rowCount());
    }

    /** The headlines of a measurement and of an added cost carry their intervals. */
    @Test
    void headlinesShowIntervals() {
        Random rnd = new Random(7);
        Measurement m = synthetic("getppid under A", 200, 6, rnd);
        Measurement base = synthetic("getppid", 100, 6, rnd);
        assertTrue(m.headline().columnNames().contains("interval"));
        assertEquals(
                m.ci().median().toString(),
                m.headline()
                        .where(m.headline().stringColumn("figure").isEqualTo("median"))
                        .getString(0, "interval"));
        Added added = m.addedOver(base);
        assertEquals(
                added.ci().toString(),
                added.headline()
                        .where(added.headline().stringColumn("figure").isEqualTo("added"))
                        .getString(0, "interval"));
        assertTrue(added.text().contains("[" + added.ci()), added.text());
    }

    /** Everything allowed (the runner's own calls, its exit), getppid and getpid by a bare rule. */
    static FloorView plain() {
        return Lab.floor(
                "plain",
                Profile.builder(Action.ALLOW).allow("getppid", "getpid").build());
    }

    /** getppid behind {@link #CHAIN} argument rules that never match, then its allow; getpid as before. */
    static FloorView chained() {
        Profile.Builder b = Profile.builder(Action.ALLOW);
        for (int k = 1; k <= CHAIN; k++) {
            b.rule(Action.errno(13), "getppid", ArgRule.of(0, Op.EQ, k));
        }
        return Lab.floor("chained", b.allow("getppid", "getpid").build());
    }

    /** A real A/B of a floor against itself: no difference, call by call. */
    @Test
    @Timeout(600)
    void aFloorAgainstItselfIsNoDifference() {
        Requires.seccomp("allow", "errno");
        FloorView f = plain();
        FloorCompare.Result r = Lab.compare(f, f).runs(6).count(3_000).calls("getppid", "getpid");
        System.out.println(r.text());
        for (FloorCompare.Row row : r.rows()) {
            assertNotNull(row.change(), row.call());
            assertNull(row.change().warning(), "6 runs a side are enough for the test");
            assertEquals(Verdict.NO_DIFFERENCE, row.verdict(), row.call() + ": " + row.change());
            assertEquals(6, row.underA().runs().size());
            // the code placement rotated turn by turn
            assertEquals(List.of(0, 1, 2, 3, 0, 1), row.underA().placements());
        }
    }

    /** A floor that walks a long chain of rules before getppid's allow: slower for getppid alone. */
    @Test
    @Timeout(600)
    void aLongChainBeforeTheAllowIsSlowerForThatCall() {
        Requires.seccomp("allow", "errno");
        FloorView a = plain();
        FloorView b = chained();
        int getppid = SyscallTable.x86_64().number("getppid").orElseThrow();
        long extra = b.floor().insns(SeccompData.x86_64(getppid)) - a.floor().insns(SeccompData.x86_64(getppid));
        assertTrue(extra >= CHAIN, "each non-matching rule is at least one instruction more: " + extra);
        assertTrue(!b.floor().cacheable(getppid), "an argument rule: the kernel cannot cache getppid's answer");
        FloorCompare.Result r = Lab.compare(a, b).runs(6).count(3_000).calls("getppid", "getpid");
        System.out.println(r.text());
        assertEquals(List.of("getppid"), r.calls(Verdict.SLOWER), r.table().printAll());
        assertEquals(
                List.of("getpid"), r.calls(Verdict.NO_DIFFERENCE), r.table().printAll());
        // the same runner through Lab.ab: one call under the two floors
        AB.Result ab = Lab.ab(
                        Lab.measure("getppid").under(a).calls(3_000),
                        Lab.measure("getppid").under(b).calls(3_000))
                .runs(6)
                .run();
        assertEquals(Verdict.SLOWER, ab.verdict(), ab.text());
        assertTrue(ab.text().contains("slower"), ab.text());
    }
}
