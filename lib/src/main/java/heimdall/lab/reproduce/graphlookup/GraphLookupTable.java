package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.PublishedGraphLookup;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.sys.Host;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * graph-lookup's {@code table.md}, made from a recorded run alone (so a committed folder redraws byte for
 * byte): the host and the seed's published broker figures, whether our broker graph is the seed's, the
 * rows, the warm preparation, failures, the graphs' pins and what auto picked.
 */
final class GraphLookupTable {
    private GraphLookupTable() {}

    /** The published figure of a row as the table shows it: marked when it is of another graph. */
    static String publishedCell(GraphLookupRow r) {
        GraphLookupRow.Published p = r.published();
        if (p.nsPerEvent() == null) {
            return "—";
        }
        if (Boolean.FALSE.equals(p.sameGraph())) {
            return p.nsPerEvent() + " (a different graph: " + p.sites() + " sites, " + p.states() + " states)";
        }
        return String.valueOf(p.nsPerEvent());
    }

    /**
     * One sentence saying whether our broker graph is the seed's, from the rows (null when no broker
     * row has a published twin).
     */
    static String sameGraphSentence(List<GraphLookupRow> summary) {
        for (GraphLookupRow r : summary) {
            GraphLookupRow.Published p = r.published();
            if ("dfa-offsets".equals(r.layout()) && p.sameGraph() != null) {
                return p.sameGraph()
                        ? String.format(
                                Locale.ROOT,
                                "Our broker graph has the seed's %s sites and %s states: the published figures are "
                                        + "of the same graph.",
                                r.size().sites(),
                                r.size().states())
                        : String.format(
                                Locale.ROOT,
                                "Our broker graph (%s sites, %s states) is not the seed's (%s sites, %s states): "
                                        + "the published ns/event is of a different graph, for scale only, not a "
                                        + "comparison.",
                                r.size().sites(),
                                r.size().states(),
                                p.sites(),
                                p.states());
            }
        }
        return null;
    }

    /**
     * {@code table.md}: every row beside the published broker figures, the warm preparation, failures,
     * the graphs' pins and what auto picked, made from the recorded run alone.
     */
    static String table(Recorded<GraphLookupRow, GraphLookupSettings> run) {
        List<GraphLookupRow> summary = run.rows();
        Host host = run.host();
        GraphLookupSettings settings = run.settings();
        GraphBenchSettings.Recorded s = settings.settings();
        Map<String, Double> warm = settings.warmPreparationMs();
        PublishedGraphLookup.BrokerGraph broker = PublishedGraphLookup.read().brokerGraph();
        StringBuilder md = new StringBuilder("# graph-lookup: transition work per event, every layout\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, Java %s. Replay pinned to CPU %d (granted %d; %s). "
                        + "1 warm-up batch (kept as sample 0, excluded) + %d batches of %,d events per layout, order "
                        + "rotating.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                System.getProperty("java.version"),
                s.cpu(),
                settings.replayCpuGranted(),
                "GRAPH_BENCH_CPU".equals(s.cpuSource()) ? "GRAPH_BENCH_CPU" : "default: highest allowed CPU",
                s.samples(),
                s.calls()));
        md.append(String.format(
                Locale.ROOT,
                "Published (seed 002, oden, 2026-11-08, Rust): broker graph %s sites, %s states, %s transitions, "
                        + "%s minimized; import + construction %s ms; dfa-offsets %s ns/event before minimization, "
                        + "%s after; "
                        + "no hash comparison (legacy construction over budget).%n%n",
                broker.sites(),
                broker.states(),
                broker.transitions(),
                broker.minimizedStates(),
                broker.importAndConstructionMs(),
                broker.dfaOffsetsNsPerEvent().beforeMinimization(),
                broker.dfaOffsetsNsPerEvent().afterMinimization()));
        String same = sameGraphSentence(summary);
        if (same != null) {
            md.append(same).append("\n\n");
        }
        MarkdownTable t = new MarkdownTable(List.of(
                "graph",
                "trace",
                "layout",
                "states",
                "transitions",
                "ns/event median",
                RowIntervals.heading("median"),
                "min – max",
                "spread",
                "speedup vs hash (own map)",
                "speedup vs hash-fastutil",
                "rejections",
                "prep ms",
                "payload bytes",
                "published ns/event"));
        for (GraphLookupRow r : summary) {
            boolean measured = r.outcome() == RowStatus.MEASURED;
            GraphLookupRow.Figures f = r.figures();
            t.row(List.of(
                    r.graph(),
                    r.trace(),
                    r.layout() + (Boolean.TRUE.equals(r.auto()) ? " (auto)" : ""),
                    cell(r.size().states()),
                    cell(r.size().transitions()),
                    measured ? fmt(f.median()) : r.status() + ": " + r.reason(),
                    measured ? intervalCell(r.intervals()) : "—",
                    measured ? fmt(f.min()) + " – " + fmt(f.max()) : "—",
                    measured
                            ? String.format(
                                    Locale.ROOT,
                                    "%.0f%%%s",
                                    100 * f.spread(),
                                    Boolean.TRUE.equals(f.noisy()) ? " noisy" : "")
                            : "—",
                    times(r.speedups().vsHash()),
                    times(r.speedups().vsHashFastutil()),
                    cell(r.rejections()),
                    fmt(r.preparation().prepMs()),
                    cell(r.preparation().payloadBytes()),
                    publishedCell(r)));
        }
        md.append(t.render()).append('\n');
        warm.forEach((g, ms) -> md.append(String.format(
                Locale.ROOT,
                "- preparing the %s graph (import and compile) took %.3f ms once the JIT is warm (median of "
                        + WarmPreparation.REPEATS + " after 10 warm-up repetitions, on the pinned replay thread)%n",
                g,
                ms)));
        run.failures().forEach(f -> md.append("- FAILED: ").append(f).append('\n'));
        settings.graphs()
                .forEach((g, files) -> md.append(
                        files.pinned()
                                ? "- " + g + ": pins verified (nodes sha256 " + files.nodesSha256() + ", edges "
                                        + files.edgesSha256() + ")\n"
                                : "- " + g + ": UNPINNED (--unpinned): nodes sha256 " + files.nodesSha256() + ", edges "
                                        + files.edgesSha256() + "; no SHA256SUMS line vouches for these files\n"));
        md.append("\nns/event: one batch's replay time / its events (calls, resets and signal deliveries), batch "
                + "medians, "
                + "not per-call latency. spread = (max − min) / median over the measured batches, noisy over " + "25%. "
                + "prep ms: compile (+ minimize for dfa-min-*) + building that layout, outside the timed loop. "
                + "payload bytes: the tables only (hash unmeasured).\n"
                + "median [95% CI]: a distribution-free interval of the median batch's ns/event over the "
                + "measured batches (order statistics, binomial ranks: stats.OrderStatistics), so a slow "
                + "batch widens it; its ends are whole ns, rounded outward. Up to 8 batches it is their "
                + "min – max, and below 6 it covers less than 95%: the coverage reached is given.\n");
        settings.auto()
                .forEach((g, reason) ->
                        md.append("- ").append(g).append(": ").append(reason).append('\n'));
        return md.toString();
    }

    /**
     * The median's interval as the table shows it: {@code "[1, 2]"} at the level, else with the
     * coverage the batches reach, {@code "[1, 2] (75% over 3 batches)"}; {@code "—"} for none.
     */
    static String intervalCell(RowIntervals intervals) {
        RowIntervals.Ci ci = intervals == null ? null : intervals.median();
        if (ci == null || ci.lowNs() == null || ci.highNs() == null) {
            return "—";
        }
        String bracket = String.format(Locale.ROOT, "[%,d, %,d]", ci.lowNs(), ci.highNs());
        if (ci.reached()) {
            return bracket;
        }
        double pc = ci.coverage() == null ? 0 : Math.round(ci.coverage() * 1000) / 10.0;
        return String.format(
                Locale.ROOT,
                "%s (%s%% over %d batches)",
                bracket,
                pc == Math.rint(pc) ? String.valueOf((long) pc) : String.valueOf(pc),
                ci.runs());
    }

    private static String times(Double speedup) {
        return speedup != null ? String.format(Locale.ROOT, "%.1f×", speedup) : "—";
    }

    private static String cell(Long v) {
        return v == null ? "—" : String.format(Locale.ROOT, "%,d", v);
    }

    private static String fmt(Double v) {
        return v == null ? "—" : String.format(Locale.ROOT, "%.3f", v);
    }
}
