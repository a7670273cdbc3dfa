package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.BadInput;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.SyntheticGraph;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.prepared.AutoLayout;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
 * ({@code CaseReplay.warmJit}: the JVM needs them, the seed's Rust binary did not), a warm-up batch (sample 0, kept in
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

    /**
     * Prepares every case ({@link GraphCases}), then on one pinned thread replays them
     * ({@link CaseReplay}) and times the warm preparation ({@link WarmPreparation}); the rows are made from
     * what the replays recorded ({@link GraphLookupRows}).
     */
    private static Measured measure(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        GraphBenchSettings s = o.settings();
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        Instant started = Instant.now();
        Map<String, Provenance> graphs = new LinkedHashMap<>(); // each imported graph: its digests, pinned or not
        List<Case> cases = o.external().isPresent()
                ? GraphCases.external(o, progress, graphs)
                : GraphCases.builtin(o, progress, graphs);
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
                            done[c] = CaseReplay.untilStopped(
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
                        warm.putAll(WarmPreparation.time(cases, o, progress));
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

        GraphLookupRows.Tabulated rows = GraphLookupRows.of(cases, o, done, nanos, rejections, graphs, progress);
        rows.samples().write(folder.path().resolve("samples.arrow"));
        GraphLookupSettings settings = GraphLookupSettings.of(
                s,
                granted[0],
                o.layouts().stream().map(Layout::wire).toList(),
                warm,
                o.external().map(l -> l.stream().map(Path::toString).toList()).orElse(null),
                graphs,
                loads,
                rows.autoReasons());
        return new Measured(
                ReproductionResult.of(
                        ReproductionKind.of(GraphLookupRow.class, GraphLookupSettings.class),
                        new Recorded<>(rows.summary(), settings, host, started, Instant.now(), rows.failures()),
                        cause,
                        GraphLookupRun.report(rows.summary(), warm)),
                warm);
    }

    /**
     * Replays one case: batches x layouts, the order rotating by one each batch; a stop of the session
     * throws {@link Interruption.Stopped}.
     */
    public static void replayCase(
            Case k, List<Layout> layouts, int batches, long[][] nanos, int[][] rejections, Session session) {
        if (CaseReplay.untilStopped(k, layouts, batches, nanos, rejections, session) < batches) {
            session.checkpoint();
        }
    }

    /** A figure as the rows keep it: three decimals. */
    public static double round(double v) {
        return Math.round(v * 1000.0) / 1000.0;
    }

    /** How imported graphs are walked: 1% invalid calls, 1% repeats, 0.5% signal deliveries. */
    public static Traces.Spec walkSpec(String entry, int length, long seed) {
        return Traces.Spec.of(entry, length, seed)
                .withInvalidRate(0.01)
                .withRepeatRate(0.01)
                .withSignalRate(0.005);
    }

    /**
     * The trace an imported graph's case replays for a thread entry: {@link #walkSpec} with a seed
     * derived from the entry's name, so another harness (the JMH cross-check) can replay the same events.
     */
    public static int[] walkTrace(Graph g, String entry, int length) {
        return Traces.walk(g, walkSpec(entry, length, 0x6a7e_0000L ^ entry.hashCode()));
    }
}
