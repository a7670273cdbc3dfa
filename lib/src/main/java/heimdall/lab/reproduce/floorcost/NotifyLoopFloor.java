package heimdall.lab.reproduce.floorcost;

import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.results.FloorCostRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * floor-cost's true floor for a round trip (issue 32): the kernel's notify loop, {@code perf bench sched
 * seccomp-notify}'s method (a trapped call, a supervisor that receives and answers {@code CONTINUE} and
 * does nothing else; {@code bench.NotifyLoop}), measured in the same run and in every placement of the
 * brokered rows, with the synchronous wake-up off and on. Its rows ({@link FloorRow#NOTIFY_LOOP}), each
 * brokered row's ratio to the loop of its placement and wake-up, and the table's section on them.
 */
final class NotifyLoopFloor {
    private NotifyLoopFloor() {}

    /** The goal for the native supervisor's CONTINUE round trip over the loop's (issue 32). */
    static final double NATIVE_GOAL = 1.05;

    /** The goal for the Java supervisor's. */
    static final double JAVA_GOAL = 1.10;

    /** The loop's call: {@code gettid}, trapped as the kernel's benchmark traps it. */
    static final String CALL = "gettid";

    /** One program: notify the supervisor of {@code gettid}, allow everything else; it hands out the listener. */
    static Floor floor() {
        return new Floor(FloorRow.NOTIFY_LOOP, List.of(Compiler.compile(Floors.brokerFilter(Set.of(CALL)))), 0);
    }

    /**
     * The loop in every placement of the brokered rows (own CPU, child's CPU, unpinned on {@code allowed},
     * the shared set {@code shared}), each with the synchronous wake-up off and on.
     */
    static List<FloorRow> rows(FloorCost.Options o, long allowed, long shared) {
        Floor floor = floor();
        List<FloorRow> rows = new ArrayList<>();
        for (boolean sync : List.of(false, true)) {
            for (FloorRow.Brokering b : List.of(
                    brokering(FloorCost.OWN_CPU, o.supervisorCpu(), sync, 0),
                    brokering(FloorCost.CHILDS_CPU, o.cpu(), sync, 0),
                    brokering(FloorCost.UNPINNED, -1, sync, allowed),
                    brokering(FloorCost.SHARED_SET, -1, sync, shared))) {
                rows.add(new FloorRow(floor.name(), floor, Call.GETTID, b, null));
            }
        }
        return rows;
    }

    /** The placement and wake-up; supervisor and answer name what the loop does (native code, CONTINUE). */
    private static FloorRow.Brokering brokering(String placement, int cpu, boolean sync, long set) {
        return new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, placement, cpu, sync, set);
    }

    /** Whether {@code r} is a row of the loop. */
    static boolean isLoop(FloorCostRow r) {
        return FloorSummary.NOTIFY_LOOP.equals(r.reference());
    }

    /**
     * A brokered row's figures against the loop of its placement and wake-up; nulls where there is none.
     *
     * @param floorNs the loop's round trip, as the row's is measured: its {@code added_ns}
     * @param vsFloor the row's {@code added_ns} over it
     */
    record Against(Long floorNs, Double vsFloor) {
        static final Against NONE = new Against(null, null);
    }

    /** For each row of {@code summary}, its figures against the loop ({@link Against#NONE} for a row without). */
    static List<Against> against(List<FloorCostRow> summary) {
        List<Against> out = new ArrayList<>();
        for (FloorCostRow r : summary) {
            FloorCostRow loop = r.supervisor() == null || r.addedNs() == null ? null : loopOf(summary, r);
            Long floor = loop == null ? null : loop.addedNs();
            out.add(floor == null || floor <= 0 ? Against.NONE : new Against(floor, ratio(r.addedNs(), floor)));
        }
        return out;
    }

    /** The loop row of {@code r}'s placement and wake-up, measured; null when there is none. */
    private static FloorCostRow loopOf(List<FloorCostRow> summary, FloorCostRow r) {
        return summary.stream()
                .filter(l -> isLoop(l)
                        && Objects.equals(l.placement(), r.placement())
                        && Boolean.TRUE.equals(l.syncWakeup()) == Boolean.TRUE.equals(r.syncWakeup())
                        && l.addedNs() != null)
                .findFirst()
                .orElse(null);
    }

    private static double ratio(long a, long b) {
        return Math.round(1000.0 * a / b) / 1000.0;
    }

    /**
     * The table's section: each loop timed both ways, each CONTINUE round trip against the loop of its
     * placement and wake-up with the goals, and for each row below its floor what the run measured
     * of why.
     */
    static String section(List<FloorCostRow> summary) {
        List<FloorCostRow> loops =
                summary.stream().filter(r -> isLoop(r) && r.addedNs() != null).toList();
        if (loops.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder(
                "\nRound trips against the kernel's notify loop (`perf bench sched seccomp-notify`'s method: a "
                        + "trapped `gettid`, a C thread in the supervisor's place that receives and answers "
                        + "CONTINUE, nothing else). As every row is timed: each call on the child's clock, "
                        + "medians; the trapped `gettid` less `gettid` alone is the loop's round trip, the floor "
                        + "every brokered round trip is a ratio to. As the kernel's benchmark times it: the loop's "
                        + "own clock from its receive of the first timed call to its answer of the last, divided "
                        + "by the calls (a mean, and it covers the child's whole iteration: its loop and clock "
                        + "read too), beside the mean of the child's own per-call times.\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "placement",
                "sync wake-up",
                "trapped `gettid`, median",
                "`gettid` alone",
                "round trip (medians)",
                "trapped `gettid`, mean (child's clock)",
                "per call (loop's clock)",
                "loop's clock − child's mean"));
        for (FloorCostRow l : loops) {
            Long wall = l.ratios().loopWallNs();
            Long mean = l.ratios().loopMeanNs();
            t.row(List.of(
                    l.placement(),
                    Boolean.TRUE.equals(l.syncWakeup()) ? "on" : "off",
                    MarkdownTable.ns(l.medianNs()),
                    l.medianNoneNs() == null ? "—" : MarkdownTable.ns(l.medianNoneNs()),
                    MarkdownTable.added(l.addedNs()),
                    mean == null ? "—" : MarkdownTable.ns(mean),
                    wall == null ? "—" : MarkdownTable.ns(wall),
                    wall == null || mean == null ? "—" : MarkdownTable.added(wall - mean)));
        }
        md.append(t.render()).append('\n');
        List<String> below = new ArrayList<>();
        for (FloorCostRow r : summary) {
            Double x = r.ratios().roundTripVsLoopFloor();
            if (x == null || !"continue".equals(r.answer())) {
                continue;
            }
            double goal = "java".equals(r.supervisor()) ? JAVA_GOAL : NATIVE_GOAL;
            md.append(String.format(
                    Locale.ROOT,
                    "- %s supervisor, %s, CONTINUE (%s%s): round trip %s = %.3f× the loop's %s (goal ≤ %.2f×: %s)%n",
                    r.supervisor(),
                    r.what(),
                    r.placement(),
                    Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "",
                    MarkdownTable.added(r.addedNs()),
                    x,
                    MarkdownTable.added(r.ratios().loopFloorNs()),
                    goal,
                    x <= goal ? "met" : "not met"));
            if (x < 1.0) {
                below.add(whyBelow(summary, r));
            }
        }
        if (!below.isEmpty()) {
            md.append("\nBelow the loop, and what this run measured of why:\n\n");
            below.forEach(b -> md.append(b).append('\n'));
        }
        md.append("\nThe loop and the native supervisor's fixed answers both wait blocked in the receive, so a "
                + "call wakes each the same way; the Java supervisor waits in `poll()` and then receives (one call "
                + "more a round trip, and a wake-up through the poll wait queue). A brokered row's round trip is "
                + "an `openat`'s added cost, the loop's a `gettid`'s: the call runs in the child after the "
                + "answer, on caches the other side has used, which the ping-pong's call floor measures.\n");
        return md.toString();
    }

    /**
     * Why a row came out below its loop, from what the run measured: the call after a round trip (the
     * ping-pong then {@code openat} less {@code openat} alone, against the bare ping-pong, same placement),
     * and what each clock covers (the loop's own clock against the child's, per call).
     */
    private static String whyBelow(List<FloorCostRow> summary, FloorCostRow r) {
        FloorCostRow loop = loopOf(summary, r);
        StringBuilder s = new StringBuilder(String.format(
                Locale.ROOT,
                "- %s supervisor, %s, CONTINUE (%s%s), %s below the loop's %s:",
                r.supervisor(),
                r.what(),
                r.placement(),
                Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "",
                MarkdownTable.ns(r.ratios().loopFloorNs() - r.addedNs()),
                MarkdownTable.added(r.ratios().loopFloorNs())));
        Long pure = r.ratios().floorNs();
        Long call = r.ratios().callFloorNs();
        if (pure != null && call != null) {
            s.append(String.format(
                    Locale.ROOT,
                    " the call after a round trip: in this placement a ping-pong then `openat` adds %s over "
                            + "`openat` alone, against %s for the bare ping-pong, so the `openat` itself costs %s "
                            + "%s right after a round trip than alone (the loop's `gettid` does almost nothing "
                            + "to gain or lose);",
                    MarkdownTable.added(call),
                    MarkdownTable.ns(pure),
                    MarkdownTable.ns(Math.abs(pure - call)),
                    call < pure ? "less" : "more"));
        }
        Long mean = loop == null ? null : loop.ratios().loopMeanNs();
        Long wall = loop == null ? null : loop.ratios().loopWallNs();
        if (mean != null && wall != null) {
            s.append(String.format(
                    Locale.ROOT,
                    " the clocks: the child's clock covers one trapped call, entry to return (the loop's "
                            + "`gettid`: %s median, %s mean); the loop's own clock covers the child's whole "
                            + "iteration, %s a call, %s more than the child's mean: the child's loop and clock "
                            + "read, which no row's figure holds, and any wait between calls.",
                    MarkdownTable.ns(loop.medianNs()),
                    MarkdownTable.ns(mean),
                    MarkdownTable.ns(wall),
                    MarkdownTable.added(wall - mean)));
        }
        return s.toString();
    }
}
