package heimdall.lab.graph;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import heimdall.lab.Refusal;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.prepared.DfaCompact;
import heimdall.lab.graph.prepared.DfaWords;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab graph info NODES EDGES}: imports, compiles, minimizes and prepares a graph and reports figures. */
public final class GraphInfoCommand implements Command {
    private final PrintStream out;

    public GraphInfoCommand() {
        this(System.out);
    }

    GraphInfoCommand(PrintStream out) {
        this.out = out;
    }

    private static final CommandOptions OPTIONS = CommandOptions.of(
            Set.of("--json", "--coalesce", "--unpinned"), Set.of("--max-transitions", "--max-frames", "--bytes"));

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "graph info";
    }

    @Override
    public String summary() {
        return "import a graph (Arrow pair), compile, minimize, prepare; print sizes and times";
    }

    @Override
    public String help() {
        return """
                usage: ./lab graph info NODES EDGES [--json] [--unpinned] [--coalesce] [--max-transitions N] [--max-frames N] [--bytes N]

                Imports <program>.exec.nodes.arrow and <program>.exec.edges.arrow (checked against the
                SHA256SUMS beside them, which must list both unless --unpinned), compiles the reachable frames into a machine,
                minimizes it, and prepares every layout (hash, dfa-words, dfa-offsets, dfa-compact,
                dfa-min-*). Prints sites, entries, states, transitions, minimized states, payload_bytes per
                layout, and import and preparation times.

                  --json               one JSON object on stdout
                  --unpinned           import files no SHA256SUMS lists (their SHA-256 is printed, pinned false)
                  --coalesce           merge equivalent sites before compiling
                  --max-transitions N  construction budget in transitions (default 1,048,576)
                  --max-frames N       construction budget in frames/states (default 1,048,576)
                  --bytes N            preparation payload budget per layout (default 268,435,456)

                Exit status: 0; 1 when refused (unmapped functions, a budget exceeded: the reason and the
                figure reached are printed); 2 on bad input (missing file, pin mismatch, a file no pin lists
                without --unpinned, corrupt or wrongly typed Arrow file).""";
    }

    @Override
    public int run(List<String> argv) throws Exception {
        Args args = Args.parse(name(), argv, OPTIONS).atMost(2);
        Path nodes = Path.of(args.positional(0, "NODES (a .exec.nodes.arrow file)"));
        Path edges = Path.of(args.positional(1, "EDGES (a .exec.edges.arrow file)"));
        CompileBudget budget = CompileBudget.defaults()
                .withMaxTransitions(
                        args.longValue("--max-transitions", CompileBudget.DEFAULT_MAX_TRANSITIONS, 1, Long.MAX_VALUE))
                .withMaxFrames(args.longValue("--max-frames", CompileBudget.DEFAULT_MAX_FRAMES, 1, Long.MAX_VALUE));
        PreparedGraph.Options options = PreparedGraph.Options.defaults()
                .withLayouts(Layout.SEED)
                .withCoalesce(args.flag("--coalesce"))
                .withBudget(budget)
                .withLimit(args.longValue(
                        "--bytes", PreparedGraph.Options.defaults().limitBytes(), 0, Long.MAX_VALUE));

        // The first import in a JVM also pays for loading and initializing Arrow (about 2 s here);
        // import_ms is the second, warm import of the same files, and the first is reported beside it.
        boolean pins = !args.flag("--unpinned");
        GraphFiles.Imported cold = GraphFiles.read(nodes, edges, pins);
        GraphFiles.Imported imported = GraphFiles.read(nodes, edges, pins);
        PreparedGraph p = PreparedGraph.prepare(imported.graph(), options);
        Map<String, Object> r = report(imported, p, options);
        r.put("import_first_ms", ms(cold.nanos()));
        if (args.flag("--json")) {
            out.println(new ObjectMapper()
                    .enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(r));
        } else {
            printText(r, p);
        }
        if (!p.refusals().isEmpty()) {
            Map.Entry<Layout, String> first = p.refusals().entrySet().iterator().next();
            throw new Refusal(first.getValue());
        }
        return 0;
    }

    static String program(Path nodes) {
        String f = nodes.getFileName().toString();
        return f.endsWith(GraphFiles.NODES_SUFFIX) ? f.substring(0, f.length() - GraphFiles.NODES_SUFFIX.length()) : f;
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }

    static Map<String, Object> report(GraphFiles.Imported imported, PreparedGraph p, PreparedGraph.Options o) {
        Graph g = imported.graph();
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("program", program(imported.nodes()));
        r.put("nodes", imported.nodes().toString());
        r.put("edges", imported.edges().toString());
        r.put("nodes_sha256", imported.nodesSha256());
        r.put("edges_sha256", imported.edgesSha256());
        r.put("pinned", imported.pinned());
        r.put("sites", g.siteCount());
        r.put("edge_count", g.edges().size());
        r.put("entries", g.entries());
        r.put("thread_entries", g.threadEntries().size());
        r.put("signal_entries", g.signalEntries().size());
        r.put(
                "coalesced_sites",
                p.coalesced().map(c -> (Object) c.graph().siteCount()).orElse(null));
        r.put("states", p.machine().states());
        r.put("transitions", p.machine().transitions());
        r.put("minimized_states", p.minimized().states());
        r.put("minimized_transitions", p.minimized().transitions());
        r.put("max_transitions", o.budget().maxTransitions());
        r.put("max_frames", o.budget().maxFrames());
        r.put("limit_bytes", o.limitBytes());
        Map<String, Object> payload = new LinkedHashMap<>();
        Map<String, Object> prep = new LinkedHashMap<>();
        for (Layout l : o.layouts()) {
            Prepared pl = p.layouts().get(l);
            payload.put(l.wire(), pl == null || pl.payloadBytes() == Prepared.UNMEASURED ? null : pl.payloadBytes());
            prep.put(l.wire(), ms(p.timings().prepareNanos().get(l)));
        }
        r.put("payload_bytes", payload);
        p.layouts().values().stream()
                .filter(l -> l instanceof DfaWords)
                .findFirst()
                .ifPresent(l -> r.put("columns", ((DfaWords) l).columns()));
        p.layouts().values().stream()
                .filter(l -> l instanceof DfaCompact)
                .findFirst()
                .ifPresent(l -> r.put("compact_classes", ((DfaCompact) l).classes()));
        Map<String, String> refused = new LinkedHashMap<>();
        p.refusals().forEach((l, why) -> refused.put(l.wire(), why));
        r.put("refused", refused);
        r.put("import_ms", ms(imported.nanos()));
        r.put("coalesce_ms", ms(p.timings().coalesceNanos()));
        r.put("compile_ms", ms(p.timings().compileNanos()));
        r.put("minimize_ms", ms(p.timings().minimizeNanos()));
        r.put("prepare_ms", prep);
        r.put("auto", p.auto().reason());
        return r;
    }

    @SuppressWarnings("unchecked")
    private void printText(Map<String, Object> r, PreparedGraph p) {
        out.printf(Locale.ROOT, "graph %s%n", r.get("program"));
        out.printf(Locale.ROOT, "  files        %s%n               %s%n", r.get("nodes"), r.get("edges"));
        out.printf(
                Locale.ROOT,
                "  pins         %s%n",
                Boolean.TRUE.equals(r.get("pinned"))
                        ? "verified against SHA256SUMS"
                        : "NOT pinned (--unpinned): nodes sha256 " + r.get("nodes_sha256") + ", edges sha256 "
                                + r.get("edges_sha256"));
        out.printf(
                Locale.ROOT,
                "  sites        %d (%d edges)%s%n",
                r.get("sites"),
                r.get("edge_count"),
                r.get("coalesced_sites") == null ? "" : ", " + r.get("coalesced_sites") + " after coalescing");
        out.printf(
                Locale.ROOT,
                "  entries      %s (%d thread, %d signal)%n",
                String.join(", ", (List<String>) r.get("entries")),
                r.get("thread_entries"),
                r.get("signal_entries"));
        out.printf(Locale.ROOT, "  states       %,d (%,d transitions)%n", r.get("states"), r.get("transitions"));
        out.printf(
                Locale.ROOT,
                "  minimized    %,d states (%,d transitions)%n",
                r.get("minimized_states"),
                r.get("minimized_transitions"));
        out.printf(
                Locale.ROOT,
                "  columns      %s raw syscall numbers per row, %s column classes in dfa-compact%n",
                r.getOrDefault("columns", "-"),
                r.getOrDefault("compact_classes", "-"));
        out.printf(Locale.ROOT, "  %s%n", r.get("auto"));
        out.println("  payload_bytes");
        Map<String, Object> payload = (Map<String, Object>) r.get("payload_bytes");
        Map<String, Object> prep = (Map<String, Object>) r.get("prepare_ms");
        Map<String, String> refused = (Map<String, String>) r.get("refused");
        for (Map.Entry<String, Object> e : payload.entrySet()) {
            String v = refused.containsKey(e.getKey())
                    ? "refused: " + refused.get(e.getKey())
                    : e.getValue() == null ? "unmeasured" : String.format(Locale.ROOT, "%,d", (Long) e.getValue());
            out.printf(
                    Locale.ROOT, "    %-16s %-16s prepared in %.3f ms%n", e.getKey(), v, (Double) prep.get(e.getKey()));
        }
        out.printf(
                Locale.ROOT,
                "  times        import %.3f ms (first in this JVM %.3f ms), %scompile %.3f ms, minimize %.3f ms%n",
                r.get("import_ms"),
                r.get("import_first_ms"),
                p.coalesced().isPresent()
                        ? String.format(Locale.ROOT, "coalesce %.3f ms, ", (Double) r.get("coalesce_ms"))
                        : "",
                r.get("compile_ms"),
                r.get("minimize_ms"));
    }
}
