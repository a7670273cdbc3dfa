package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.command.Args;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.Headline;
import heimdall.lab.results.PublishedGraphLookup;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** graph-lookup (seed 002): every prepared layout replaying walked traces, against the hash baselines. */
public final class GraphLookupRun extends ReproductionKind<GraphLookupRow, GraphLookupSettings>
        implements Reproduction, KindPlots {
    public GraphLookupRun() {
        super("graph-lookup", GraphLookupRow.class, GraphLookupSettings.class);
    }

    @Override
    public Optional<ReproductionKind.RowIdentity> identity() {
        return Optional.of(new ReproductionKind.RowIdentity(
                List.of("graph", "trace", "layout"),
                "ns_per_event_median",
                "ns_per_event_median",
                "published_ns_per_event",
                "ns/event"));
    }

    @Override
    public Optional<Record> published() {
        return Optional.of(PublishedGraphLookup.read());
    }

    /** The first screen's finding of a row: its median ns per event, over its batches. */
    @Override
    public Optional<Headline> headline(GraphLookupRow row) {
        return Headline.of(row.intervals(), null, row.figures().median(), "ns/event", "batches");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return GraphLookupPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        List<ReproductionOption> all = new ArrayList<>(List.of(
                ReproductionOption.text(
                        "--layouts",
                        "L,..",
                        "replay only these layouts (without hash or hash-fastutil, that\n" + "speedup is null)",
                        "every layout",
                        "every layout"),
                ReproductionOption.flag(
                        "--unpinned",
                        "import NODES EDGES even when no SHA256SUMS beside them pins them (without\n"
                                + "it that is bad input); the results record each file's SHA-256 and pinned: false")));
        all.addAll(
                GraphBenchSettings.options("--cpu", "--calls", "--samples", "--coalesce", "--max-entries", "--bytes"));
        return List.copyOf(all);
    }

    @Override
    public String positionals() {
        return "[NODES EDGES]";
    }

    @Override
    public int maxPositionals() {
        return 2;
    }

    @Override
    public String notes() {
        return """
                Replays walked traces through every prepared layout (hash, hash-fastutil, dfa-words, dfa-offsets,
                dfa-compact, dfa-min-words, dfa-min-offsets, dfa-min-compact, dfa-min-narrow) in one run, marks the
                layout auto picks for each graph (with its one-line reason) and divides the two hash baselines
                (our own map, fastutil's Long2IntOpenHashMap) by each layout: the checked-in abcdf and broker
                graphs (pins verified) and synthetic 64/4,096/32,768-state tables with hot and broad traces; or,
                given NODES EDGES, that external graph alone. One pinned thread; a warm-up batch (sample 0,
                kept, excluded) then --samples batches of --calls events; layout order rotates between batches;
                preparation is timed outside the loop.

                Each option's variable in parentheses (seed 002's) is its fallback: a variable that is set wins
                over the defaults (and --quick's), an option given wins over both.

                Exit status 1 also when refused (an external graph with unmapped functions or an oversized
                machine: the reason is printed) or when rejection counts differed across layouts (named); 2 also
                for a file missing or unreadable, a digest that differs from its pin, a file no pin lists.
                Stops come between batches (batches_asked, batches_completed per row).
                """;
    }

    @Override
    public Run prepare(Args args) {
        if (args.positionals().size() != 0 && args.positionals().size() != 2) {
            throw new BadInput("reproduce graph-lookup: give both NODES and EDGES of an external graph, or neither");
        }
        List<Layout> layouts = new ArrayList<>(List.of(Layout.values()));
        Optional<String> only = option("--layouts").text(args);
        if (only.isPresent()) {
            layouts.clear();
            for (String name : only.get().split(",")) {
                Layout l = Layout.parse(name.strip());
                if (l == null) {
                    throw new BadInput(
                            "option --layouts: unknown layout '" + name + "'; one of " + List.of(Layout.values()));
                }
                layouts.add(l);
            }
        }
        Optional<List<Path>> external = args.positionals().isEmpty()
                ? Optional.empty()
                : Optional.of(List.of(
                        Path.of(args.positionals().get(0)),
                        Path.of(args.positionals().get(1))));
        boolean unpinned = option("--unpinned").given(args);
        if (unpinned && external.isEmpty()) {
            throw new BadInput(
                    "option --unpinned: only for an external graph (NODES EDGES); the checked-in graphs are always "
                            + "pinned");
        }
        GraphLookup.Options o =
                new GraphLookup.Options(GraphBenchSettings.of(args, options()), layouts, external, unpinned);
        return session -> GraphLookup.run(o, session);
    }

    @Override
    public String table(Recorded<GraphLookupRow, GraphLookupSettings> run) {
        return GraphLookup.table(run);
    }

    @Override
    public String shortfall() {
        return "fewer batches than asked (batches_completed in summary.json); no warm preparation timed";
    }

    /** The headline lines: the broker graph's dfa-offsets against hash, what auto picked, warm preparation. */
    static List<String> report(List<GraphLookupRow> rows, Map<String, Double> warmPrepMs) {
        List<String> lines = new ArrayList<>();
        if (rows.isEmpty()) {
            return lines;
        }
        for (GraphLookupRow row : rows) {
            if ("broker".equals(row.graph()) && "dfa-offsets".equals(row.layout()) && row.measured()) {
                GraphLookupRow hash = rows.stream()
                        .filter(h -> h.graph().equals("broker")
                                && h.trace().equals(row.trace())
                                && h.layout().equals("hash"))
                        .findFirst()
                        .orElse(null);
                lines.add(String.format(
                        Locale.ROOT,
                        "broker graph, %s: dfa-offsets %.3f ns/event, hash %s, speedup %s (this run)%s",
                        row.trace(),
                        row.figures().median(),
                        hash == null || !hash.measured()
                                ? "not measured"
                                : String.format(
                                        Locale.ROOT,
                                        "%.3f ns/event",
                                        hash.figures().median()),
                        row.speedups().vsHash() != null
                                ? String.format(
                                        Locale.ROOT, "%.1f×", row.speedups().vsHash())
                                : "null (no hash baseline)",
                        Boolean.FALSE.equals(row.published().sameGraph())
                                ? String.format(
                                        Locale.ROOT,
                                        "; the seed's %s ns/event is of a different graph (%s sites, %s states; ours "
                                                + "%s, %s)",
                                        row.published().nsPerEvent(),
                                        row.published().sites(),
                                        row.published().states(),
                                        row.size().sites(),
                                        row.size().states())
                                : ""));
            }
        }
        for (GraphLookupRow row : rows) {
            if (Boolean.TRUE.equals(row.auto()) && row.measured()) {
                lines.add(String.format(
                        Locale.ROOT,
                        "%s, %s: auto picks %s, %.3f ns/event; speedup vs hash (own map) %s, vs hash-fastutil %s "
                                + "(this run)",
                        row.graph(),
                        row.trace(),
                        row.layout(),
                        row.figures().median(),
                        times(row.speedups().vsHash()),
                        times(row.speedups().vsHashFastutil())));
            }
        }
        warmPrepMs.forEach((g, ms) -> lines.add(String.format(
                Locale.ROOT, "preparing the %s graph (import and compile) took %.3f ms once the JIT is warm", g, ms)));
        return lines;
    }

    private static String times(Double speedup) {
        return speedup != null ? String.format(Locale.ROOT, "%.1f×", speedup) : "null (baseline not measured)";
    }
}
