package heimdall.lab.reproduce.floorcost;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.reproduce.LoadLine;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.PublishedFloorRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.sys.Host;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * floor-cost's {@code table.md}, made from a recorded run alone (so a committed folder redraws byte for
 * byte): the host against the published one, the rows beside their published twins, the cross-row
 * ratios ({@link FloorCostRatios}) and the round trips against the host's floor, in words.
 */
final class FloorCostTable {
    private FloorCostTable() {}

    /** {@code table.md}: the published layout with our figures and the published ones side by side. */
    static String table(Recorded<FloorCostRow, FloorCostSettings> run) {
        List<FloorCostRow> summary = run.rows();
        Host host = run.host();
        FloorCostSettings o = run.settings();
        long timerNs = o.timerCostNs() == null ? -1 : o.timerCostNs().median();
        StringBuilder md = new StringBuilder();
        md.append("# floor-cost: what a call costs under the floor\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, clocksource %s; child on CPU %d, supervisor on CPU %d. "
                        + "%d runs a row, %,d warm-up and %,d measured calls (brokered: %,d and %,d). Timer cost "
                        + "(back-to-back reads): %d ns.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.clocksource(),
                o.cpu(),
                o.supervisorCpu(),
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.counts().brokerWarmup(),
                o.counts().brokerCount(),
                timerNs));
        md.append(LoadLine.of(host, summary)).append(' ');
        md.append("Published: 2026-11-08, oden (AMD Threadripper PRO 3975WX, kernel 7.0.0, load 52 to 83). ")
                .append(hostComparison(summary))
                .append("\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "what",
                "call",
                "BPF insns",
                "cache",
                "median, no filter",
                "median, filtered",
                RowIntervals.heading("median"),
                "added",
                RowIntervals.heading("added"),
                "p99, filtered",
                RowIntervals.heading("p99"),
                "spread",
                "published added",
                "added / published"));
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            String call = "`" + r.call() + "`";
            if (NotifyLoopFloor.isLoop(r)) {
                call += " (kernel notify loop" + placementText(r.placement())
                        + (Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "") + ")";
            } else if (r.isReference()) {
                call += " (partner "
                        + (FloorCost.CHILDS_CPU.equals(r.placement())
                                ? "on child's CPU"
                                : FloorCost.OWN_CPU.equals(r.placement()) ? "on own CPU" : r.placement())
                        + ")";
            } else if (r.answer() != null) {
                call += ", " + (r.answer().equals("continue") ? "CONTINUE" : "broker") + " (" + r.supervisor()
                        + placementText(r.placement())
                        + (Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "") + ")";
            }
            boolean failed = "failed".equals(r.status());
            t.row(List.of(
                    r.what(),
                    call,
                    String.valueOf(r.insns()),
                    r.cache() == null ? "—" : r.cache() ? "yes" : "no",
                    nsCell(r.medianNoneNs()),
                    failed ? "FAILED" : nsCell(r.medianNs()),
                    ci(r, RowIntervals::median),
                    r.addedNs() != null ? MarkdownTable.added(r.addedNs()) : "—",
                    ci(r, RowIntervals::added),
                    r.p99Ns() != null ? MarkdownTable.tail(r.p99Ns()) : "—",
                    ci(r, RowIntervals::p99),
                    r.spread() != null
                            ? String.format(
                                    Locale.ROOT,
                                    "%.0f%%%s",
                                    r.spread() * 100,
                                    Boolean.TRUE.equals(r.noisy()) ? " noisy" : "")
                            : "—",
                    p == null ? "—" : MarkdownTable.added(p.addedNs().doubleValue()),
                    r.addedVsPublished() != null ? String.format(Locale.ROOT, "%.2f×", r.addedVsPublished()) : "—"));
        }
        md.append(t.render()).append('\n');
        for (FloorCostRow r : summary) {
            if ("failed".equals(r.status())) {
                md.append("- FAILED: ")
                        .append(r.what())
                        .append(" · ")
                        .append(r.call())
                        .append(": ")
                        .append(r.failure())
                        .append('\n');
            }
            if ("interrupted".equals(r.status())) {
                md.append("- interrupted: ")
                        .append(r.what())
                        .append(" · ")
                        .append(r.call())
                        .append(": ")
                        .append(r.runsCompleted())
                        .append(" of ")
                        .append(r.runsAsked())
                        .append(" runs (")
                        .append(r.runs().runsNoneCompleted())
                        .append(" without the filter)\n");
            }
        }
        List<String> ratios = new ArrayList<>();
        for (FloorCostRow r : summary) {
            if (r.ratios().javaOverNative() != null) {
                ratios.add(String.format(
                        Locale.ROOT,
                        "- Java supervisor / native, %s, %s (%s%s): %.3f×",
                        r.what(),
                        r.answer(),
                        r.placement(),
                        Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "",
                        r.ratios().javaOverNative()));
            }
        }
        for (FloorCostRow r : summary) {
            if (r.ratios().vsDefaultPlacement() != null) {
                ratios.add(String.format(
                        Locale.ROOT,
                        "- %s supervisor on %s%s vs own CPU, %s, %s: %.3f× the median",
                        r.supervisor(),
                        r.placement(),
                        Boolean.TRUE.equals(r.syncWakeup()) ? " with sync wake-up" : "",
                        r.what(),
                        r.answer(),
                        r.ratios().vsDefaultPlacement()));
            }
        }
        if (!ratios.isEmpty()) {
            md.append("\nRatios (medians from this one run):\n\n");
            ratios.forEach(x -> md.append(x).append('\n'));
        }
        md.append(floorSection(summary));
        md.append(NotifyLoopFloor.section(summary));
        md.append(PairedRoundTrips.section(summary));
        md.append("\n`added` is a row's median minus the median of the same call with no filter, both measured in this "
                + "run; "
                + "`spread` is (max − min) / median of the per-run medians, flagged noisy over 25%. "
                + "Intervals (ns) are distribution-free: order statistics over the runs' medians and p99s, "
                + "and for "
                + "`added` the Hodges–Lehmann shift of the run medians; where the runs are too few for 95% the "
                + "coverage they reach is given. "
                + "`added / published` compares our added cost with the published one.\n");
        return md.toString();
    }

    /**
     * How this host compares with the published one, computed from the rows: our native
     * {@code getppid} (no filter) against the published one, and the range of ours / published over
     * every row with both medians, unfiltered and filtered. Only a ratio the data holds is stated.
     */
    static String hostComparison(List<FloorCostRow> summary) {
        StringBuilder s = new StringBuilder();
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            if ("getppid".equals(r.call())
                    && p != null
                    && r.medianNoneNs() != null
                    && p.medianNoneNs() != null
                    && p.medianNoneNs() > 0) {
                long ours = r.medianNoneNs();
                long theirs = p.medianNoneNs();
                s.append(String.format(
                        Locale.ROOT,
                        "Here a native `getppid` (no filter) takes %d ns against the published %d ns (%.2f×). ",
                        ours,
                        theirs,
                        (double) ours / theirs));
                break;
            }
        }
        double[] none = ratioRange(summary, FloorCostRow::medianNoneNs, PublishedFloorRow::medianNoneNs);
        double[] filtered = ratioRange(summary, FloorCostRow::medianNs, PublishedFloorRow::medianNs);
        if (none == null && filtered == null) {
            return s.append("No row has both our median and the published one, so no ratio between the hosts is given.")
                    .toString();
        }
        s.append("Across the rows with a published twin, our medians are ");
        if (none != null) {
            s.append(String.format(
                    Locale.ROOT, "%s the published ones without the filter (%d rows)", range(none), (int) none[2]));
        }
        if (filtered != null) {
            s.append(none != null ? " and " : "")
                    .append(String.format(Locale.ROOT, "%s with it (%d rows)", range(filtered), (int) filtered[2]));
        }
        return s.append(". The hosts differ, so compare added costs and ratios, not absolute medians.")
                .toString();
    }

    /** {min, max, count} of our figure / the published one over rows with both; null when none has. */
    private static double[] ratioRange(
            List<FloorCostRow> summary, Function<FloorCostRow, Long> ours, Function<PublishedFloorRow, Long> theirs) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            Long a = ours.apply(r);
            Long b = p == null ? null : theirs.apply(p);
            if (a != null && b != null && b > 0) {
                double x = a.doubleValue() / b;
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
                n++;
            }
        }
        return n == 0 ? null : new double[] {lo, hi, n};
    }

    private static String range(double[] r) {
        String lo = String.format(Locale.ROOT, "%.2f", r[0]);
        String hi = String.format(Locale.ROOT, "%.2f", r[1]);
        return lo.equals(hi) ? lo + "×" : lo + "–" + hi + "×";
    }

    /** The call cell's placement words: none for the default, else where the supervisor runs. */
    private static String placementText(String placement) {
        if (FloorCost.OWN_CPU.equals(placement)) {
            return "";
        }
        return FloorCost.CHILDS_CPU.equals(placement) ? ", on child's CPU" : ", " + placement;
    }

    /**
     * The round trips against the host's floor: each reference (the bare ping-pong, and the ping-pong
     * then openat less the openat alone), then each brokered row's added cost over the references of
     * its placement and over the best ones, and the fastest configuration against each.
     */
    static String floorSection(List<FloorCostRow> summary) {
        List<FloorCostRow> refs = summary.stream()
                .filter(r -> FloorCost.PURE.equals(r.reference()) && r.medianNs() != null)
                .toList();
        List<FloorCostRow> callRefs = summary.stream()
                .filter(r -> r.isReference()
                        && !FloorCost.PURE.equals(r.reference())
                        && r.ratios().vsBestCallFloor() != null)
                .toList();
        if (refs.isEmpty() && callRefs.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder(
                "\nRound trips against the host's floor (a pipe ping-pong between the child and a thread in "
                        + "the supervisor's place, no seccomp; a brokered row's round trip is its `added`):\n\n");
        for (FloorCostRow r : refs) {
            md.append(String.format(
                    Locale.ROOT,
                    "- floor, partner %s: %s (%.3f× the best floor)%n",
                    r.placement(),
                    MarkdownTable.ns(r.medianNs()),
                    r.ratios().vsBestFloor()));
        }
        for (FloorCostRow r : callRefs) {
            md.append(String.format(
                    Locale.ROOT,
                    "- call floor, partner %s: ping-pong then `openat` %s, less `openat` alone %s = %s "
                            + "(%.3f× the best call floor)%n",
                    r.placement(),
                    MarkdownTable.ns(r.medianNs()),
                    MarkdownTable.ns(r.medianNoneNs()),
                    MarkdownTable.ns(r.addedNs()),
                    r.ratios().vsBestCallFloor()));
        }
        if (!callRefs.isEmpty()) {
            md.append("\nThe call floor is measured as a brokered row's `added` is (the call after a round trip, less "
                    + "the call "
                    + "alone): an `openat` made right after two context switches runs on caches the other "
                    + "side has used, and "
                    + "a brokered `openat` answered CONTINUE pays that too.\n\n");
        }
        FloorCostRow fastest = null;
        FloorCostRow fastestCall = null;
        for (FloorCostRow r : summary) {
            Double best = r.ratios().roundTripVsBestFloor();
            if (best == null) {
                continue;
            }
            if (fastest == null || best < fastest.ratios().roundTripVsBestFloor()) {
                fastest = r;
            }
            Double bestCall = r.ratios().roundTripVsBestCallFloor();
            if (bestCall != null
                    && (fastestCall == null || bestCall < fastestCall.ratios().roundTripVsBestCallFloor())) {
                fastestCall = r;
            }
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: round trip %s = %s× its placement's floor, %.3f× the best floor",
                    configuration(r),
                    MarkdownTable.added(r.addedNs()),
                    ratio3(r.ratios().roundTripVsFloor()),
                    best));
            if (bestCall != null) {
                md.append(String.format(
                        Locale.ROOT,
                        "; %s× its placement's call floor, %.3f× the best call floor",
                        ratio3(r.ratios().roundTripVsCallFloor()),
                        bestCall));
            }
            md.append('\n');
        }
        if (fastest != null) {
            double best = fastest.ratios().roundTripVsBestFloor();
            md.append(String.format(
                    Locale.ROOT,
                    "%nFastest round trip: %s: %.3f× the best floor (goal: within 1.2×, %s).%n",
                    configuration(fastest),
                    best,
                    best <= 1.2 ? "met" : "not met"));
        }
        if (fastestCall != null) {
            double best = fastestCall.ratios().roundTripVsBestCallFloor();
            md.append(String.format(
                    Locale.ROOT,
                    "Fastest against the call floor (same method): %s: %.3f× the best call floor "
                            + "(within 1.2×: %s).%n",
                    configuration(fastestCall),
                    best,
                    best <= 1.2 ? "yes" : "no"));
        }
        return md.toString();
    }

    /**
     * A brokered row's configuration in words: {@code native supervisor, three answers, abcdf, continue (child's CPU)}.
     */
    private static String configuration(FloorCostRow r) {
        return String.format(
                Locale.ROOT,
                "%s supervisor, %s, %s (%s%s)",
                r.supervisor(),
                r.what(),
                r.answer(),
                r.placement(),
                Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "");
    }

    /** A row's interval cell, in ns ({@link RowIntervals#cell}); {@code "—"} for a row without. */
    private static String ci(FloorCostRow r, Function<RowIntervals, RowIntervals.Ci> which) {
        return RowIntervals.cell(which.apply(r.intervals()));
    }

    private static String nsCell(Long v) {
        return v != null ? MarkdownTable.ns(v) : "—";
    }

    /** A ratio as the table prints it, three decimals, or a dash when there is none. */
    private static String ratio3(Double x) {
        return x != null ? String.format(Locale.ROOT, "%.3f", x) : "—";
    }
}
