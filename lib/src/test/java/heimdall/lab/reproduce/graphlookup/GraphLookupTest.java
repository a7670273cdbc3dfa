package heimdall.lab.reproduce.graphlookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Main;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Site;
import heimdall.lab.graph.SyntheticGraph;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.reproduce.FirstScreen;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphLookupTest {
    @TempDir
    Path tmp;

    private static GraphBenchSettings tiny() {
        return GraphBenchSettings.of(Map.of("GRAPH_BENCH_CALLS", "3000", "GRAPH_BENCH_SAMPLES", "2"), true);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> summary(Path folder) throws Exception {
        return (List<Map<String, Object>>) new ObjectMapper()
                .readValue(folder.resolve("summary.json").toFile(), Map.class)
                .get("rows");
    }

    /** A whole run with tiny counts: every case and layout, the folder's files and fields, equal rejections. */
    @Test
    void tinyRunWritesTheFolderAndLayoutsAgree() throws Exception {
        Path out = tmp.resolve("gl");
        GraphLookup.Result r = GraphLookup.run(
                new GraphLookup.Options(tiny(), List.of(Layout.values()), Optional.empty()),
                ResultsFolder.chosen(out),
                line -> {});
        assertEquals(List.of(), r.failures());
        for (String f : List.of("summary.json", "environment.json", "samples.arrow", "table.md")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        List<Map<String, Object>> rows = summary(out);
        // abcdf (1 thread entry) + broker (2) + 3 synthetic sizes x (hot, broad) = 9 cases, 7 layouts each
        assertEquals(9 * Layout.values().length, rows.size());
        for (Map<String, Object> row : rows) {
            for (String field : List.of(
                    "graph",
                    "trace",
                    "layout",
                    "states",
                    "transitions",
                    "ns_per_event_median",
                    "ns_per_event_min",
                    "ns_per_event_max",
                    "noisy",
                    "speedup_vs_hash",
                    "rejections",
                    "prep_ms",
                    "payload_bytes")) {
                assertTrue(row.containsKey(field), field + " in " + row);
            }
            assertEquals("measured", row.get("status"));
            double median = ((Number) row.get("ns_per_event_median")).doubleValue();
            assertTrue(((Number) row.get("ns_per_event_min")).doubleValue() <= median);
            // the median's interval over the 2 batches: their min to max, whole ns rounded outward, 50%
            assertTrue(
                    ((Number) row.get("median_ci_low_ns")).longValue() <= median
                            && median <= ((Number) row.get("median_ci_high_ns")).longValue(),
                    row.toString());
            assertTrue(((Number) row.get("median_ci_low_ns")).longValue()
                    <= Math.floor(((Number) row.get("ns_per_event_min")).doubleValue()));
            assertEquals(2, row.get("median_ci_runs"));
            assertEquals(0.95, row.get("median_ci_level"));
            assertEquals(0.5, row.get("median_ci_coverage"));
            assertTrue(!row.containsKey("p99_ci_low_ns") && !row.containsKey("added_ci_low_ns"), row.toString());
        }
        Map<String, List<Object>> rejections = rows.stream()
                .collect(Collectors.groupingBy(
                        x -> x.get("graph") + "/" + x.get("trace"),
                        Collectors.mapping(x -> x.get("rejections"), Collectors.toList())));
        assertEquals(9, rejections.size());
        rejections.forEach((k, v) -> {
            assertEquals(1, v.stream().distinct().count(), k + ": " + v);
            assertTrue(((Number) v.get(0)).intValue() > 0, k + ": the traces carry invalid calls");
        });
        assertTrue(rows.stream()
                .anyMatch(x -> x.get("graph").equals("broker") && x.get("trace").equals("walk main")));
        assertTrue(
                rows.stream().allMatch(x -> x.get("speedup_vs_hash") != null),
                "hash was measured, so every row has a speedup");
        assertTrue(rows.stream()
                .filter(x -> x.get("layout").equals("hash"))
                .allMatch(x -> x.get("payload_bytes") == null && x.get("states") == null));
        // samples.arrow: sample 0 (the warm-up) kept, then 2 batches, for every row
        List<BatchSamples.Sample> samples = BatchSamples.read(out.resolve("samples.arrow"), "ns_per_event");
        assertEquals(rows.size() * 3, samples.size());
        assertEquals(rows.size(), samples.stream().filter(s -> s.sample() == 0).count());
        assertTrue(samples.stream().allMatch(s -> s.value() > 0));
        assertTrue(r.warmPrepMs().containsKey("broker"));
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.contains("| broker | walk main | dfa-offsets |"), table);
        assertTrue(table.contains("| median [95% CI] |") && table.contains("(50% over 2 batches)"), table);
        // The checked-in graphs are pinned, and each row records the digests it was measured from.
        String abcdfNodes = heimdall.lab.graph.Pins.sha256(Path.of(fixture("abcdf.exec.nodes.arrow")));
        assertTrue(rows.stream()
                .filter(x -> "abcdf".equals(x.get("graph")))
                .allMatch(x -> Boolean.TRUE.equals(x.get("pinned")) && abcdfNodes.equals(x.get("nodes_sha256"))));
        assertTrue(rows.stream()
                .filter(x -> x.get("graph").toString().startsWith("synthetic"))
                .allMatch(x -> x.get("pinned") == null));
        // Our broker graph is not the seed's: the published figure is labelled as another graph's.
        Map<String, Object> offsets = rows.stream()
                .filter(x -> "broker".equals(x.get("graph")) && "dfa-offsets".equals(x.get("layout")))
                .findFirst()
                .orElseThrow();
        boolean same =
                ((Number) offsets.get("sites")).intValue() == 101 && ((Number) offsets.get("states")).intValue() == 544;
        assertEquals(same, offsets.get("same_graph_as_published"), offsets.toString());
        assertEquals(101, offsets.get("published_sites"));
        assertEquals(544, offsets.get("published_states"));
        if (!same) {
            assertTrue(table.contains("| 3.19 (a different graph: 101 sites, 544 states) |"), table);
            assertTrue(
                    table.contains("Our broker graph (" + offsets.get("sites") + " sites, " + offsets.get("states")
                            + " states) is not the seed's (101 sites, 544 states)"),
                    table);
        }
        assertTrue(table.contains("preparing the broker graph (import and compile) took"), table);
    }

    /**
     * The interval of a row's median over its batches: order statistics of the batch figures, so up to
     * 8 batches their min to max (7: 98.4%), from 9 the second smallest to the second largest; one slow
     * batch moves only its own end; one batch has none.
     */
    @Test
    void theMedianIntervalIsOverTheBatches() {
        double[] seven = {2.31, 2.2, 2.4, 2.25, 9.7, 2.35, 2.28};
        var ci = GraphLookupRows.intervals(seven, 2.31).median();
        assertEquals(2L, ci.lowNs());
        assertEquals(10L, ci.highNs(), "the slow batch is the top end: 9.7 rounded outward");
        assertEquals(0.9844, ci.coverage());
        assertEquals(7L, ci.runs());
        assertTrue(ci.reached());
        double[] nine = {3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 40.0};
        var wider = GraphLookupRows.intervals(nine, 3.5).median();
        assertEquals(3L, wider.lowNs());
        assertEquals(4L, wider.highNs(), "the second largest: the one slow batch is outside");
        assertTrue(wider.reached(), wider.toString());
        assertNull(GraphLookupRows.intervals(new double[] {2.0}, 2.0), "one batch has no interval");
        assertEquals("[2, 10]", GraphLookupTable.intervalCell(GraphLookupRows.intervals(seven, 2.31)));
        assertEquals(
                "[2, 3] (75% over 3 batches)",
                GraphLookupTable.intervalCell(GraphLookupRows.intervals(new double[] {2.1, 2.5, 2.9}, 2.5)));
    }

    /** The first screen gives a graph-lookup row's median per event, to three decimals, with its interval. */
    @Test
    void theFirstScreenGivesTheMedianPerEvent() {
        heimdall.lab.results.GraphLookupRow row = new heimdall.lab.results.GraphLookupRow(
                "broker",
                "walk main",
                "dfa-offsets",
                null,
                null,
                null,
                true,
                new heimdall.lab.results.GraphLookupRow.Batches(3L, 3L, false),
                heimdall.lab.results.RowStatus.MEASURED,
                null,
                new heimdall.lab.results.GraphLookupRow.Figures(2.5, 2.1, 2.9, 0.32, true),
                null,
                10L,
                3L,
                null,
                null,
                GraphLookupRows.intervals(new double[] {2.1, 2.5, 2.9}, 2.5));
        List<String> lines =
                FirstScreen.of("graph-lookup", List.of(row), (heimdall.lab.results.EnvironmentInfo) null, true);
        assertTrue(
                lines.contains(
                        "  broker / walk main / dfa-offsets: median 2.500 ns/event [2, 3] (only 75% over 3 batches)"),
                String.join("\n", lines));
    }

    /** Without the hash baseline, the speedup is null, never estimated. */
    @Test
    void speedupIsNullWhenTheHashBaselineIsAbsent() throws Exception {
        Path out = tmp.resolve("nohash");
        int status = Main.run(
                List.of(
                        "reproduce",
                        "graph-lookup",
                        "--quick",
                        "--out",
                        out.toString(),
                        "--layouts",
                        "dfa-offsets,dfa-compact",
                        fixture("abcdf.exec.nodes.arrow"),
                        fixture("abcdf.exec.edges.arrow")),
                quiet(),
                quiet());
        assertEquals(0, status);
        List<Map<String, Object>> rows = summary(out);
        assertEquals(2, rows.size());
        for (Map<String, Object> row : rows) {
            assertTrue(row.containsKey("speedup_vs_hash"));
            assertNull(row.get("speedup_vs_hash"), row.toString());
        }
    }

    /** An external graph with an unmapped function is refused: exit 1, the reason printed, no folder left. */
    @Test
    void anExternalGraphWithAnUnmappedFunctionExits1() throws Exception {
        List<Site> sites = new ArrayList<>();
        sites.add(new Site(1, 12, "brk", "main", List.of("main"), false));
        sites.add(new Site(2, -1, "helper", "resolve_helper", List.of(), true));
        GraphFiles.writeNodes(sites, tmp.resolve("ext.exec.nodes.arrow"));
        GraphFiles.writeEdges(
                List.of(new heimdall.lab.graph.Edge(1, 2, heimdall.lab.graph.EdgeKind.NEXT)),
                tmp.resolve("ext.exec.edges.arrow"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path out = tmp.resolve("refused");
        int status = Main.run(
                List.of(
                        "reproduce",
                        "graph-lookup",
                        "--quick",
                        "--unpinned",
                        "--out",
                        out.toString(),
                        tmp.resolve("ext.exec.nodes.arrow").toString(),
                        tmp.resolve("ext.exec.edges.arrow").toString()),
                quiet(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("refused") && text.contains("unmapped") && text.contains("resolve_helper"), text);
        assertTrue(!Files.exists(out), "no half-written results folder");
    }

    /** An oversized machine (over the construction budget, GRAPH_BENCH_MAX_ENTRIES) is refused with its reason. */
    @Test
    void anOversizedMachineIsRefused() throws Exception {
        Graph g = SyntheticGraph.build(4096, 1).graph();
        List<Path> files = GraphFiles.write(g, tmp, "big");
        GraphBenchSettings s = GraphBenchSettings.of(
                Map.of("GRAPH_BENCH_CALLS", "1000", "GRAPH_BENCH_SAMPLES", "1", "GRAPH_BENCH_MAX_ENTRIES", "100"),
                true);
        Refusal e = assertThrows(
                Refusal.class,
                () -> GraphLookup.run(
                        new GraphLookup.Options(s, List.of(Layout.values()), Optional.of(files), true),
                        ResultsFolder.chosen(tmp.resolve("big-out")),
                        line -> {}));
        assertTrue(e.getMessage().contains("budget"), e.getMessage());
    }

    /** A layout that rejects differently from the others fails the run, naming it and the counts. */
    @Test
    void differingRejectionsAreNamed() {
        List<Layout> ls = List.of(Layout.HASH, Layout.DFA_OFFSETS, Layout.DFA_COMPACT);
        java.util.Set<Layout> all = java.util.Set.copyOf(ls);
        assertNull(GraphLookupRows.disagreement(ls, all, new int[][] {{5, 5}, {5, 5}, {5, 5}}));
        String d = GraphLookupRows.disagreement(ls, all, new int[][] {{5, 5}, {5, 6}, {5, 5}});
        assertTrue(d != null && d.contains("dfa-offsets [5, 6]") && d.contains("hash [5, 5]"), d);
        assertTrue(GraphLookupRows.disagreement(ls, all, new int[][] {{5, 5}, {4, 4}, {5, 5}}) != null);
        assertNull(
                GraphLookupRows.disagreement(
                        ls, java.util.Set.of(Layout.HASH, Layout.DFA_COMPACT), new int[][] {{5, 5}, {0, 0}, {5, 5}}),
                "a refused layout (not replayed) is not compared");
    }

    @Test
    void settingsFollowTheSeedsVariables() {
        GraphBenchSettings d = GraphBenchSettings.of(Map.of(), false);
        assertEquals(2_000_000, d.calls());
        assertEquals(7, d.samples());
        assertEquals(50_000, d.workloadIters());
        assertEquals(List.of(1, 4, 16), d.workloadThreads());
        assertEquals(heimdall.lab.sys.Cpus.measuring(), d.cpu(), "the default CPU is derived from the machine's");
        Map<String, String> env = new HashMap<>(
                Map.of("GRAPH_WORKLOAD_THREADS", "2,3", "GRAPH_BENCH_COALESCE", "1", "GRAPH_BENCH_BYTES", "4096"));
        GraphBenchSettings s = GraphBenchSettings.of(env, true);
        assertEquals(List.of(2, 3), s.workloadThreads());
        assertTrue(s.coalesce());
        assertEquals(4096, s.bytes());
        assertEquals(200_000, s.calls(), "--quick");
        assertEquals(heimdall.lab.sys.Cpus.allowed(), s.workloadCpus(), "workload CPUs default to every allowed one");
        assertEquals(
                List.of(0),
                GraphBenchSettings.of(Map.of("GRAPH_WORKLOAD_CPUS", "0"), false).workloadCpus());
        for (Map<String, String> bad : List.of(
                Map.of("GRAPH_BENCH_CPU", "4096"),
                Map.of("GRAPH_BENCH_CALLS", "many"),
                Map.of("GRAPH_WORKLOAD_THREADS", "1,,4"),
                Map.of("GRAPH_BENCH_COALESCE", "yes"),
                Map.of("GRAPH_WORKLOAD_CPUS", "4095"))) {
            BadInput e = assertThrows(BadInput.class, () -> GraphBenchSettings.of(bad, false));
            assertTrue(e.getMessage().contains(bad.keySet().iterator().next()), e.getMessage());
        }
    }

    /** The abcdf fixture copied into {@code dir} with its SHA256SUMS, less the lines naming {@code unpin}. */
    private static Path abcdfCopy(Path dir, String unpin) throws Exception {
        Files.createDirectories(dir);
        for (String f : List.of("abcdf.exec.nodes.arrow", "abcdf.exec.edges.arrow")) {
            Files.copy(Path.of(fixture(f)), dir.resolve(f));
        }
        List<String> sums = Files.readAllLines(Path.of(fixture(heimdall.lab.graph.Pins.FILE_NAME)));
        Files.write(
                dir.resolve(heimdall.lab.graph.Pins.FILE_NAME),
                sums.stream()
                        .filter(l -> l.contains("abcdf.exec.") && !l.contains(unpin))
                        .toList());
        return dir;
    }

    private static int run(List<String> argv, ByteArrayOutputStream err) {
        return Main.run(argv, quiet(), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /**
     * A graph whose SHA256SUMS line was deleted is refused as bad input (exit 2, naming the file and
     * --unpinned); the user's own empty --out stays, empty.
     */
    @Test
    void anUnpinnedGraphIsRefusedAndTheUsersOutStays() throws Exception {
        Path dir = abcdfCopy(tmp.resolve("g"), "abcdf.exec.nodes.arrow");
        Path out = Files.createDirectory(tmp.resolve("mine"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = run(
                List.of(
                        "reproduce",
                        "graph-lookup",
                        "--quick",
                        "--out",
                        out.toString(),
                        dir.resolve("abcdf.exec.nodes.arrow").toString(),
                        dir.resolve("abcdf.exec.edges.arrow").toString()),
                err);
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, text);
        assertTrue(
                text.contains("abcdf.exec.nodes.arrow")
                        && text.contains("no pin for this file")
                        && text.contains("--unpinned"),
                text);
        assertTrue(Files.isDirectory(out), "the user's own --out is never deleted");
        try (var l = Files.list(out)) {
            assertEquals(0, l.count(), "and left empty, usable again");
        }
        // Without --out: the folder this run would have made is not left behind either.
        Path ours = tmp.resolve("ours");
        assertEquals(
                2,
                run(
                        List.of(
                                "reproduce",
                                "graph-lookup",
                                "--quick",
                                "--out",
                                ours.toString(),
                                dir.resolve("abcdf.exec.nodes.arrow").toString(),
                                dir.resolve("abcdf.exec.edges.arrow").toString()),
                        new ByteArrayOutputStream()));
        assertTrue(!Files.exists(ours));
    }

    /** A refusal (exit 1) keeps a user's empty --out too. */
    @Test
    void aRefusalKeepsTheUsersEmptyOut() throws Exception {
        List<Site> sites = List.of(
                new Site(1, 12, "brk", "main", List.of("main"), false),
                new Site(2, -1, "helper", "resolve_helper", List.of(), true));
        GraphFiles.writeNodes(sites, tmp.resolve("ext.exec.nodes.arrow"));
        GraphFiles.writeEdges(
                List.of(new heimdall.lab.graph.Edge(1, 2, heimdall.lab.graph.EdgeKind.NEXT)),
                tmp.resolve("ext.exec.edges.arrow"));
        Path out = Files.createDirectory(tmp.resolve("users-out"));
        assertEquals(
                1,
                run(
                        List.of(
                                "reproduce",
                                "graph-lookup",
                                "--quick",
                                "--unpinned",
                                "--out",
                                out.toString(),
                                tmp.resolve("ext.exec.nodes.arrow").toString(),
                                tmp.resolve("ext.exec.edges.arrow").toString()),
                        new ByteArrayOutputStream()));
        assertTrue(Files.isDirectory(out), "the user's folder stays");
        try (var l = Files.list(out)) {
            assertEquals(0, l.count());
        }
    }

    /** With --unpinned the same graph is measured, and the folder records both digests and pinned: false. */
    @Test
    @SuppressWarnings("unchecked")
    void unpinnedIsMeasuredWhenAskedAndTheDigestsAreRecorded() throws Exception {
        Path dir = abcdfCopy(tmp.resolve("g"), "abcdf.exec.edges.arrow");
        Path out = tmp.resolve("unpinned");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = run(
                List.of(
                        "reproduce",
                        "graph-lookup",
                        "--quick",
                        "--unpinned",
                        "--layouts",
                        "dfa-offsets",
                        "--out",
                        out.toString(),
                        dir.resolve("abcdf.exec.nodes.arrow").toString(),
                        dir.resolve("abcdf.exec.edges.arrow").toString()),
                err);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        String nodesSha = heimdall.lab.graph.Pins.sha256(dir.resolve("abcdf.exec.nodes.arrow"));
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.contains("- abcdf: UNPINNED (--unpinned): nodes sha256 " + nodesSha), table);
        String edgesSha = heimdall.lab.graph.Pins.sha256(dir.resolve("abcdf.exec.edges.arrow"));
        for (Map<String, Object> row : summary(out)) {
            assertEquals(Boolean.FALSE, row.get("pinned"), row.toString());
            assertEquals(nodesSha, row.get("nodes_sha256"));
            assertEquals(edgesSha, row.get("edges_sha256"));
        }
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        Map<String, Object> g = (Map<String, Object>) ((Map<String, Object>) env.get("graphs")).get("abcdf");
        assertEquals(Boolean.FALSE, g.get("pinned"));
        assertEquals(nodesSha, g.get("nodes_sha256"));
        assertEquals(edgesSha, g.get("edges_sha256"));

        // Pinned (both lines present): the same digests, pinned true.
        Path pinned = abcdfCopy(tmp.resolve("p"), "no line is removed");
        Path out2 = tmp.resolve("pinned");
        assertEquals(
                0,
                run(
                        List.of(
                                "reproduce",
                                "graph-lookup",
                                "--quick",
                                "--layouts",
                                "dfa-offsets",
                                "--out",
                                out2.toString(),
                                pinned.resolve("abcdf.exec.nodes.arrow").toString(),
                                pinned.resolve("abcdf.exec.edges.arrow").toString()),
                        new ByteArrayOutputStream()));
        for (Map<String, Object> row : summary(out2)) {
            assertEquals(Boolean.TRUE, row.get("pinned"));
            assertEquals(nodesSha, row.get("nodes_sha256"));
        }
        // --unpinned is for external graphs only.
        assertEquals(
                2,
                run(
                        List.of(
                                "reproduce",
                                "graph-lookup",
                                "--quick",
                                "--unpinned",
                                "--out",
                                tmp.resolve("x").toString()),
                        new ByteArrayOutputStream()));
    }

    private static String fixture(String name) {
        return Fixtures.home().resolve("fixtures/graphs").resolve(name).toString();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
