package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.cli.Args;
import heimdall.lab.graph.prepared.Layout;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab reproduce graph-lookup [--quick] [--out DIR] [--layouts L,...] [NODES EDGES]}. */
public final class GraphLookupCommand {
    private GraphLookupCommand() {}

    public static final String HELP = """
            usage: ./lab reproduce graph-lookup [--quick] [--out DIR] [--layouts L,...] [--unpinned] [NODES EDGES]

            Replays walked traces through every prepared layout (hash, hash-fastutil, dfa-words, dfa-offsets,
            dfa-compact, dfa-min-words, dfa-min-offsets, dfa-min-compact, dfa-min-narrow) in one run, marks the
            layout auto picks for each graph (with its one-line reason) and divides the two hash baselines
            (our own map, fastutil's Long2IntOpenHashMap) by each layout: the checked-in abcdf and broker
            graphs (pins verified) and synthetic 64/4,096/32,768-state tables with hot and broad traces; or,
            given NODES EDGES, that external graph alone. One pinned thread; a warm-up batch (sample 0,
            kept, excluded) then GRAPH_BENCH_SAMPLES batches of GRAPH_BENCH_CALLS events; layout order
            rotates between batches; preparation is timed outside the loop.

              --quick         200,000 events, 3 batches (a variable that is set wins)
              --out DIR       the results folder (absent or empty); default results/<date>-<host>-graph-lookup[-N]/
              --layouts L,..  replay only these layouts (without hash or hash-fastutil, that speedup is null)
              --unpinned      import NODES EDGES even when no SHA256SUMS beside them pins them (without it
                              that is bad input); the results record each file's SHA-256 and pinned: false

            Environment (seed 002): GRAPH_BENCH_CPU (default: the highest allowed CPU), GRAPH_BENCH_CALLS
            (2,000,000), GRAPH_BENCH_SAMPLES (7), GRAPH_BENCH_COALESCE (0/1), GRAPH_BENCH_MAX_ENTRIES
            (construction budget, transitions, 1,048,576), GRAPH_BENCH_BYTES (payload budget, 268,435,456).

            Exit status: 0 measured; 1 refused (an external graph with unmapped functions or an oversized
            machine: the reason is printed) or rejection counts differed across layouts (named); 2 bad input
            (a file missing or unreadable, a digest that differs from its pin, a file no pin lists). An
            --out folder the user made is never removed, only left empty when nothing was written.
            Ctrl-C, SIGTERM or SIGHUP stop between batches: the batches completed are written, marked
            interrupted in summary.json (batches_asked, batches_completed per row); exit 128 + the signal.
            """;

    /** Runs the command line after {@code graph-lookup}. */
    public static int run(List<String> argv) {
        return run(argv, System.out, System.err);
    }

    static int run(List<String> argv, PrintStream out, PrintStream err) {
        Args args = Args.parse("reproduce graph-lookup", argv, Set.of("--quick", "--unpinned"), Set.of("--out", "--layouts"));
        if (args.positionals().size() != 0 && args.positionals().size() != 2) {
            throw new BadInput("reproduce graph-lookup: give both NODES and EDGES of an external graph, or neither");
        }
        List<Layout> layouts = new ArrayList<>(List.of(Layout.values()));
        if (args.value("--layouts").isPresent()) {
            layouts.clear();
            for (String name : args.value("--layouts").get().split(",")) {
                Layout l = Layout.parse(name.strip());
                if (l == null) {
                    throw new BadInput("option --layouts: unknown layout '" + name + "'; one of " + List.of(Layout.values()));
                }
                layouts.add(l);
            }
        }
        Optional<List<Path>> external = args.positionals().isEmpty() ? Optional.empty()
                : Optional.of(List.of(Path.of(args.positionals().get(0)), Path.of(args.positionals().get(1))));
        if (args.flag("--unpinned") && external.isEmpty()) {
            throw new BadInput("option --unpinned: only for an external graph (NODES EDGES); the checked-in graphs are always pinned");
        }
        GraphLookup.Options o = new GraphLookup.Options(GraphBenchSettings.fromEnvironment(args.flag("--quick")), layouts, external,
                args.flag("--unpinned"));
        ResultsFolder folder = args.value("--out").map(p -> ResultsFolder.chosen(Path.of(p))).orElseGet(() -> GraphLookup.defaultFolder("graph-lookup"));
        // Ctrl-C/SIGTERM stop between batches (Stoppable); an error leaves ours removed, the user's empty.
        Stoppable.Outcome<GraphLookup.Result> outcome;
        try {
            outcome = Stoppable.run("graph-lookup", folder, err::println, () -> GraphLookup.run(o, folder, err::println));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("graph-lookup interrupted", e);
        }
        if (outcome.discarded().isPresent()) {
            return outcome.discarded().get().exitStatus();
        }
        GraphLookup.Result r = outcome.result().orElseThrow();
        Optional<Integer> nothing = Stoppable.nothingMeasured("graph-lookup", folder, r.interruption(), !r.summary().isEmpty(), err::println);
        if (nothing.isPresent()) {
            return nothing.get();
        }
        heimdall.lab.analysis.Distributions.writeBeside(r.folder(), err::println);
        try {
            out.print(Files.readString(r.folder().resolve("table.md")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (GraphLookupRow row : r.summary()) {
            if ("broker".equals(row.graph()) && "dfa-offsets".equals(row.layout()) && row.nsPerEventMedian() != null) {
                GraphLookupRow hash = r.summary().stream().filter(h -> h.graph().equals("broker")
                        && h.trace().equals(row.trace()) && h.layout().equals("hash")).findFirst().orElse(null);
                out.printf(Locale.ROOT, "broker graph, %s: dfa-offsets %.3f ns/event, hash %s, speedup %s (this run)%s%n", row.trace(),
                        row.nsPerEventMedian(),
                        hash == null || hash.nsPerEventMedian() == null ? "not measured" : String.format(Locale.ROOT, "%.3f ns/event", hash.nsPerEventMedian()),
                        row.speedupVsHash() != null ? String.format(Locale.ROOT, "%.1f×", row.speedupVsHash()) : "null (no hash baseline)",
                        Boolean.FALSE.equals(row.sameGraphAsPublished())
                                ? String.format(Locale.ROOT, "; the seed's %s ns/event is of a different graph (%s sites, %s states; ours %s, %s)",
                                        row.publishedNsPerEvent(), row.publishedSites(), row.publishedStates(), row.sites(), row.states())
                                : "");
            }
        }
        for (GraphLookupRow row : r.summary()) {
            if (Boolean.TRUE.equals(row.auto()) && row.nsPerEventMedian() != null) {
                out.printf(Locale.ROOT, "%s, %s: auto picks %s, %.3f ns/event; speedup vs hash (own map) %s, vs hash-fastutil %s (this run)%n",
                        row.graph(), row.trace(), row.layout(), row.nsPerEventMedian(), times(row.speedupVsHash()),
                        times(row.speedupVsHashFastutil()));
            }
        }
        r.warmPrepMs().forEach((g, ms) -> out.printf(Locale.ROOT,
                "preparing the %s graph (import and compile) took %.3f ms once the JIT is warm%n", g, ms));
        r.failures().forEach(f -> out.println("FAILED: " + f));
        r.interruption().ifPresent(c -> out.println(Character.toUpperCase(c.said().charAt(0)) + c.said().substring(1)
                + ": what was measured is in the folder below, marked interrupted"));
        out.println(r.folder());
        return r.interruption().map(heimdall.lab.bench.Interruption.Cause::exitStatus).orElse(r.failures().isEmpty() ? 0 : 1);
    }

    private static String times(Double speedup) {
        return speedup != null ? String.format(Locale.ROOT, "%.1f×", speedup) : "null (baseline not measured)";
    }
}
