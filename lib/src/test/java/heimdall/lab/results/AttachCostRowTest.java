package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An attach-cost row built from parts has, literally, the 35 flat keys every attach-cost folder has,
 * in their order, then its intervals' (the main figure's, then the in-process attach's under
 * {@code attach_}); a fork-alone row without figures writes no part's keys and reads back equal.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AttachCostRowTest {
    /** The 35 flat keys of an attach-cost row, in the order attach-cost writes them. */
    static final List<String> ATTACH_COST_KEYS = List.of(
            "what",
            "call",
            "source",
            "insns",
            "loop_insns",
            "loop_adds_seccomp",
            "loop_kernel_insns",
            "samples_row",
            "attaches_per_run",
            "attach_budget",
            "attach_median_ns",
            "attach_p99_ns",
            "attach_first_ns",
            "attach_run_medians_ns",
            "attach_outside_ns_per_call",
            "attach_outside_totals_ns",
            "fork_attach_median_ns",
            "fork_attach_p99_ns",
            "fork_attach_run_medians_ns",
            "fork_attach_outside_ns_per_call",
            "fork_attach_outside_totals_ns",
            "attach_in_fork_added_ns",
            "compile_median_ns",
            "compile_p99_ns",
            "compiles",
            "fork_median_ns",
            "fork_p99_ns",
            "fork_run_medians_ns",
            "fork_outside_ns_per_call",
            "fork_outside_totals_ns",
            "status",
            "failure",
            "runs_asked",
            "runs_completed",
            "interrupted");

    private static List<String> ci(String prefix, String... figures) {
        List<String> out = new ArrayList<>();
        for (String f : figures) {
            for (String field : List.of("low_ns", "high_ns", "level", "coverage", "runs")) {
                out.add(prefix + f + "_ci_" + field);
            }
        }
        return out;
    }

    @Test
    void itsFlatKeysAreTheFoldersKeysThenItsIntervals() {
        assertEquals(35, ATTACH_COST_KEYS.size());
        List<String> want = new ArrayList<>(ATTACH_COST_KEYS);
        want.addAll(ci("", "median", "p99", "added"));
        want.addAll(ci("attach_", "median", "p99"));
        assertEquals(want, FlatRows.keys(AttachCostRow.class, ""));
    }

    @Test
    void aBareForkAloneRowWritesOnlyWhatItHasAndReadsBackEqual() {
        AttachCostRow row = new AttachCostRow(
                new AttachCostRow.Subject(AttachCostRow.FORK_ALONE, null, null, null, null, null, null),
                3L,
                null,
                null,
                null,
                null,
                null,
                null,
                RowStatus.NOT_MEASURED,
                null,
                new AttachCostRow.Runs(7L, 0L, true),
                null,
                null);
        var tree = SummaryJson.tree(row);
        List<String> keys = new ArrayList<>();
        tree.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("what", "samples_row", "status", "runs_asked", "runs_completed", "interrupted"), keys);
        assertEquals("not measured", tree.get("status").asText());
        AttachCostRow back = SummaryJson.row(Path.of("summary.json"), "rows[3]", tree, AttachCostRow.class);
        assertEquals(row, back);
        assertTrue(back.forkAlone());
        assertEquals(AttachCostRow.Timing.NONE, back.fork());
    }

    @Test
    void aRowNamesWhatItAttaches() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new AttachCostRow(
                        null, 0L, null, null, null, null, null, null, RowStatus.OK, null, null, null, null));
    }
}
