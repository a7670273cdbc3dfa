package heimdall.lab.reproduce.floorcost;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The paired rounds: what they measure, how a round's ratio is made, and what the table says of the goal. */
class PairedRoundTripsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A paired row (the loop, or a supervisor) with its run medians and its baseline's row. */
    private static FloorCostRow paired(
            String what, String supervisor, boolean sync, List<Long> runMedians, List<Long> none, long baselineRow) {
        ObjectNode n = JSON.createObjectNode()
                .put("what", what)
                .put("call", "openat")
                .put("floor", FloorRow.NOTIFY_LOOP)
                .put("status", "ok")
                .put("placement", "own CPU")
                .put("sync_wakeup", sync)
                .put("baseline_row", baselineRow)
                .put("runs_asked", (long) runMedians.size())
                .put("runs_completed", (long) runMedians.size())
                .put("samples", 1_000L * runMedians.size())
                .put("median_ns", runMedians.get(0))
                .put("added_ns", runMedians.get(0) - none.get(0));
        if (supervisor == null) {
            n.put("reference", "kernel notify loop");
        } else {
            n.put("supervisor", supervisor).put("answer", "continue");
        }
        n.set("run_medians_ns", JSON.valueToTree(runMedians));
        n.set("run_medians_none_ns", JSON.valueToTree(none));
        return SummaryJson.row(Path.of("test.json"), "row", n, FloorCostRow.class);
    }

    private static List<FloorCostRow> group(boolean sync, int at, List<Long> nat, List<Long> java) {
        List<Long> none = List.of(1_000L, 1_100L, 1_000L, 900L, 1_000L, 1_000L, 1_000L);
        List<Long> loop = List.of(11_000L, 13_100L, 9_000L, 10_900L, 11_000L, 11_000L, 11_000L);
        return List.of(
                paired(FloorRow.PAIRED_LOOP, null, sync, loop, none, at),
                paired(PairedRoundTrips.SUPERVISED, "native", sync, nat, none, at),
                paired(PairedRoundTrips.SUPERVISED, "java", sync, java, none, at));
    }

    /**
     * A round's ratio is the supervisor's run median less that round's call alone, over the loop's less the same:
     * a round whose every figure is slower (a burst) gives the same ratio as a quiet one, which the ratio of the
     * rows' medians over all rounds would not.
     */
    @Test
    void aRoundIsJudgedAgainstItsOwnLoopAndBaseline() {
        // native: each round exactly 1.02× the loop's round trip, whatever the round's level (12,000 in round 2)
        List<Long> nat = List.of(11_200L, 13_340L, 9_160L, 11_100L, 11_200L, 11_200L, 11_200L);
        List<Long> java = List.of(12_200L, 14_540L, 9_960L, 12_100L, 12_200L, 12_200L, 11_000L);
        List<FloorCostRow> summary = group(false, 0, nat, java);
        List<PairedRoundTrips.Paired> pairs = PairedRoundTrips.pairs(summary);
        assertEquals(2, pairs.size());
        PairedRoundTrips.Paired n = pairs.get(0);
        assertEquals("native", n.row().supervisor());
        assertArrayEquals(new double[] {1.02, 1.02, 1.02, 1.02, 1.02, 1.02, 1.02}, n.perRound(), 1e-9);
        assertEquals(1.02, n.ratio().estimate(), 1e-9);
        assertEquals("met", PairedRoundTrips.verdict(n));
        PairedRoundTrips.Paired j = pairs.get(1);
        // java: 1.12 in six rounds, 1.0 in the last
        assertEquals(1.12, j.ratio().estimate(), 1e-9);
        assertEquals(1.0, j.ratio().low(), 1e-9);
        assertEquals("not met at the median; the interval reaches below the goal", PairedRoundTrips.verdict(j));
        String text = PairedRoundTrips.section(summary);
        assertTrue(text.contains("7 rounds of 1,000 timed calls a child"), text);
        assertTrue(
                text.contains("| native | own CPU | off | +10.0 µs | +10.2 µs | 7 | 1.020× | [1.020, 1.020]× | ≤ 1.05× "
                        + "| met |"),
                text);
        assertTrue(text.contains("| java | own CPU | off |"), text);
    }

    /** Each wake-up's supervisor rows are set against the loop of their own group, never another's. */
    @Test
    void eachGroupHasItsOwnLoop() {
        List<Long> slow = List.of(12_000L, 14_300L, 9_800L, 11_900L, 12_000L, 12_000L, 12_000L);
        List<Long> same = List.of(11_000L, 13_100L, 9_000L, 10_900L, 11_000L, 11_000L, 11_000L);
        List<FloorCostRow> summary = new java.util.ArrayList<>(group(false, 0, slow, slow));
        summary.addAll(group(true, 3, same, same));
        List<PairedRoundTrips.Paired> pairs = PairedRoundTrips.pairs(summary);
        assertEquals(4, pairs.size());
        assertEquals("not met", PairedRoundTrips.verdict(pairs.get(0)), "1.10 in every round, over 1.05");
        assertEquals(1.0, pairs.get(2).ratio().estimate(), 1e-9);
        assertEquals(Boolean.TRUE, pairs.get(2).loop().syncWakeup());
    }

    /** A supervisor below its loop says whether the rounds tell the two apart. */
    @Test
    void belowTheLoopSaysWhetherTheRoundsTellThemApart() {
        List<Long> below = List.of(10_900L, 13_000L, 9_100L, 10_800L, 10_900L, 10_950L, 10_990L);
        List<Long> wellBelow = List.of(10_000L, 12_000L, 8_200L, 10_000L, 10_000L, 10_000L, 10_000L);
        String text = PairedRoundTrips.section(group(false, 0, below, wellBelow));
        assertTrue(text.contains("Below the loop at the median of the rounds:"), text);
        assertTrue(
                text.contains("- native supervisor, own CPU: 0.992× [0.990, 1.013]× the loop: the interval holds 1.0, "
                        + "so the rounds do not tell the two apart"),
                text);
        assertTrue(
                text.contains("- java supervisor, own CPU: 0.900× [0.900, 0.910]× the loop: the whole interval is "
                        + "below 1.0, beyond the rounds' noise: this run does not say why"),
                text);
    }

    /** A folder made before the paired rounds has no section and no pairs; a row without its loop has no ratio. */
    @Test
    void olderFoldersAndMissingLoopsSayNothing() {
        assertEquals("", PairedRoundTrips.section(List.of()));
        List<Long> none = List.of(1_000L, 1_000L);
        FloorCostRow orphan = paired(PairedRoundTrips.SUPERVISED, "native", false, List.of(11_000L, 11_000L), none, 0);
        PairedRoundTrips.Paired p = PairedRoundTrips.pairs(List.of(orphan)).get(0);
        assertNull(p.ratio());
        assertEquals("no complete round", PairedRoundTrips.verdict(p));
    }

    /** The rows: a group of loop, native, Java per placement and wake-up, all on the loop's one-rule filter. */
    @Test
    void theRowsAreGroupsOnOneFilter() {
        FloorCost.Options o = new FloorCost.Options(
                new FloorBench.Counts(7, 100, 300, 2_000, 20_000), Cpus.measuring(), Cpus.supervisor(), true);
        List<FloorRow> rows = FloorCost.rows(o);
        List<List<FloorRow>> groups = PairedRoundTrips.groups(rows);
        assertEquals(8, groups.size());
        for (List<FloorRow> g : groups) {
            assertEquals(3, g.size());
            assertTrue(g.get(0).notifyLoop());
            assertTrue(g.stream().allMatch(r -> r.floor() == g.get(0).floor()), "one filter for the group");
            assertTrue(g.stream()
                    .allMatch(
                            r -> r.broker().placement().equals(g.get(0).broker().placement())
                                    && r.broker().syncWakeUp()
                                            == g.get(0).broker().syncWakeUp()));
            assertEquals("native", g.get(1).broker().supervisor().label());
            assertEquals("java", g.get(2).broker().supervisor().label());
        }
        FloorBench.Counts c = PairedRoundTrips.counts(o.counts());
        assertEquals(21, c.runs());
        assertEquals(1_000, c.brokerWarmup());
        assertEquals(5_000, c.brokerCount());
    }
}
