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
 *
 * <p>The loop traps two calls: {@code gettid}, as the kernel's benchmark does, and the brokered rows' own
 * {@code openat} of the same file. A call answered CONTINUE runs in the child after the round trip, on caches
 * the other side has used, and an {@code openat} has far more to lose there than a {@code gettid}: so a
 * brokered row's floor is the loop on its own call, and the {@code gettid} loop stands beside it as the
 * kernel's figure. (Folders made before the {@code openat} loop have the {@code gettid} loop only: their rows
 * are ratios to that, and their text says so.)
 */
final class NotifyLoopFloor {
    private NotifyLoopFloor() {}

    /** The goal for the native supervisor's CONTINUE round trip over the loop's (issue 32). */
    static final double NATIVE_GOAL = 1.05;

    /** The goal for the Java supervisor's. */
    static final double JAVA_GOAL = 1.10;

    /** The kernel benchmark's call: {@code gettid}, trapped as {@code perf bench sched seccomp-notify} traps it. */
    static final String KERNEL_CALL = "gettid";

    /** One program: notify the supervisor of {@code call}, allow everything else; it hands out the listener. */
    static Floor floor(Call call) {
        return new Floor(
                FloorRow.NOTIFY_LOOP,
                List.of(Compiler.compile(
                        Floors.brokerFilter(Set.of(call.kind().name().toLowerCase(Locale.ROOT))))),
                0);
    }

    /**
     * The loop in every placement of the brokered rows (own CPU, child's CPU, unpinned on {@code allowed},
     * the shared set {@code shared}), each with the synchronous wake-up off and on: trapping {@code gettid} (the
     * kernel benchmark's call) and {@code openat} (the brokered rows' own call, the floor they are ratios to).
     */
    static List<FloorRow> rows(FloorCost.Options o, long allowed, long shared, Call openat) {
        List<FloorRow> rows = new ArrayList<>();
        for (Call call : List.of(Call.GETTID, openat)) {
            Floor floor = floor(call);
            for (FloorRow.Brokering b : placements(o, allowed, shared)) {
                rows.add(new FloorRow(floor.name(), floor, call, b, null));
            }
        }
        return rows;
    }

    /**
     * The loop's placements, as the brokered rows': own CPU, child's CPU, unpinned on {@code allowed}, the shared
     * set {@code shared}; the synchronous wake-up off, then on.
     */
    static List<FloorRow.Brokering> placements(FloorCost.Options o, long allowed, long shared) {
        List<FloorRow.Brokering> out = new ArrayList<>();
        for (boolean sync : List.of(false, true)) {
            out.add(brokering(FloorCost.OWN_CPU, o.supervisorCpu(), sync, 0));
            out.add(brokering(FloorCost.CHILDS_CPU, o.cpu(), sync, 0));
            out.add(brokering(FloorCost.UNPINNED, -1, sync, allowed));
            out.add(brokering(FloorCost.SHARED_SET, -1, sync, shared));
        }
        return out;
    }

    /** The placement and wake-up; supervisor and answer name what the loop does (native code, CONTINUE). */
    private static FloorRow.Brokering brokering(String placement, int cpu, boolean sync, long set) {
        return new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, placement, cpu, sync, set);
    }

    /** Whether {@code r} is a row of the loop (the main table's or the paired rounds'). */
    static boolean isLoop(FloorCostRow r) {
        return FloorSummary.NOTIFY_LOOP.equals(r.reference());
    }

    /** Whether {@code r} is a row of the loop in the main table (not one of {@link PairedRoundTrips}'). */
    static boolean isMainLoop(FloorCostRow r) {
        return isLoop(r) && !PairedRoundTrips.isPaired(r);
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

    /**
     * The loop row of {@code r}'s placement and wake-up on {@code r}'s own call, measured; in a folder made before
     * the loop trapped the rows' own call, the {@code gettid} loop; null when there is none.
     */
    private static FloorCostRow loopOf(List<FloorCostRow> summary, FloorCostRow r) {
        // A paired supervisor row's loop is the paired loop; every other row's, the main table's.
        boolean paired = PairedRoundTrips.isPaired(r);
        List<FloorCostRow> placed = summary.stream()
                .filter(l -> isLoop(l)
                        && PairedRoundTrips.isPaired(l) == paired
                        && Objects.equals(l.placement(), r.placement())
                        && Boolean.TRUE.equals(l.syncWakeup()) == Boolean.TRUE.equals(r.syncWakeup())
                        && l.addedNs() != null)
                .toList();
        return placed.stream()
                .filter(l -> l.subject().call().equals(r.subject().call()))
                .findFirst()
                .orElse(placed.stream()
                        .filter(l -> l.subject().call().equals(KERNEL_CALL))
                        .findFirst()
                        .orElse(null));
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
        List<FloorCostRow> loops = summary.stream()
                .filter(r -> isMainLoop(r) && r.addedNs() != null)
                .toList();
        if (loops.isEmpty()) {
            return "";
        }
        boolean ownCall = loops.stream().anyMatch(l -> !l.subject().call().equals(KERNEL_CALL));
        StringBuilder md = new StringBuilder(
                "\nRound trips against the kernel's notify loop (`perf bench sched seccomp-notify`'s method: a "
                        + "trapped call, a C thread in the supervisor's place that receives and answers "
                        + "CONTINUE, nothing else). "
                        + (ownCall
                                ? "It traps `gettid`, as the kernel's benchmark does, and the brokered rows' own "
                                        + "`openat` of the same file: a call answered CONTINUE runs in the child "
                                        + "after the round trip, on caches the other side has used, and an "
                                        + "`openat` has more to lose there than a `gettid`, so each brokered row "
                                        + "is a ratio to the `openat` loop of its placement and wake-up. "
                                : "It traps `gettid`, as the kernel's benchmark does (this folder was made "
                                        + "before the loop trapped the rows' own `openat`): each brokered row is "
                                        + "a ratio to it. ")
                        + "As every row is timed: each call on the child's clock, medians; the trapped call less "
                        + "the call alone is the loop's round trip. As the kernel's benchmark times it: the loop's "
                        + "own clock from its receive of the first timed call to its answer of the last, divided "
                        + "by the calls (a mean, and it covers the child's whole iteration: its loop and clock "
                        + "read too), beside the mean of the child's own per-call times.\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "call",
                "placement",
                "sync wake-up",
                "trapped, median",
                "alone",
                "round trip (medians)",
                "round trip [CI]",
                "trapped, mean (child's clock)",
                "per call (loop's clock)",
                "loop's clock − child's mean"));
        for (FloorCostRow l : loops) {
            Long wall = l.ratios().loopWallNs();
            Long mean = l.ratios().loopMeanNs();
            t.row(List.of(
                    "`" + l.subject().call() + "`",
                    l.placement(),
                    Boolean.TRUE.equals(l.syncWakeup()) ? "on" : "off",
                    MarkdownTable.ns(l.medianNs()),
                    l.medianNoneNs() == null ? "—" : MarkdownTable.ns(l.medianNoneNs()),
                    MarkdownTable.added(l.addedNs()),
                    addedCell(l),
                    mean == null ? "—" : MarkdownTable.ns(mean),
                    wall == null ? "—" : MarkdownTable.ns(wall),
                    wall == null || mean == null ? "—" : MarkdownTable.added(wall - mean)));
        }
        md.append(t.render()).append('\n');
        List<String> below = new ArrayList<>();
        for (FloorCostRow r : summary) {
            Double x = r.ratios().roundTripVsLoopFloor();
            if (x == null || !"continue".equals(r.answer()) || PairedRoundTrips.isPaired(r)) {
                continue;
            }
            FloorCostRow loop = loopOf(summary, r);
            double goal = "java".equals(r.supervisor()) ? JAVA_GOAL : NATIVE_GOAL;
            md.append(String.format(
                    Locale.ROOT,
                    "- %s supervisor, %s, CONTINUE (%s%s): round trip %s%s = %.3f× the `%s` loop's %s%s (goal ≤ "
                            + "%.2f×: %s)%n",
                    r.supervisor(),
                    r.what(),
                    r.placement(),
                    Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "",
                    MarkdownTable.added(r.addedNs()),
                    ci(r),
                    x,
                    loop == null ? KERNEL_CALL : loop.subject().call(),
                    MarkdownTable.added(r.ratios().loopFloorNs()),
                    ci(loop),
                    goal,
                    verdict(r, loop, x, goal)));
            FloorCostRow filter = ownFilter(summary, r);
            if (x > goal && loop != null && filter != null && filter.addedNs() != null) {
                long net = r.addedNs() - filter.addedNs();
                md.append(String.format(
                        Locale.ROOT,
                        "  - the row's own filter: %s on `%s` alone adds %s%s in this run; less that, the round trip "
                                + "is %s = %.3f× the loop's (the loop's program has one rule)%n",
                        filter.what(),
                        filter.subject().call(),
                        MarkdownTable.added(filter.addedNs()),
                        ci(filter),
                        MarkdownTable.added(net),
                        ratio(net, loop.addedNs())));
            }
            if (x < 1.0) {
                below.add(whyBelow(summary, r));
            }
        }
        if (!below.isEmpty()) {
            md.append("\nBelow the loop, and what this run measured of why:\n\n");
            below.forEach(b -> md.append(b).append('\n'));
        }
        if (summary.stream().anyMatch(FloorCostRow::paired)) {
            md.append("\nThese rows differ from the loop in their filter too and are far apart in time: the goals are "
                    + "judged on the same filter, round by round, in \"Paired round trips\" below.\n");
        }
        md.append("\nThe loop and the native supervisor's fixed answers both wait blocked in the receive, so a "
                + "call wakes each the same way; the Java supervisor waits in `poll()` and then receives (one call "
                + "more a round trip, and a wake-up through the poll wait queue). A brokered row's floor also runs "
                + "the row's own filter (the profile beneath the notifying program), which the loop's one-rule "
                + "program does not: that is in the row's round trip and not in the loop's.\n");
        return md.toString();
    }

    /**
     * The row of {@code r}'s profile alone as a static floor on the same call (a brokered row's floor is that
     * profile beneath the notifying program, so the profile's own evaluation is in its round trip); null when the
     * run has none.
     */
    private static FloorCostRow ownFilter(List<FloorCostRow> summary, FloorCostRow r) {
        int comma = r.what().indexOf(", ");
        if (comma < 0) {
            return null;
        }
        String profile = r.what().substring(comma);
        return summary.stream()
                .filter(f -> !f.brokered()
                        && !f.isReference()
                        && f.what().startsWith("static floor")
                        && f.what().endsWith(profile)
                        && f.subject().call().equals(r.subject().call()))
                .findFirst()
                .orElse(null);
    }

    /** A row's added cost's interval cell, or "—". */
    private static String addedCell(FloorCostRow r) {
        return r.intervals().added() == null ? "—" : r.intervals().added().cell();
    }

    /** The interval cell after a figure, {@code " [a, b]"}, or nothing when the row has none. */
    private static String ci(FloorCostRow r) {
        return r == null || r.intervals().added() == null
                ? ""
                : " " + r.intervals().added().cell();
    }

    /**
     * "met" or "not met" at the median; when the median misses, whether the two intervals still overlap (the
     * runs cannot tell the row from its goal) or not (a miss the runs resolve).
     */
    private static String verdict(FloorCostRow r, FloorCostRow loop, double x, double goal) {
        if (x <= goal) {
            return "met";
        }
        var a = r.intervals().added();
        var b = loop == null ? null : loop.intervals().added();
        if (a == null || b == null || a.lowNs() == null || b.highNs() == null) {
            return "not met";
        }
        return a.lowNs() <= Math.round(b.highNs() * goal)
                ? "not met at the median; the row's interval reaches below the goal over the loop's"
                : "not met, beyond both intervals";
    }

    /**
     * Why a row came out below its loop, from what the run measured: for a loop on another call, the call after a
     * round trip (the ping-pong then {@code openat} less {@code openat} alone, against the bare ping-pong, same
     * placement); the two intervals; and what each clock covers (the loop's own clock against the child's).
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
        var a = r.intervals().added();
        var b = loop == null ? null : loop.intervals().added();
        if (a != null
                && b != null
                && a.lowNs() != null
                && a.highNs() != null
                && b.lowNs() != null
                && b.highNs() != null) {
            boolean overlap = a.lowNs() <= b.highNs() && b.lowNs() <= a.highNs();
            s.append(String.format(
                    Locale.ROOT,
                    " the intervals: the row's round trip %s, the loop's %s: %s;",
                    a.cell(),
                    b.cell(),
                    overlap ? "they overlap, so the runs do not tell the two apart" : "apart"));
        }
        Long pure = r.ratios().floorNs();
        Long call = r.ratios().callFloorNs();
        boolean sameCall =
                loop != null && loop.subject().call().equals(r.subject().call());
        if (!sameCall && pure != null && call != null) {
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
                            + "`%s`: %s median, %s mean); the loop's own clock covers the child's whole "
                            + "iteration, %s a call, %s more than the child's mean: the child's loop and clock "
                            + "read, which no row's figure holds, and any wait between calls.",
                    loop.subject().call(),
                    MarkdownTable.ns(loop.medianNs()),
                    MarkdownTable.ns(mean),
                    MarkdownTable.ns(wall),
                    MarkdownTable.added(wall - mean)));
        }
        return s.toString();
    }
}
