package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.bench.BatchSamples;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.prepared.AutoLayout;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Case;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Options;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.PublishedGraphLookup;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * graph-lookup's rows, from what the replays recorded: one per case and layout, measured or saying why
 * not, with its figures over the measured batches, its interval, the speedups over the case's hash
 * baselines, whether the layouts agreed on rejections, and the published broker figure beside it.
 */
final class GraphLookupRows {
    private GraphLookupRows() {}

    /**
     * What the rows of a run come to: the rows, every batch's ns per event for {@code samples.arrow}
     * (the warm-up batch as sample 0), a failure per case whose layouts disagreed on rejections, and
     * why auto picked its layout, per graph.
     */
    record Tabulated(
            List<GraphLookupRow> summary,
            BatchSamples samples,
            List<String> failures,
            Map<String, String> autoReasons) {}

    /**
     * The rows of every case and layout, from the batches each case completed ({@code done}, the warm-up
     * batch included) and their times and rejection counts ({@code nanos}, {@code rejections}: per case,
     * layout in {@code o.layouts()} order, and batch); auto's reason for each graph is said to
     * {@code progress} once.
     */
    static Tabulated of(
            List<Case> cases,
            Options o,
            int[] done,
            long[][][] nanos,
            int[][][] rejections,
            Map<String, Provenance> graphs,
            Consumer<String> progress) {
        GraphBenchSettings s = o.settings();
        BatchSamples samples = new BatchSamples("ns_per_event");
        List<GraphLookupRow> summary = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        Map<String, String> autoReasons = new LinkedHashMap<>();
        for (int c = 0; c < cases.size(); c++) {
            Case k = cases.get(c);
            AutoLayout auto = k.prepared().auto();
            if (autoReasons.putIfAbsent(k.graph(), auto.reason()) == null) {
                progress.accept(k.graph() + ": " + auto.reason());
            }
            int firstRow = summary.size(); // each layout gives the case one row, in layout order
            int caseDone = done[c];
            int[][] completedRejections = Arrays.stream(rejections[c])
                    .map(r -> Arrays.copyOf(r, caseDone))
                    .toArray(int[][]::new);
            String disagreement =
                    disagreement(o.layouts(), k.prepared().layouts().keySet(), completedRejections);
            if (disagreement != null) {
                failures.add(k.graph() + " / " + k.trace() + ": " + disagreement);
            }
            // every measured layout's batch figures first: the hash baselines divide every row of the case
            double[][] measured = new double[o.layouts().size()][];
            for (int l = 0; l < o.layouts().size(); l++) {
                Prepared p = k.prepared().layouts().get(o.layouts().get(l));
                int completed = p == null ? 0 : Math.max(0, done[c] - 1);
                if (completed == 0) {
                    continue;
                }
                measured[l] = new double[completed];
                for (int b = 0; b < done[c]; b++) {
                    double v = (double) nanos[c][l][b] / k.events().length;
                    samples.add(firstRow + l, b, v);
                    if (b > 0) {
                        measured[l][b - 1] = v;
                    }
                }
            }
            Double hash = baselineMedian(o.layouts(), measured, Layout.HASH);
            Double fastutil = baselineMedian(o.layouts(), measured, Layout.HASH_FASTUTIL);
            for (int l = 0; l < o.layouts().size(); l++) {
                Layout layout = o.layouts().get(l);
                Prepared p = k.prepared().layouts().get(layout);
                RunFacts run = new RunFacts(
                        graphs.get(k.graph()),
                        layout == auto.layout(),
                        s.samples(),
                        measured[l] == null ? 0 : measured[l].length,
                        p != null && (measured[l] == null || measured[l].length < s.samples()),
                        disagreement == null ? null : false);
                if (measured[l] == null) {
                    summary.add(row(
                            k,
                            layout,
                            run,
                            p == null ? RowStatus.REFUSED : RowStatus.NOT_MEASURED,
                            p == null
                                    ? k.prepared().refusals().getOrDefault(layout, "not prepared")
                                    : "stopped before its first batch",
                            null,
                            null,
                            null));
                    continue;
                }
                summary.add(row(
                        k,
                        layout,
                        run,
                        RowStatus.MEASURED,
                        null,
                        measured[l],
                        (long) rejections[c][l][0],
                        new GraphLookupRow.Speedups(speedup(hash, measured[l]), speedup(fastutil, measured[l]))));
            }
        }
        return new Tabulated(summary, samples, failures, autoReasons);
    }

    /** The median of {@code baseline}'s measured batches in this case, or null when it was not measured. */
    private static Double baselineMedian(List<Layout> layouts, double[][] measured, Layout baseline) {
        int l = layouts.indexOf(baseline);
        return l < 0 || measured[l] == null
                ? null
                : GraphLookup.round(BatchSamples.Summary.of(measured[l]).median());
    }

    /** The baseline's median over this row's ({@code base} null: no baseline, left null, never estimated). */
    private static Double speedup(Double base, double[] measured) {
        double m = GraphLookup.round(BatchSamples.Summary.of(measured).median()); // the medians as the rows have them
        return base == null || !(m > 0) ? null : GraphLookup.round(base / m);
    }

    /**
     * Null when every replayed layout gave the same rejection count in every batch; otherwise which
     * layouts disagreed, with their counts per batch.
     *
     * @param rejections per layout (in {@code layouts} order), per batch
     */
    static String disagreement(List<Layout> layouts, Set<Layout> replayed, int[][] rejections) {
        Integer first = null;
        boolean differ = false;
        StringBuilder counts = new StringBuilder();
        for (int l = 0; l < layouts.size(); l++) {
            if (!replayed.contains(layouts.get(l))) {
                continue;
            }
            for (int r : rejections[l]) {
                if (first == null) {
                    first = r;
                } else if (r != first) {
                    differ = true;
                }
            }
            counts.append(counts.length() == 0 ? "" : "; ")
                    .append(layouts.get(l))
                    .append(" ")
                    .append(Arrays.toString(rejections[l]));
        }
        return differ ? "rejection counts differ across layouts or batches (" + counts + ")" : null;
    }

    /**
     * What a row records of its run beyond the case: the graph's files (null for synthetic graphs),
     * whether auto picks its layout, its batches, and false when the case's layouts disagreed on
     * rejections (null: they agreed).
     */
    private record RunFacts(
            Provenance files,
            boolean auto,
            long batchesAsked,
            long batchesCompleted,
            boolean interrupted,
            Boolean rejectionsAgree) {}

    /**
     * A row of {@code k} with {@code layout}: measured ({@code measured}, its batches' ns per event, and
     * {@code rejections} and {@code speedups} given) or not (all three null, {@code reason} says why).
     */
    private static GraphLookupRow row(
            Case k,
            Layout layout,
            RunFacts run,
            RowStatus status,
            String reason,
            double[] measured,
            Long rejections,
            GraphLookupRow.Speedups speedups) {
        Machine m = layout.reference()
                ? null
                : layout.minimized() ? k.prepared().minimized() : k.prepared().machine();
        PreparedGraph.Timings t = k.prepared().timings();
        long prep = t.coalesceNanos()
                + t.prepareNanos().getOrDefault(layout, 0L)
                + (layout.reference() ? 0 : t.compileNanos() + (layout.minimized() ? t.minimizeNanos() : 0));
        Prepared p = k.prepared().layouts().get(layout);
        Provenance f = run.files();
        BatchSamples.Summary sum = measured == null ? null : BatchSamples.Summary.of(measured);
        GraphLookupRow.Size size = new GraphLookupRow.Size(
                (long) k.prepared().followed().siteCount(),
                m == null ? null : (long) m.states(),
                m == null ? null : (long) m.transitions(),
                (long) k.events().length);
        return new GraphLookupRow(
                k.graph(),
                k.trace(),
                layout.wire(),
                size,
                new GraphLookupRow.Preparation(
                        GraphLookup.round(prep / 1e6),
                        k.importMs() < 0 ? null : GraphLookup.round(k.importMs()),
                        p == null || p.payloadBytes() == Prepared.UNMEASURED ? null : (long) p.payloadBytes()),
                f == null ? null : new GraphLookupRow.Digests(f.pinned(), f.nodesSha256(), f.edgesSha256()),
                run.auto(),
                new GraphLookupRow.Batches(run.batchesAsked(), run.batchesCompleted(), run.interrupted()),
                status,
                reason,
                sum == null
                        ? null
                        : new GraphLookupRow.Figures(
                                GraphLookup.round(sum.median()),
                                GraphLookup.round(sum.min()),
                                GraphLookup.round(sum.max()),
                                GraphLookup.round(sum.spread()),
                                sum.noisy()),
                speedups,
                rejections,
                sum == null ? null : (long) sum.count(),
                run.rejectionsAgree(),
                published(k.graph(), layout, size),
                measured == null ? null : intervals(measured, GraphLookup.round(sum.median())));
    }

    /**
     * The median's 95% interval over the measured batches: distribution-free, from order statistics of
     * the batch figures ({@link OrderStatistics#overRuns}, each batch one observation, so one slow batch
     * widens it), about the row's median. Null with fewer than two batches: one batch has no interval.
     * The row has no p99 (a batch is one figure), so no p99 interval; and no added cost.
     */
    static RowIntervals intervals(double[] measured, double median) {
        if (measured.length < 2) {
            return null;
        }
        Interval ci = OrderStatistics.overRuns(median, measured, Intervals.LEVEL);
        return RowIntervals.of(new Intervals(ci, null, null), measured.length, measured.length);
    }

    /**
     * The seed's broker offsets figure beside ours (before and after minimization), with whether our
     * broker graph is the seed's: same sites and same states (minimized states for {@code dfa-min-*}).
     * When it is not, the published figure is of a different graph ({@code same_graph_as_published}
     * false) and only gives a scale. None for every other graph and layout.
     */
    static GraphLookupRow.Published published(String graph, Layout layout, GraphLookupRow.Size size) {
        if (!"broker".equals(graph) || (layout != Layout.DFA_OFFSETS && layout != Layout.DFA_MIN_OFFSETS)) {
            return GraphLookupRow.Published.NONE;
        }
        PublishedGraphLookup.BrokerGraph broker = PublishedGraphLookup.read().brokerGraph();
        boolean minimized = layout == Layout.DFA_MIN_OFFSETS;
        Long theirStates = minimized ? broker.minimizedStates() : broker.states();
        return new GraphLookupRow.Published(
                minimized
                        ? broker.dfaOffsetsNsPerEvent().afterMinimization()
                        : broker.dfaOffsetsNsPerEvent().beforeMinimization(),
                broker.sites(),
                theirStates,
                Objects.equals(size.sites(), broker.sites()) && Objects.equals(size.states(), theirStates));
    }
}
