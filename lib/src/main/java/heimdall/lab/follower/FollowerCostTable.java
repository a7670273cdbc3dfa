package heimdall.lab.follower;

import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.FollowerCostRow.Measure;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** follower-cost's {@code table.md}: the cost rows with t_hook beside them, the goals against t_hook, the divergences. */
final class FollowerCostTable {
    private FollowerCostTable() {}

    /** {@code table.md}'s body: the cost rows, then the divergence rows, then each refusal once. */
    static String of(List<FollowerCostRow> summary) {
        StringBuilder b = new StringBuilder("# follower-cost\n\n");
        b.append("t_follow: what a followed call pays for the kernel step over the floor alone; t_idle: what a "
                + "process that is "
                + "not followed pays while the follower is attached.\n\n");
        b.append("| measure | hook | process | floor | call | without (ns) | with (ns) | added (ns) | "
                + RowIntervals.heading("added") + " | spread | program ns/run | empty ns/run | runs | published "
                + "| t_hook (ns) | " + RowIntervals.heading("t_hook") + " | own (ns) | " + RowIntervals.heading("own")
                + " |\n");
        b.append("|---|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---|---:|---|\n");
        List<String> refusals = new ArrayList<>();
        for (FollowerCostRow m : summary) {
            if (m.isDivergence()) {
                continue;
            }
            boolean ok = m.outcome() == RowStatus.OK;
            FollowerCostRow.Subject s = m.subject();
            FollowerCostRow.Figures f = m.figures();
            String spread = ok
                    ? String.format(
                            Locale.ROOT,
                            "%.0f%% / %.0f%%%s",
                            100 * f.spreadWithout(),
                            100 * f.spreadWith(),
                            Boolean.TRUE.equals(f.noisy()) ? " noisy" : "")
                    : "";
            String program = perRun(m.program());
            // a row with the follower's count and none of the empty program's (an older folder, a refused run): a dash
            String empty =
                    m.emptyProgram().nsPerRun() != null ? perRun(m.emptyProgram()) : program.isEmpty() ? "" : "—";
            b.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | not measured | %s |\n",
                    s.measure().label(),
                    s.hook(),
                    s.process(),
                    s.floor(),
                    s.call(),
                    ok ? f.medianWithoutNs() : "",
                    ok ? f.medianWithNs() : "",
                    ok ? f.addedNs() : status(m, refusals),
                    ok && !m.intervals().equals(RowIntervals.NONE)
                            ? RowIntervals.cell(m.intervals().added())
                            : "",
                    spread,
                    program,
                    empty,
                    m.runs().runsCompleted(),
                    m.runs().runsAsked(),
                    hookCells(m, refusals)));
        }
        b.append(hookGoals(summary, refusals));
        b.append("\nHow many calls a deviating process completes from its divergent call on (goal: 1, the divergent "
                + "call "
                + "itself: the kill lands as it returns):\n\n");
        b.append("| hook | process | calls completed from the divergence | calls begun after the kill, per run | runs "
                + "|\n");
        b.append("|---|---|---:|---|---:|\n");
        for (FollowerCostRow m : summary) {
            if (m.isDivergence()) {
                boolean ok = m.outcome() == RowStatus.OK;
                b.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %s | %s | %s/%s |\n",
                        m.subject().hook(),
                        m.subject().process(),
                        ok ? m.divergence().callsCompletedFromDivergence() : status(m, refusals),
                        ok ? m.divergence().callsBegunAfterKill() : "",
                        m.runs().runsCompleted(),
                        m.runs().runsAsked()));
            }
        }
        b.append("\nspread: (max − min) / median of the run medians, without / with the follower, noisy over 25%. "
                + "program ns/run: the follower program's own time per run as the kernel counts it "
                + "(BPF_ENABLE_STATS, one extra "
                + "run of the row with statistics on, not timed; on the tracepoint it runs for every call of "
                + "every task, on "
                + "fentry for every call of every filtered task: summary.json's program_stats_note says how "
                + "many were the "
                + "followed child's). empty ns/run: the same count for the empty program alone on the hook, "
                + "over one more run of the row with statistics on. BPF_ENABLE_STATS counts the time between two "
                + "clock reads around each run of a program, so both figures carry the same clock reads and the "
                + "same entry into the program; program − empty is the program's own work, its instructions and "
                + "helper calls (for a task it does not follow: one bpf_get_current_pid_tgid and a compare). "
                + "published: the seeds' figure (000, 002: the follower not built, its "
                + "cost not measured).\n");
        for (int i = 0; i < refusals.size(); i++) {
            b.append("\n[")
                    .append(i + 1)
                    .append("] ")
                    .append(refusals.get(i).replace("\n", "\n    "))
                    .append('\n');
        }
        return b.toString();
    }

    /** A program's count as a cell: ns a run and the runs counted, or nothing when there is no count. */
    private static String perRun(FollowerCostRow.ProgramCost p) {
        return p.nsPerRun() != null ? String.format(Locale.ROOT, "%.1f (%,d runs)", p.nsPerRun(), p.runs()) : "";
    }

    /** The t_hook cells of a cost row: t_hook and own work with their intervals, or the empty program's refusal. */
    private static String hookCells(FollowerCostRow m, List<String> refusals) {
        FollowerCostRow.HookCost h = m.hookCost();
        if (h.hookRefusal() != null && h.hookNs() == null) {
            return note("refused", h.hookRefusal(), refusals) + " | | | ";
        }
        if (h.hookNs() == null) {
            return " | | | ";
        }
        return h.hookNs() + " | " + RowIntervals.cell(h.hookCi()) + " | " + h.ownNs() + " | "
                + RowIntervals.cell(h.ownCi());
    }

    /** What design (a)'s follower adds over its hook, and whether it meets the goals. */
    static final long IDLE_GOAL_NS = 5;

    static final long FOLLOW_GOAL_NS = 20;

    /**
     * The goals of issue 32 for each hook with a measured t_hook: t_idle within t_hook + {@value #IDLE_GOAL_NS} ns,
     * t_follow within t_hook + {@value #FOLLOW_GOAL_NS} ns (own work at most that), judged on the median and
     * on the interval's upper end.
     */
    static String hookGoals(List<FollowerCostRow> summary, List<String> refusals) {
        StringBuilder b = new StringBuilder();
        for (FollowerCostRow m : summary) {
            FollowerCostRow.HookCost h = m.hookCost();
            if (m.isDivergence() || h.ownNs() == null) {
                continue;
            }
            long goal = m.subject().measure() == Measure.T_IDLE ? IDLE_GOAL_NS : FOLLOW_GOAL_NS;
            Long high = h.ownCi() == null ? null : h.ownCi().highNs();
            b.append(String.format(
                    Locale.ROOT,
                    "- %s · %s · %s · %s: t_hook %d ns, own work %d ns %s (goal ≤ %d ns: %s)%s%n",
                    m.subject().measure().label(),
                    m.subject().hook(),
                    m.subject().process(),
                    m.subject().call(),
                    h.hookNs(),
                    h.ownNs(),
                    RowIntervals.cell(h.ownCi()),
                    goal,
                    h.ownNs() <= goal
                            ? (high != null && high <= goal ? "met" : "median met, interval reaches past it")
                            : "not met",
                    kernelCount(m)));
            b.append(StepsText.of(m, refusals));
        }
        if (b.length() == 0) {
            return "";
        }
        return "\nThe follower against its hook: t_hook is an empty program alone on the same hook (it returns at"
                + " once), measured in the same runs as without and with the follower; own work is with the follower"
                + " less with the empty program, and where both were counted, the same by the kernel's count"
                + " (program − empty ns/run):\n\n" + b + StepsText.legend(summary);
    }

    /**
     * The follower's own work by the kernel's count, where the row has both statistics runs: the program's ns a
     * run less the empty program's on the same hook (empty when either count is missing, as in older folders).
     */
    private static String kernelCount(FollowerCostRow m) {
        Double program = m.program().nsPerRun();
        Double empty = m.emptyProgram().nsPerRun();
        if (program == null || empty == null) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "; by the kernel's count (a statistics run each) the program takes %.1f ns a run, the empty"
                        + " program %.1f ns: %.1f ns its own",
                program,
                empty,
                program - empty);
    }

    /** A row's status for the table; a refusal's reason goes to a numbered note below it (told once). */
    private static String status(FollowerCostRow m, List<String> refusals) {
        return note(m.status(), m.reason(), refusals);
    }

    /** {@code status}, with its reason as a numbered note below the table (each reason told once). */
    static String note(String status, String reason, List<String> refusals) {
        if (reason == null) {
            return status;
        }
        int k = refusals.indexOf(reason);
        if (k < 0) {
            refusals.add(reason);
            k = refusals.size() - 1;
        }
        return status + " [" + (k + 1) + "]";
    }
}
