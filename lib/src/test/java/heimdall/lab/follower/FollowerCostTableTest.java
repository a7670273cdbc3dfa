package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.analysis.Results;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.SummaryJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * follower-cost's table with the empty program's count beside the follower's ("empty ns/run") and, in the list
 * against the hook, the follower's own work by the kernel's count (program − empty ns/run); from the committed
 * folder made before that count (its rows have none: a dash and no sentence) and from its rows given one.
 */
class FollowerCostTableTest {
    /** A folder made with the follower's statistics run and t_hook, before the empty program's statistics run. */
    private static final Path BEFORE = Fixtures.home().resolve("results/2026-12-06-vm-follower-cost");

    /** An empty program's count: 61.2 ns a run over 700,000 runs. */
    private static final FollowerCostRow.ProgramCost EMPTY = new FollowerCostRow.ProgramCost(
            700_000L,
            42_840_000L,
            61.2,
            "one run with BPF_ENABLE_STATS and the empty program alone: it ran 700,000 times"
                    + " (every call of every task)",
            null);

    @Test
    void aFolderFromBeforeTheEmptyProgramsCountShowsADashAndNoKernelSentence() {
        List<FollowerCostRow> rows = Results.load(BEFORE).followerCost();
        assertEquals(12, rows.size());
        for (FollowerCostRow row : rows) {
            assertEquals(FollowerCostRow.ProgramCost.NONE, row.emptyProgram(), "absent keys read as none: " + row);
        }
        String table = FollowerCost.table(rows);
        assertTrue(table.contains("| program ns/run | empty ns/run | runs |"), table);
        // the follower counted, the empty program not: a dash beside the follower's count
        assertTrue(table.contains("| 159.9 (700,283 runs) | — | 7/7 |"), table);
        assertTrue(table.contains("| 88.6 (700,285 runs) | — | 7/7 |"), table);
        // a refused row has neither count: both cells blank
        assertTrue(table.contains("| refused [1] |  |  |  |  | 0/7 |"), table);
        // the list against the hook still says the timed own work, and nothing by the kernel's count
        assertTrue(
                table.contains("- t_idle · syscall-tracepoint · unrelated, no floor · getppid: t_hook 169 ns, own work "
                        + "20 ns [-60, 91] (goal ≤ 5 ns: not met)\n"),
                table);
        assertFalse(table.contains("by the kernel's count (a statistics run each)"), table);
        assertTrue(
                table.contains("empty ns/run: the same count for the empty program"), "the note says what: " + table);
    }

    @Test
    void rowsWithBothCountsShowTheEmptyProgramAndTheProgramsOwnWorkByTheKernelsCount() {
        List<FollowerCostRow> rows = new ArrayList<>(Results.load(BEFORE).followerCost());
        // the followed getppid (159.9 ns a run) and the unrelated one without a floor (88.6) counted against 61.2
        rows.set(0, withEmpty(rows.get(0), EMPTY));
        rows.set(3, withEmpty(rows.get(3), EMPTY));
        String table = FollowerCost.table(rows);
        assertTrue(table.contains("| 159.9 (700,283 runs) | 61.2 (700,000 runs) | 7/7 |"), table);
        assertTrue(table.contains("| 88.6 (700,285 runs) | 61.2 (700,000 runs) | 7/7 |"), table);
        assertTrue(table.contains("| 145.2 (700,375 runs) | — | 7/7 |"), "mprotect's row has no empty count: " + table);
        assertTrue(
                table.contains("- t_follow · syscall-tracepoint · followed child · getppid: t_hook 149 ns, own work "
                        + "42 ns [12, 70] (goal ≤ 20 ns: not met); by the kernel's count (a statistics run each) the "
                        + "program takes 159.9 ns a run, the empty program 61.2 ns: 98.7 ns its own\n"),
                table);
        assertTrue(
                table.contains("- t_idle · syscall-tracepoint · unrelated, no floor · getppid: t_hook 169 ns, own work "
                        + "20 ns [-60, 91] (goal ≤ 5 ns: not met); by the kernel's count (a statistics run each) the "
                        + "program takes 88.6 ns a run, the empty program 61.2 ns: 27.4 ns its own\n"),
                table);
        assertTrue(
                table.contains("mprotect: t_hook 141 ns, own work 50 ns [-159, 89] (goal ≤ 20 ns: not met)\n"),
                "a row without the empty count has no kernel sentence: " + table);
        assertEquals(2, table.split("by the kernel's count \\(a", -1).length - 1, table);
    }

    /** The empty program's count is written under empty_program_ and read back as it was. */
    @Test
    void theEmptyProgramsCountIsWrittenUnderItsPrefixAndReadsBack() {
        FollowerCostRow row = withEmpty(Results.load(BEFORE).followerCost().get(0), EMPTY);
        JsonNode tree = SummaryJson.tree(row);
        assertEquals(700_000L, tree.get("empty_program_runs").longValue());
        assertEquals(42_840_000L, tree.get("empty_program_run_time_ns").longValue());
        assertEquals(61.2, tree.get("empty_program_ns_per_run").doubleValue());
        assertEquals(EMPTY.statsNote(), tree.get("empty_program_stats_note").textValue());
        // t_hook's own key is untouched by the prefix
        assertEquals("tp_btf/sys_enter, returns 0", tree.get("empty_program").textValue());
        assertEquals(row, SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, FollowerCostRow.class));
    }

    private static FollowerCostRow withEmpty(FollowerCostRow m, FollowerCostRow.ProgramCost empty) {
        return new FollowerCostRow(
                m.subject(),
                m.outcome(),
                m.reason(),
                m.figures(),
                m.divergence(),
                m.published(),
                m.program(),
                m.runs(),
                m.hookCost(),
                empty,
                m.intervals());
    }
}
