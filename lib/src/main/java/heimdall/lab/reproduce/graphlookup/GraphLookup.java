package heimdall.lab.reproduce.graphlookup;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.SyntheticGraph;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.prepared.AutoLayout;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.PublishedGraphLookup;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The graph-lookup replay of seed {@code 002}: the transition work per event of every prepared layout
 * ({@code hash}, {@code dfa-words}, {@code dfa-offsets}, {@code dfa-compact}, {@code dfa-min-*}) over
 * the same traces, in one run.
 *
 * <p>Cases. The checked-in {@code abcdf} (constructed) and {@code broker} (recorded from the native
 * broker demo) graphs, imported with their SHA-256 pins, with one trace per thread entry walked over
 * the graph's sites ({@link Traces}: independent of any table; terminal paths reset the cursor; 1%
 * invalid calls, 1% repeats, 0.5% signal deliveries). Synthetic graphs of 64, 4,096 and 32,768 states
 * ({@link SyntheticGraph}), each with a hot trace (never calls the two alternating connector calls, so
 * it recurs in a small region) and a broad one (covers the full state range), both with 1% invalid
 * calls. Or, for an external pair, that graph alone with one trace per thread entry.
 *
 * <p>Method. Preparation (import, compile, minimize, tables) is done and timed before any replay. One
 * thread, pinned to {@code GRAPH_BENCH_CPU}, replays each case: untimed JIT warm-up replays
 * ({@link #warmJit}: the JVM needs them, the seed's Rust binary did not), a warm-up batch (sample 0, kept in
 * {@code samples.arrow}, excluded from summaries) then {@code GRAPH_BENCH_SAMPLES} batches of
 * {@code GRAPH_BENCH_CALLS} events; in every batch each layout replays the whole trace once from a reset
 * cursor ({@link Cursor#replay}, one {@code System.nanoTime} pair around it), and the layout order
 * rotates by one between batches. ns/event = batch time / trace events. Every layout must give the same
 * rejection count in every batch; a mismatch fails the run (exit 1, naming case, layouts and counts).
 * {@code auto} marks the layout {@link AutoLayout} picks for the graph (its reason is printed and kept).
 * {@code speedup_vs_hash_fastutil} divides the {@code hash-fastutil} median (the reference follower over
 * fastutil's map) the same way as
 * {@code speedup_vs_hash} = the hash median / the layout's median from the same run, null when the hash
 * baseline is absent (refused or not selected), never estimated.
 */
public final class GraphLookup {
    private GraphLookup() {}

    /** The checked-in graphs measured by default. */
    public static final List<String> FIXTURES = List.of("abcdf", "broker");
    /** Synthetic table sizes (states). */
    public static final List<Integer> SYNTHETIC_STATES = List.of(64, 4096, 32768);

    /**
     * What to run.
     *
     * @param layouts the layouts to prepare and replay (all by default)
     * @param external an external graph's nodes and edges files, instead of the built-in cases
     * @param allowUnpinned whether an external graph that no {@code SHA256SUMS} pins may be imported
     *     ({@code --unpinned}); otherwise it is bad input. Its digest is recorded either way.
     */
    public record Options(
            GraphBenchSettings settings, List<Layout> layouts, Optional<List<Path>> external, boolean allowUnpinned) {
        public Options {
            layouts = List.copyOf(layouts);
            if (layouts.isEmpty()) {
                throw new BadInput("no layouts selected");
            }
        }

        /** Pins required. */
        public Options(GraphBenchSettings settings, List<Layout> layouts, Optional<List<Path>> external) {
            this(settings, layouts, external, false);
        }
    }

    /** One graph and trace, prepared. */
    public record Case(
            String graph, String trace, PreparedGraph prepared, String entry, int[] events, double importMs) {}

    /**
     * What a run wrote.
     *
     * @param interruption the stop that cut the batches short, if one did; with an empty {@code summary}
     *     nothing was measured and nothing written (the caller removes the folder)
     */
    public record Result(
            Path folder,
            List<GraphLookupRow> summary,
            List<String> failures,
            Map<String, Double> warmPrepMs,
            Optional<Interruption.Cause> interruption) {
        public Result(
                Path folder, List<GraphLookupRow> summary, List<String> failures, Map<String, Double> warmPrepMs) {
            this(folder, summary, failures, warmPrepMs, Optional.empty());
        }
    }

    /**
     * Runs every case and keeps what was measured in {@code folder} as {@code ./lab reproduce} does
     * ({@link Kept#keep}); a call outside the framework (see {@link Session#join}). When a stop came
     * before any measured batch nothing is left and the result has no rows.
     */
    public static Result run(Options o, ResultsFolder folder, Consumer<String> progress) {
        Measured m = measure(o, Session.join(folder, progress));
        ReproductionResult r = m.result();
        List<GraphLookupRow> rows = ReproductionKind.of(GraphLookupRow.class).cast(r.summary());
        Map<String, Double> warm = m.warmPrepMs();
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return new Result(folder.target(), rows, r.failures(), warm, r.interruption());
        }
        return new Result(Kept.keep(folder, r, progress), rows, r.failures(), warm, r.interruption());
    }

    /**
     * Runs every case and returns what was measured for the framework to write ({@link Kept}): the rows,
     * marked interrupted after a stop with the batches each completed (its {@code samples.arrow} is
     * written into the session's folder here); {@link ReproductionResult#nothing} when a stop came before
     * any measured batch.
     */
    public static ReproductionResult run(Options o, Session session) {
        return measure(o, session).result();
    }

    /** What {@link #run(Options, Session)} returns, with the warm preparation times a notebook's result has. */
    private record Measured(ReproductionResult result, Map<String, Double> warmPrepMs) {}

    private static Measured measure(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        GraphBenchSettings s = o.settings();
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        Instant started = Instant.now();
        Map<String, Provenance> graphs = new LinkedHashMap<>(); // each imported graph: its digests, pinned or not
        List<Case> cases =
                o.external().isPresent() ? externalCases(o, progress, graphs) : builtinCases(o, progress, graphs);
        progress.accept(String.format(
                Locale.ROOT,
                "graph-lookup: %d cases x %d layouts, 1 warm-up + %d batches of %,d events, "
                        + "replay pinned to CPU %d (%s)",
                cases.size(),
                o.layouts().size(),
                s.samples(),
                s.calls(),
                s.cpu(),
                s.cpuFromEnv() ? s.cpuSetBy() : "default: the highest allowed CPU of " + Cpus.allowed()));

        int batches = s.samples() + 1;
        long[][][] nanos = new long[cases.size()][o.layouts().size()][batches];
        int[][][] rejections = new int[cases.size()][o.layouts().size()][batches];
        int[] granted = {-1};
        RuntimeException[] failure = {null};
        Map<String, Double> warm = new LinkedHashMap<>();
        int[] done = new int[cases.size()]; // batches each case completed, the warm-up batch included
        Thread replay = new Thread(
                () -> {
                    try {
                        granted[0] = Cpus.pinCurrentThread(s.cpu());
                        // A stop of the session (Stoppable) leaves off between batches: the batches completed are kept.
                        for (int c = 0; c < cases.size() && !session.stopRequested(); c++) {
                            done[c] = replayUntilStopped(
                                    cases.get(c), o.layouts(), batches, nanos[c], rejections[c], session);
                            loads.sample();
                            progress.accept(String.format(
                                    Locale.ROOT,
                                    "case %d of %d · %s / %s: %d of %d batches",
                                    c + 1,
                                    cases.size(),
                                    cases.get(c).graph(),
                                    cases.get(c).trace(),
                                    Math.max(0, done[c] - 1),
                                    s.samples()));
                        }
                        if (session.stopRequested()) {
                            return;
                        }
                        // On the same pinned thread, with the JIT warm from everything above.
                        System.gc();
                        warm.putAll(warmPreparation(cases, o, progress));
                    } catch (RuntimeException e) {
                        if (!session.stopOn(e)) {
                            failure[0] = e; // no measurement open: thrown below as before
                        }
                    }
                },
                "graph-lookup-replay");
        replay.start();
        try {
            replay.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying", e);
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        boolean complete = Arrays.stream(done).allMatch(d -> d == batches);
        Optional<Interruption.Cause> cause = complete ? Optional.empty() : session.stopCause();
        if (cause.isPresent() && Arrays.stream(done).allMatch(d -> d <= 1)) {
            // Stopped before any measured batch: nothing to keep (the framework clears the folder).
            return new Measured(ReproductionResult.nothing(cause), warm);
        }
        cause.ifPresent(x ->
                progress.accept("graph-lookup: " + x.said() + "; writing what was measured to " + folder.target()));

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

        samples.write(folder.path().resolve("samples.arrow"));
        GraphLookupSettings settings = GraphLookupSettings.of(
                s,
                granted[0],
                o.layouts().stream().map(Layout::wire).toList(),
                warm,
                o.external().map(l -> l.stream().map(Path::toString).toList()).orElse(null),
                graphs,
                loads,
                autoReasons);
        return new Measured(
                ReproductionResult.of(
                        ReproductionKind.of(GraphLookupRow.class, GraphLookupSettings.class),
                        new Recorded<>(summary, settings, host, started, Instant.now(), failures),
                        cause,
                        GraphLookupRun.report(summary, warm)),
                warm);
    }

    /** The median of {@code baseline}'s measured batches in this case, or null when it was not measured. */
    private static Double baselineMedian(List<Layout> layouts, double[][] measured, Layout baseline) {
        int l = layouts.indexOf(baseline);
        return l < 0 || measured[l] == null
                ? null
                : round(BatchSamples.Summary.of(measured[l]).median());
    }

    /** The baseline's median over this row's ({@code base} null: no baseline, left null, never estimated). */
    private static Double speedup(Double base, double[] measured) {
        double m = round(BatchSamples.Summary.of(measured).median()); // the medians as the rows have them
        return base == null || !(m > 0) ? null : round(base / m);
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
     * Replays one case: batches x layouts, the order rotating by one each batch; a stop of the session
     * throws {@link Interruption.Stopped}.
     */
    public static void replayCase(
            Case k, List<Layout> layouts, int batches, long[][] nanos, int[][] rejections, Session session) {
        if (replayUntilStopped(k, layouts, batches, nanos, rejections, session) < batches) {
            session.checkpoint();
        }
    }

    /** As {@link #replayCase}, but a stop leaves off between batches: returns the batches completed. */
    static int replayUntilStopped(
            Case k, List<Layout> layouts, int batches, long[][] nanos, int[][] rejections, Session session) {
        Cursor[] cursors = new Cursor[layouts.size()];
        for (int l = 0; l < layouts.size(); l++) {
            Prepared p = k.prepared().layouts().get(layouts.get(l));
            cursors[l] = p == null ? null : k.entry() == null ? p.unidentifiedCursor() : p.cursor(k.entry());
        }
        int[] events = k.events();
        warmJit(cursors, events);
        for (int b = 0; b < batches; b++) {
            if (session.stopRequested()) {
                return b;
            }
            for (int i = 0; i < layouts.size(); i++) {
                int l = (i + b) % layouts.size();
                Cursor cur = cursors[l];
                if (cur == null) {
                    continue;
                }
                cur.reset();
                long t0 = System.nanoTime();
                int r = cur.replay(events);
                long t1 = System.nanoTime();
                nanos[l][b] = t1 - t0;
                rejections[l][b] = r;
            }
        }
        return batches;
    }

    /** Untimed replays per layout before a case's batches: enough invocations for a full (not only OSR) compile. */
    public static final int JIT_WARMUP_CALLS = 800;
    /** Events of the trace prefix replayed by each untimed warm-up call. */
    public static final int JIT_WARMUP_EVENTS = 4096;

    /**
     * The JVM's part of warming up, before the seed's warm-up batch: each layout's {@code replay} is
     * called {@link #JIT_WARMUP_CALLS} times on the first {@link #JIT_WARMUP_EVENTS} events of the
     * case's trace (untimed, results discarded), so that the optimising compiler has compiled the
     * method itself rather than only an on-stack-replacement of its loop, then we wait until the JIT
     * has been idle for 100 ms (at most 2 s). Without it the first cases run partly in profiling code.
     */
    static void warmJit(Cursor[] cursors, int[] events) {
        int[] prefix = Arrays.copyOf(events, Math.min(events.length, JIT_WARMUP_EVENTS));
        for (Cursor cur : cursors) {
            if (cur == null) {
                continue;
            }
            for (int i = 0; i < JIT_WARMUP_CALLS; i++) {
                cur.reset();
                cur.replay(prefix);
            }
        }
        awaitJitIdle();
    }

    /** Waits until the JIT's total compilation time has not moved for 100 ms, at most 2 s. */
    public static void awaitJitIdle() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        long last = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = jit.getTotalCompilationTime();
            if (now == last) {
                return;
            }
            last = now;
        }
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
                        round(prep / 1e6),
                        k.importMs() < 0 ? null : round(k.importMs()),
                        p == null || p.payloadBytes() == Prepared.UNMEASURED ? null : (long) p.payloadBytes()),
                f == null ? null : new GraphLookupRow.Digests(f.pinned(), f.nodesSha256(), f.edgesSha256()),
                run.auto(),
                new GraphLookupRow.Batches(run.batchesAsked(), run.batchesCompleted(), run.interrupted()),
                status,
                reason,
                sum == null
                        ? null
                        : new GraphLookupRow.Figures(
                                round(sum.median()),
                                round(sum.min()),
                                round(sum.max()),
                                round(sum.spread()),
                                sum.noisy()),
                speedups,
                rejections,
                sum == null ? null : (long) sum.count(),
                run.rejectionsAgree(),
                published(k.graph(), layout, size),
                measured == null ? null : intervals(measured, round(sum.median())));
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

    public static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    // ---- cases -----------------------------------------------------------------------------------

    private static PreparedGraph prepare(Graph g, Options o) {
        GraphBenchSettings s = o.settings();
        return PreparedGraph.prepare(
                g,
                PreparedGraph.Options.defaults()
                        .withCoalesce(s.coalesce())
                        .withBudget(s.budget())
                        .withLimit(s.bytes())
                        .withLayouts(o.layouts()));
    }

    /** How imported graphs are walked: 1% invalid calls, 1% repeats, 0.5% signal deliveries. */
    public static Traces.Spec walkSpec(String entry, int length, long seed) {
        return Traces.Spec.of(entry, length, seed)
                .withInvalidRate(0.01)
                .withRepeatRate(0.01)
                .withSignalRate(0.005);
    }

    /**
     * What a results folder records of an imported graph (environment.json's {@code graphs}): its
     * files, their SHA-256 and whether pins listed them.
     */
    record Provenance(
            @JsonProperty("nodes") String nodes,
            @JsonProperty("edges") String edges,
            @JsonProperty("nodes_sha256") String nodesSha256,
            @JsonProperty("edges_sha256") String edgesSha256,
            @JsonProperty("pinned") boolean pinned) {}

    static Provenance provenance(GraphFiles.Imported imp) {
        return new Provenance(
                imp.nodes().toString(), imp.edges().toString(), imp.nodesSha256(), imp.edgesSha256(), imp.pinned());
    }

    static List<Case> importedCases(
            String name,
            GraphFiles.Imported imp,
            Options o,
            Consumer<String> progress,
            Map<String, Provenance> graphs) {
        graphs.put(name, provenance(imp));
        if (!imp.pinned()) {
            progress.accept(name + ": UNPINNED (--unpinned): nodes sha256 " + imp.nodesSha256() + ", edges sha256 "
                    + imp.edgesSha256());
        }
        PreparedGraph pg = prepare(imp.graph(), o);
        progress.accept(String.format(
                Locale.ROOT,
                "%s: %d sites, %d states (%d minimized), import %.3f ms, compile %.3f ms%s",
                name,
                imp.graph().siteCount(),
                pg.machine().states(),
                pg.minimized().states(),
                imp.nanos() / 1e6,
                pg.timings().compileNanos() / 1e6,
                imp.pinned() ? ", pins verified" : ", unpinned"));
        List<Case> cases = new ArrayList<>();
        for (String entry : imp.graph().threadEntries()) {
            cases.add(new Case(
                    name,
                    "walk " + entry,
                    pg,
                    entry,
                    walkTrace(imp.graph(), entry, o.settings().calls()),
                    imp.nanos() / 1e6));
        }
        return cases;
    }

    /**
     * The trace an imported graph's case replays for a thread entry: {@link #walkSpec} with a seed
     * derived from the entry's name, so another harness (the JMH cross-check) can replay the same events.
     */
    public static int[] walkTrace(Graph g, String entry, int length) {
        return Traces.walk(g, walkSpec(entry, length, 0x6a7e_0000L ^ entry.hashCode()));
    }

    static List<Case> builtinCases(Options o, Consumer<String> progress, Map<String, Provenance> graphs) {
        List<Case> cases = new ArrayList<>();
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        for (String name : FIXTURES) {
            GraphFiles.Imported imp = GraphFiles.readPinned(
                    dir.resolve(name + GraphFiles.NODES_SUFFIX), dir.resolve(name + GraphFiles.EDGES_SUFFIX));
            cases.addAll(importedCases(name, imp, o, progress, graphs));
        }
        for (int states : SYNTHETIC_STATES) {
            SyntheticGraph sg = SyntheticGraph.build(states, 0x5eed_0000L + states);
            PreparedGraph pg = prepare(sg.graph(), o);
            String name = "synthetic-" + states;
            progress.accept(String.format(
                    Locale.ROOT,
                    "%s: %d sites, %d states (%d minimized)",
                    name,
                    sg.graph().siteCount(),
                    pg.machine().states(),
                    pg.minimized().states()));
            int n = o.settings().calls();
            cases.add(new Case(
                    name,
                    "hot",
                    pg,
                    SyntheticGraph.MAIN,
                    Traces.walk(sg.graph(), sg.hotSpec(n, 0x40 + states).withInvalidRate(0.01)),
                    -1));
            cases.add(new Case(
                    name,
                    "broad",
                    pg,
                    SyntheticGraph.MAIN,
                    Traces.walk(sg.graph(), sg.broadSpec(n, 0xb0 + states).withInvalidRate(0.01)),
                    -1));
        }
        return cases;
    }

    /**
     * An external graph: imported with its pins required (the SHA256SUMS beside it must list both
     * files: bad input otherwise) unless {@link Options#allowUnpinned()}, its digests recorded either
     * way; compiled under the budgets; an unmapped function or an oversized machine is a {@link Refusal}.
     */
    static List<Case> externalCases(Options o, Consumer<String> progress, Map<String, Provenance> graphs) {
        List<Path> files = o.external().orElseThrow();
        GraphFiles.Imported imp = GraphFiles.read(files.get(0), files.get(1), !o.allowUnpinned());
        String name = files.get(0).getFileName().toString().replace(GraphFiles.NODES_SUFFIX, "");
        List<Case> cases = importedCases(name, imp, o, progress, graphs);
        if (cases.isEmpty()) {
            throw new Refusal(name + ": the graph has no thread entry to walk");
        }
        return cases;
    }

    /** Timed repetitions of the warm preparation (after 10 untimed ones); the median is reported. */
    public static final int WARM_REPEATS = 31;

    /**
     * Import plus compile of each imported graph, repeated once the JIT is warm (the replay has run),
     * on the pinned replay thread after a {@code System.gc()}: 10 untimed repetitions, then the median
     * of {@link #WARM_REPEATS}. On a shared 2-CPU host single repetitions vary several-fold (time slices
     * lost to other processes), hence the median.
     */
    static Map<String, Double> warmPreparation(List<Case> cases, Options o, Consumer<String> progress) {
        Map<String, Double> out = new LinkedHashMap<>();
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        for (Case k : cases) {
            if (k.importMs() < 0 || out.containsKey(k.graph())) {
                continue;
            }
            Path nodes = o.external().isPresent()
                    ? o.external().get().get(0)
                    : dir.resolve(k.graph() + GraphFiles.NODES_SUFFIX);
            Path edges = o.external().isPresent()
                    ? o.external().get().get(1)
                    : dir.resolve(k.graph() + GraphFiles.EDGES_SUFFIX);
            double[] ms = new double[WARM_REPEATS];
            double[] importMs = new double[WARM_REPEATS];
            double[] compileMs = new double[WARM_REPEATS];
            for (int i = -10; i < ms.length; i++) {
                long t0 = System.nanoTime();
                GraphFiles.Imported imp =
                        GraphFiles.read(nodes, edges, o.external().isEmpty() || !o.allowUnpinned());
                long t1 = System.nanoTime();
                Machine m = MachineCompiler.compile(imp.graph(), o.settings().budget());
                long t2 = System.nanoTime();
                if (m.states() < 1) {
                    throw new IllegalStateException("empty machine");
                }
                if (i >= 0) {
                    ms[i] = (t2 - t0) / 1e6;
                    importMs[i] = (t1 - t0) / 1e6;
                    compileMs[i] = (t2 - t1) / 1e6;
                }
            }
            Arrays.sort(ms);
            Arrays.sort(importMs);
            Arrays.sort(compileMs);
            out.put(k.graph(), round(ms[ms.length / 2]));
            progress.accept(String.format(
                    Locale.ROOT,
                    "%s: warm import + compile median %.3f ms (import alone %.3f, compile alone %.3f; "
                            + "fastest %.3f, slowest %.3f)",
                    k.graph(),
                    ms[ms.length / 2],
                    importMs[ms.length / 2],
                    compileMs[ms.length / 2],
                    ms[0],
                    ms[ms.length - 1]));
        }
        return out;
    }

    // ---- published figures and the table ---------------------------------------------------------

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
                        + WARM_REPEATS + " after 10 warm-up repetitions, on the pinned replay thread)%n",
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
