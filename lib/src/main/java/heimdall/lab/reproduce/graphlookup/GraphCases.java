package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.SyntheticGraph;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Case;
import heimdall.lab.reproduce.graphlookup.GraphLookup.Options;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * graph-lookup's cases, imported, prepared and walked before any replay (so that preparation, timed on
 * its own, never shares a clock with the replays): the checked-in and synthetic graphs, or an external
 * one, each with its traces. Each imported graph's digests go into {@code graphs} as they are read.
 */
final class GraphCases {
    private GraphCases() {}

    /** Imports are timed by {@link GraphFiles}; preparing is timed by {@link PreparedGraph} itself. */
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

    /** One case per thread entry of an imported graph, walked ({@link GraphLookup#walkTrace}). */
    static List<Case> imported(
            String name,
            GraphFiles.Imported imp,
            Options o,
            Consumer<String> progress,
            Map<String, Provenance> graphs) {
        graphs.put(name, Provenance.of(imp));
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
                    GraphLookup.walkTrace(imp.graph(), entry, o.settings().calls()),
                    imp.nanos() / 1e6));
        }
        return cases;
    }

    /**
     * The built-in cases: the checked-in graphs (pins always required), then the synthetic tables with
     * a hot and a broad trace each.
     */
    static List<Case> builtin(Options o, Consumer<String> progress, Map<String, Provenance> graphs) {
        List<Case> cases = new ArrayList<>();
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        for (String name : GraphLookup.FIXTURES) {
            GraphFiles.Imported imp = GraphFiles.readPinned(
                    dir.resolve(name + GraphFiles.NODES_SUFFIX), dir.resolve(name + GraphFiles.EDGES_SUFFIX));
            cases.addAll(imported(name, imp, o, progress, graphs));
        }
        for (int states : GraphLookup.SYNTHETIC_STATES) {
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
    static List<Case> external(Options o, Consumer<String> progress, Map<String, Provenance> graphs) {
        List<Path> files = o.external().orElseThrow();
        GraphFiles.Imported imp = GraphFiles.read(files.get(0), files.get(1), !o.allowUnpinned());
        String name = files.get(0).getFileName().toString().replace(GraphFiles.NODES_SUFFIX, "");
        List<Case> cases = imported(name, imp, o, progress, graphs);
        if (cases.isEmpty()) {
            throw new Refusal(name + ": the graph has no thread entry to walk");
        }
        return cases;
    }
}
