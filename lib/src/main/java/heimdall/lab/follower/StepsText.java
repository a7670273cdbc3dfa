package heimdall.lab.follower;

import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.RowIntervals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * follower-cost's {@code table.md} lines for a t_follow row's own work split by the parts of the step
 * ({@link FollowStep}, {@code step_*} in summary.json): the timed share of each part with its interval, the
 * kernel's count of each part, and the statistics runs' own timing beside that count. A row without the split
 * (t_idle, a folder made before it) has none.
 */
final class StepsText {
    private StepsText() {}

    /** The sub-list under a row's goal line, or nothing when the row has no split by step. */
    static String of(FollowerCostRow m, List<String> refusals) {
        FollowerCostRow.Steps st = m.steps();
        if (st.equals(FollowerCostRow.Steps.NONE)) {
            return "";
        }
        List<FollowerCostRow.Step> parts = st.inOrder();
        List<String> timed = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            FollowerCostRow.Step p = parts.get(i);
            String name = FollowStep.values()[i].part();
            if (p.refusal() != null && p.medianNs() == null) {
                timed.add(FollowerCostTable.note(name + " refused", p.refusal(), refusals));
            } else {
                timed.add(name + " " + (p.ns() == null ? "—" : p.ns() + " ns " + RowIntervals.cell(p.ci())));
            }
        }
        StringBuilder b = new StringBuilder(String.format(
                Locale.ROOT,
                "    - of the own work %s ns, by part (the follower stopped after each, in the same runs): %s%n",
                m.hookCost().ownNs() == null ? "—" : m.hookCost().ownNs(),
                String.join(", ", timed)));
        String counted = counted(m);
        if (!counted.isEmpty()) {
            b.append("    - ").append(counted).append('\n');
        }
        String withStats = withStatistics(m);
        if (!withStats.isEmpty()) {
            b.append("    - ").append(withStats).append('\n');
        }
        return b.toString();
    }

    /**
     * Each part by the kernel's count: its variant's ns a run less the part before it (the empty program's
     * before check; the whole program's count for the cell); empty when a count is missing.
     */
    private static String counted(FollowerCostRow m) {
        List<Double> counts = new ArrayList<>();
        counts.add(m.emptyProgram().nsPerRun());
        for (FollowerCostRow.Step p : m.steps().inOrder().subList(0, FollowStep.PARTIAL.size())) {
            counts.add(p.program().nsPerRun());
        }
        counts.add(m.program().nsPerRun());
        if (counts.contains(null)) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (int i = 1; i < counts.size(); i++) {
            parts.add(String.format(
                    Locale.ROOT, "%s %.1f", FollowStep.values()[i - 1].part(), counts.get(i) - counts.get(i - 1)));
        }
        return "by the kernel's count (a statistics run each, each part less the one before): "
                + String.join(", ", parts) + " ns a run";
    }

    /**
     * The statistics runs timed too: the child's median with the whole program less with the empty program, both
     * with statistics on, beside the count's own work and the own work timed without statistics.
     */
    private static String withStatistics(FollowerCostRow m) {
        Long program = m.program().timedMedianNs();
        Long empty = m.emptyProgram().timedMedianNs();
        Double countProgram = m.program().nsPerRun();
        Double countEmpty = m.emptyProgram().nsPerRun();
        if (program == null || empty == null || countProgram == null || countEmpty == null) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "timed in the statistics runs themselves (one run each, the statistics on): own work %d ns, against"
                        + " the count's %.1f ns and %s ns timed without statistics",
                program - empty,
                countProgram - countEmpty,
                m.hookCost().ownNs() == null ? "—" : m.hookCost().ownNs());
    }

    /** What the split by step means, once under the list; nothing when no row has one. */
    static String legend(List<FollowerCostRow> summary) {
        if (summary.stream().allMatch(m -> m.steps().equals(FollowerCostRow.Steps.NONE))) {
            return "";
        }
        return "\nBy part: the same follower program stopped after each part of a followed call's step (a read-only"
                + " knob set before load; the verifier drops the code past it), timed in the same runs as the rows:"
                + " check = the followed() test (process id, armed) and the killed test; cursor = the task's cursor"
                + " in task storage (bpf_task_storage_get); counters = the calls counters; cell = the bounds checks,"
                + " the cell lookup and the cursor's move (the whole step). Each part is the median at it less the"
                + " median at the part before (the empty program before check), so the parts add up to the own work;"
                + " the intervals are the Hodges–Lehmann shifts of the run medians, as the own work's. The kernel's"
                + " count and the timed figure measure different things: BPF_ENABLE_STATS reads the clock"
                + " (sched_clock) before and after each run and counts the time between, so a part's count is its"
                + " time with nothing around it to overlap, while a timed call lets the program's work overlap with"
                + " the system call's own path; that this overlap is the difference is a hypothesis, which the"
                + " statistics runs' own timing (above) tests on one run each.\n";
    }
}
