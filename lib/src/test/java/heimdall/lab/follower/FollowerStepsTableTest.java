package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.analysis.Results;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.SummaryJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * follower-cost's split of the own work by step in {@code table.md} and {@code summary.json}: a folder made before
 * it loads with none and its table has no such lines; rows given one show each part's share with its interval,
 * the kernel's count per part and the statistics runs' own timing, a refused part with its reason; and the
 * {@code step_*} keys read back as written.
 */
class FollowerStepsTableTest {
    /** A quiet full run made with both counts and t_hook, before the split by step. */
    private static final Path BEFORE = Fixtures.home().resolve("results/2026-12-06-vm-follower-cost-2");

    private static RowIntervals.Ci ci(long low, long high) {
        return new RowIntervals.Ci(low, high, 0.95, 0.98, 7L);
    }

    private static FollowerCostRow.ProgramCost count(double nsPerRun, long timedMedian) {
        return new FollowerCostRow.ProgramCost(
                700_000L, Math.round(nsPerRun * 700_000), nsPerRun, "one run with BPF_ENABLE_STATS", timedMedian);
    }

    /** getppid's parts: 4 + 15 + 3 + 10 = its own work of 32 ns; counts 70, 120, 160 ns a run. */
    private static FollowerCostRow.Steps steps(String countersRefused) {
        return new FollowerCostRow.Steps(
                new FollowerCostRow.Step(1215L, List.of(1215L), 4L, ci(-20, 30), count(70.0, 1210), null),
                new FollowerCostRow.Step(1230L, List.of(1230L), 15L, ci(0, 40), count(120.0, 1240), null),
                countersRefused == null
                        ? new FollowerCostRow.Step(1233L, List.of(1233L), 3L, ci(-10, 20), count(160.0, 1290), null)
                        : new FollowerCostRow.Step(
                                null, null, null, null, FollowerCostRow.ProgramCost.none("refused"), countersRefused),
                new FollowerCostRow.Step(null, null, 10L, ci(-5, 25), null, null));
    }

    /** Row 0 (the followed getppid) given steps, and its counts given the statistics runs' timed medians. */
    private static FollowerCostRow withSteps(FollowerCostRow m, FollowerCostRow.Steps steps) {
        FollowerCostRow.ProgramCost p = m.program();
        FollowerCostRow.ProgramCost e = m.emptyProgram();
        return new FollowerCostRow(
                m.subject(),
                m.outcome(),
                m.reason(),
                m.figures(),
                m.divergence(),
                m.published(),
                new FollowerCostRow.ProgramCost(p.runs(), p.runTimeNs(), p.nsPerRun(), p.statsNote(), 1330L),
                m.runs(),
                m.hookCost(),
                new FollowerCostRow.ProgramCost(e.runs(), e.runTimeNs(), e.nsPerRun(), e.statsNote(), 1230L),
                steps,
                m.intervals());
    }

    @Test
    void aFolderFromBeforeTheSplitLoadsWithNoneAndItsTableHasNoParts() {
        List<FollowerCostRow> rows = Results.load(BEFORE).followerCost();
        assertEquals(12, rows.size());
        for (FollowerCostRow row : rows) {
            assertEquals(FollowerCostRow.Steps.NONE, row.steps(), "absent step_* keys read as none: " + row);
            assertNull(row.program().timedMedianNs(), row.toString());
            assertNull(row.emptyProgram().timedMedianNs(), row.toString());
        }
        String table = FollowerCost.table(rows);
        assertTrue(table.contains("own work 32 ns [-10, 81] (goal ≤ 20 ns: not met); by the kernel's count"), table);
        assertFalse(table.contains("by part"), table);
        assertFalse(table.contains("By part:"), table);
        assertFalse(table.contains("timed in the statistics runs"), table);
    }

    @Test
    void rowsWithTheSplitSayEachPartItsCountAndTheStatisticsRunsTiming() {
        List<FollowerCostRow> rows = new ArrayList<>(Results.load(BEFORE).followerCost());
        rows.set(0, withSteps(rows.get(0), steps(null)));
        String table = FollowerCost.table(rows);
        assertTrue(
                table.contains("- t_follow · syscall-tracepoint · followed child · getppid: t_hook 159 ns, own work 32"
                        + " ns [-10, 81] (goal ≤ 20 ns: not met); by the kernel's count (a statistics run each) the"
                        + " program takes 188.3 ns a run, the empty program 64.5 ns: 123.8 ns its own\n"
                        + "    - of the own work 32 ns, by part (the follower stopped after each, in the same runs):"
                        + " check 4 ns [-20, 30], cursor 15 ns [0, 40], counters 3 ns [-10, 20], cell 10 ns [-5, 25]\n"
                        + "    - by the kernel's count (a statistics run each, each part less the one before): check"
                        + " 5.5, cursor 50.0, counters 40.0, cell 28.3 ns a run\n"
                        + "    - timed in the statistics runs themselves (one run each, the statistics on): own work"
                        + " 100 ns, against the count's 123.8 ns and 32 ns timed without statistics\n"),
                table);
        assertTrue(table.contains("\nBy part: the same follower program stopped after each part"), table);
        assertTrue(table.contains("is a hypothesis"), "the cause of the count's difference is told as one: " + table);
        // only the row given the split has it
        assertEquals(1, table.split("by part", -1).length - 1, table);
    }

    @Test
    void aRefusedPartIsSaidWithItsReasonAndNoCountIsMadeUp() {
        List<FollowerCostRow> rows = new ArrayList<>(Results.load(BEFORE).followerCost());
        rows.set(0, withSteps(rows.get(0), steps("the kernel refused the variant (EPERM)")));
        String table = FollowerCost.table(rows);
        assertTrue(
                table.contains("check 4 ns [-20, 30], cursor 15 ns [0, 40], counters refused [3], cell 10 ns"), table);
        assertTrue(table.contains("\n[3] the kernel refused the variant (EPERM)\n"), table);
        assertFalse(table.contains("each part less the one before"), "a part without a count: no counts line " + table);
    }

    /** The split is written under step_ (the cell's share and interval only) and reads back as it was. */
    @Test
    void theStepKeysAreWrittenAndReadBack() {
        FollowerCostRow row = withSteps(Results.load(BEFORE).followerCost().get(0), steps(null));
        JsonNode tree = SummaryJson.tree(row);
        assertEquals(1215, tree.get("step_check_median_ns").longValue());
        assertEquals(4, tree.get("step_check_ns").longValue());
        assertEquals(-20, tree.get("step_check_ci_low_ns").longValue());
        assertEquals(70.0, tree.get("step_check_program_ns_per_run").doubleValue());
        assertEquals(1210, tree.get("step_check_program_timed_median_ns").longValue());
        assertEquals(15, tree.get("step_cursor_ns").longValue());
        assertEquals(3, tree.get("step_counters_ns").longValue());
        assertEquals(10, tree.get("step_cell_ns").longValue());
        assertEquals(25, tree.get("step_cell_ci_high_ns").longValue());
        assertEquals(1330, tree.get("program_timed_median_ns").longValue());
        assertEquals(1230, tree.get("empty_program_timed_median_ns").longValue());
        assertFalse(tree.has("step_cell_median_ns") || tree.has("step_cell_program_ns_per_run"), tree.toString());
        assertFalse(tree.has("step_check_refusal"), "no refusal, no key: " + tree);
        assertEquals(row, SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, FollowerCostRow.class));

        FollowerCostRow refused = withSteps(row, steps("refused (EPERM)"));
        JsonNode t2 = SummaryJson.tree(refused);
        assertEquals("refused (EPERM)", t2.get("step_counters_refusal").textValue());
        assertFalse(t2.has("step_counters_ns"), t2.toString());
        assertEquals(refused, SummaryJson.row(Path.of("summary.json"), "rows[0]", t2, FollowerCostRow.class));
    }
}
