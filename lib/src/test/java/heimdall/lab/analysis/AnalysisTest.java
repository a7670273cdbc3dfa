package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.reproduce.floorcost.FloorCostPlots;
import heimdall.lab.reproduce.graphlookup.GraphLookupPlots;
import heimdall.lab.reproduce.hostload.HostLoadPlots;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmapPlots;
import java.awt.image.BufferedImage;
import java.io.DataInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

class AnalysisTest {
    static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /** Plots land here too so a person can look at them after `mvn test`. */
    static final Path PREVIEW = Path.of("target/analysis-plots");

    @TempDir
    static Path tmp;

    static Results floor;
    static Results graph;
    static Results load;

    @BeforeAll
    static void fixtures() throws Exception {
        floor = Results.load(SyntheticResults.floorFolder(tmp.resolve("floor")));
        graph = Results.load(SyntheticResults.graphFolder(tmp.resolve("graph")));
        load = Results.load(SyntheticResults.loadFolder(tmp.resolve("load")));
    }

    @Test
    void summaryTableHasOneRowPerObjectAndTypedColumns() {
        Table s = floor.summary();
        assertEquals(4, s.rowCount());
        assertTrue(
                s.columnNames()
                        .containsAll(List.of(
                                "row",
                                "what",
                                "call",
                                "insns",
                                "cache",
                                "median_ns",
                                "added_ns",
                                "p99_ns",
                                "spread",
                                "noisy",
                                "status",
                                "supervisor",
                                "answer",
                                "published_median_ns",
                                "published_added_ns")),
                s.columnNames().toString());
        assertFalse(s.columnNames().contains("run_medians_ns"), "lists stay out of the table");
        assertEquals(101.0, s.numberColumn("published_median_ns").getDouble(0));
        assertTrue(s.numberColumn("published_median_ns").isMissing(1), "published null -> missing");
        assertEquals("native", s.stringColumn("supervisor").get(2));
        assertTrue(s.stringColumn("supervisor").isMissing(0));
        assertEquals(4L, s.longColumn("insns").getLong(0));
        assertEquals("tsc", floor.env().clocksource());
    }

    @Test
    void tablesFromSummaryAndFromSamplesAgree() {
        Table sum = Tables.summary(floor);
        Table rec = Tables.fromSamples(floor);
        assertEquals(
                List.of(
                        "row",
                        "label",
                        "insns",
                        "cache",
                        "median_none_ns",
                        "median_ns",
                        "added_ns",
                        "p99_ns",
                        "spread",
                        "samples",
                        "noisy",
                        "status",
                        "published_median_ns",
                        "published_added_ns"),
                sum.columnNames());
        assertEquals(4, rec.rowCount());
        for (int i = 0; i < 4; i++) {
            assertEquals(
                    sum.numberColumn("median_ns").getDouble(i),
                    rec.numberColumn("median_ns").getDouble(i),
                    1e-9);
            assertEquals(
                    sum.numberColumn("p99_ns").getDouble(i),
                    rec.numberColumn("p99_ns").getDouble(i),
                    1e-9);
            assertEquals(
                    sum.numberColumn("added_ns").getDouble(i),
                    rec.numberColumn("added_ns").getDouble(i),
                    1e-9);
            assertEquals(
                    sum.numberColumn("spread").getDouble(i),
                    rec.numberColumn("spread").getDouble(i),
                    1e-9);
            assertEquals(
                    SyntheticResults.RUNS * SyntheticResults.PER_RUN,
                    rec.intColumn("samples").getInt(i));
        }
        assertEquals(
                "broker · openat · java · broker", sum.stringColumn("label").get(3));
        // The broker answer costs far more than the bare floor: the figures are not all alike.
        assertTrue(rec.numberColumn("added_ns").getDouble(3)
                > 100 * rec.numberColumn("added_ns").getDouble(0));
    }

    @Test
    void runMediansIsLongFormatOfTheSummaryLists() {
        Table t = Tables.runMedians(floor);
        assertEquals(4 * 2 * SyntheticResults.RUNS, t.rowCount());
        assertEquals(List.of("row", "label", "variant", "run", "median_ns"), t.columnNames());
        List<Double> expected = floor.floorCost().get(1).runMediansNs().stream()
                .map(Long::doubleValue)
                .toList();
        Table row1 = t.where(
                t.intColumn("row").isEqualTo(1).and(t.stringColumn("variant").isEqualTo("filtered")));
        assertEquals(expected, row1.doubleColumn("median_ns").asList());
    }

    @Test
    void graphByLayoutIsAGridOfMedians() {
        Table t = Tables.graphByLayout(graph);
        assertEquals(List.of("graph", "trace", "hash", "dfa-words", "dfa-compact"), t.columnNames());
        assertEquals(2, t.rowCount());
        assertEquals("redis", t.stringColumn("graph").get(1));
        assertEquals(
                graph.summary().numberColumn("ns_per_event_median").getDouble(4),
                t.doubleColumn("dfa-words").getDouble(1),
                1e-12);
        Table rec = Tables.fromSamples(graph);
        assertEquals(10, rec.intColumn("samples").getInt(0), "warm-up sample 0 excluded");
        for (int i = 0; i < 6; i++) {
            assertEquals(
                    graph.summary().numberColumn("ns_per_event_median").getDouble(i),
                    rec.doubleColumn("ns_per_event_median").getDouble(i),
                    1e-9);
        }
        assertTrue(Tables.summary(graph).columnNames().contains("speedup_vs_hash"));
    }

    @Test
    void htmlEscapesAndLimitsRows() {
        String html = heimdall.lab.display.HtmlTable.of(Tables.summary(floor), 2);
        assertTrue(html.startsWith("<table"));
        assertTrue(html.contains("<th>median_ns</th>"));
        assertTrue(html.contains("2 more rows not shown"));
        assertTrue(heimdall.lab.display.HtmlTable.of(Table.create("a<b>")).contains("a&lt;b&gt;"));
    }

    @Test
    void everyPlotIsWrittenAsAPngOfTheChartSize() throws Exception {
        Map<String, Chart<?, ?>> charts = Map.of(
                "distribution", CallPlots.distribution(floor),
                "distribution-row0", CallPlots.distribution(floor, 0),
                "run-medians", CallPlots.runMedians(floor),
                "broker-cdf", FloorCostPlots.brokerCdf(floor),
                "graph-by-layout", GraphLookupPlots.graphByLayout(graph),
                "p99-vs-load", HostLoadPlots.p99VsLoad(load));
        for (var e : charts.entrySet()) {
            Path file = Plots.save(e.getValue(), tmp.resolve("plots").resolve(e.getKey() + ".png"));
            Plots.save(e.getValue(), PREVIEW.resolve(e.getKey() + ".png"));
            byte[] head = new byte[8];
            try (InputStream in = Files.newInputStream(file)) {
                new DataInputStream(in).readFully(head);
            }
            assertArrayEquals(PNG_SIGNATURE, head, e.getKey());
            BufferedImage img = ImageIO.read(file.toFile());
            assertEquals(e.getValue().getWidth(), img.getWidth(), e.getKey());
            assertEquals(e.getValue().getHeight(), img.getHeight(), e.getKey());
            assertEquals(Plots.WIDTH, img.getWidth(), e.getKey());
            assertTrue(
                    e.getValue().getTitle() != null && !e.getValue().getTitle().isBlank());
        }
        assertEquals(2, FloorCostPlots.brokerCdf(floor).getSeriesMap().size(), "two broker rows only");
        assertEquals(
                1, FloorCostPlots.brokerCdf(floor, "continue").getSeriesMap().size(), "one answering continue");
        assertEquals(1, HostLoadPlots.p99VsLoad(load).getSeriesMap().size(), "one row, measured idle and loaded");
        assertEquals(
                2 * SyntheticResults.RUNS,
                HostLoadPlots.p99VsLoad(load)
                        .getSeriesMap()
                        .values()
                        .iterator()
                        .next()
                        .getXData()
                        .length,
                "one point per run, idle and loaded");
    }

    @Test
    void saveAllWritesThePlotsThatApplyAndNeverOverwrites() throws Exception {
        Path dir = tmp.resolve("saveall/plots");
        List<Path> files = Plots.saveAll(floor, dir);
        assertEquals(
                List.of(
                        "distribution-floor-one-program-floor-two-programs.png",
                        "run-medians-floors.png",
                        "run-medians-broker.png",
                        "broker-cdf-continue.png",
                        "broker-cdf-broker.png"),
                files.stream().map(p -> p.getFileName().toString()).toList());
        for (Path f : files) {
            assertEquals(Plots.WIDTH, ImageIO.read(f.toFile()).getWidth());
        }
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> Plots.saveAll(floor, dir));
        assertEquals(
                List.of(tmp.resolve("saveall/graph/graph-by-layout.png")),
                Plots.saveAll(graph, tmp.resolve("saveall/graph")));
    }

    /**
     * kernel-bitmap's figures by code placement: a circle (per call) and a diamond (batch) per placement, gaps kept.
     */
    @Test
    void byPlacementHasASeriesPerMethodAndPlacement() throws Exception {
        Path dir = tmp.resolve("placement");
        Files.createDirectories(dir);
        List<Object> pc1 = new java.util.ArrayList<>(List.of(190, 188));
        pc1.add(null); // no per-call run at placement 2 for this row
        pc1.add(190);
        List<Map<String, Object>> rows = List.of(
                Map.of(
                        "section",
                        "configuration",
                        "what",
                        "getpid native",
                        "run_medians_ns",
                        List.of(151, 160),
                        "per_call_ns_by_placement",
                        List.of(150, 151, 162, 152),
                        "batch_ns_per_call_by_placement",
                        List.of(127, 127, 126, 127)),
                Map.of(
                        "section",
                        "configuration",
                        "what",
                        "getpid 1 filter",
                        "run_medians_ns",
                        List.of(190, 220),
                        "per_call_ns_by_placement",
                        pc1,
                        "batch_ns_per_call_by_placement",
                        List.of(175, 166, 166, 165)));
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        json.writeValue(dir.resolve("summary.json").toFile(), rows);
        json.writeValue(dir.resolve("environment.json").toFile(), SyntheticResults.environment("kernel-bitmap"));
        Results r = Results.load(dir);
        var chart = KernelBitmapPlots.byPlacement(r);
        assertEquals(
                List.of(
                        "per call, placement 0",
                        "per call, placement 1",
                        "per call, placement 2",
                        "per call, placement 3",
                        "batch, placement 0",
                        "batch, placement 1",
                        "batch, placement 2",
                        "batch, placement 3"),
                List.copyOf(chart.getSeriesMap().keySet()));
        var p2 = chart.getSeriesMap().get("per call, placement 2");
        assertEquals(162.0, p2.getYData().toArray()[0]);
        assertEquals(null, p2.getYData().toArray()[1], "a placement without runs is a gap, not a zero");
        assertTrue(Plots.all(r).containsKey("by-placement.png"));
        assertTrue(
                Plots.all(r).containsKey("run-medians-configurations.png"),
                "kernel-bitmap's rows are configurations, not floors");
        assertThrows(IllegalArgumentException.class, () -> KernelBitmapPlots.byPlacement(floor));
        Plots.save(chart, PREVIEW.resolve("by-placement.png"));
    }

    /**
     * host-load's p99 against load: one series per row (its idle and loaded runs together), named with
     * that row's own loaded / idle p99, so the calls are not one cloud read as an effect of load.
     */
    @Test
    void p99VsLoadHasOneSeriesPerRow() throws Exception {
        Path dir = tmp.resolve("hostload");
        Files.createDirectories(dir);
        List<Map<String, Object>> rows = new java.util.ArrayList<>();
        String[][] calls = {
            {"static floor, abcdf", "getppid"}, {"static floor, abcdf", "mprotect"}, {"stacked, wasm host", "prctl"}
        };
        long[] idleP99 = {120, 300, 400};
        for (String load : List.of("idle", "loaded")) {
            for (int i = 0; i < calls.length; i++) {
                long p99 = load.equals("idle") ? idleP99[i] : idleP99[i] * (i + 2); // 2x, 3x, 4x
                Map<String, Object> row = new java.util.LinkedHashMap<>();
                row.put("load", load);
                row.put("what", calls[i][0]);
                row.put("call", calls[i][1]);
                row.put("floor", calls[i][0]);
                row.put("status", "ok");
                row.put("p99_ns", p99);
                row.put("load_avg_runs", load.equals("idle") ? List.of(0.1, 0.2) : List.of(2.5, 2.9));
                row.put("run_p99_ns", List.of(p99, p99 + 10));
                row.put("run_medians_ns", List.of(p99 / 2, p99 / 2));
                rows.add(row);
            }
        }
        new com.fasterxml.jackson.databind.ObjectMapper()
                .writeValue(
                        dir.resolve("summary.json").toFile(),
                        Map.of("reproduction", "host-load", "schema_version", 2, "interrupted", false, "rows", rows));
        var chart = HostLoadPlots.p99VsLoad(Results.load(dir));
        assertEquals(
                List.of(
                        "static floor, abcdf · getppid: p99 loaded/idle 2.00×",
                        "static floor, abcdf · mprotect: p99 loaded/idle 3.00×",
                        "stacked, wasm host · prctl: p99 loaded/idle 4.00×"),
                List.copyOf(chart.getSeriesMap().keySet()));
        for (var series : chart.getSeriesMap().values()) {
            assertEquals(4, series.getXData().length, "two idle runs and two loaded runs of the same row");
        }
        var getppid = chart.getSeriesMap().values().iterator().next();
        assertEquals(
                List.of(0.1, 0.2, 2.5, 2.9),
                java.util.Arrays.stream(getppid.getXData()).boxed().toList());
        assertEquals(
                List.of(120.0, 130.0, 240.0, 250.0),
                java.util.Arrays.stream(getppid.getYData()).boxed().toList());
        Plots.save(chart, PREVIEW.resolve("p99-vs-load-rows.png"));
    }

    /**
     * The selftest loop's fields get a chart of their own, with the monotonic batch as squares; a folder without them
     * gets none.
     */
    @Test
    void theSelftestLoopHasItsOwnByPlacementChart() throws Exception {
        Path dir = tmp.resolve("placement-selftest");
        Files.createDirectories(dir);
        List<Map<String, Object>> rows = List.of(Map.of(
                "section",
                "configuration",
                "what",
                "getpid native",
                "per_call_ns_by_placement",
                List.of(118, 119, 118, 118),
                "selftest_per_call_ns_by_placement",
                List.of(126, 127, 127, 127),
                "selftest_batch_ns_per_call_by_placement",
                List.of(107, 108, 109, 111),
                "selftest_batch_monotonic_ns_per_call_by_placement",
                List.of(133, 110, 364, 111)));
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        json.writeValue(dir.resolve("summary.json").toFile(), rows);
        json.writeValue(dir.resolve("environment.json").toFile(), SyntheticResults.environment("kernel-bitmap"));
        Results r = Results.load(dir);
        var chart = KernelBitmapPlots.byPlacement(r, KernelBitmapPlots.SELFTEST_LOOP);
        assertEquals(
                12, chart.getSeriesMap().size(), chart.getSeriesMap().keySet().toString());
        assertEquals(
                364.0,
                chart.getSeriesMap()
                        .get("batch (monotonic), placement 2")
                        .getYData()
                        .toArray()[0]);
        assertEquals(
                127.0,
                chart.getSeriesMap().get("per call, placement 1").getYData().toArray()[0]);
        assertEquals(
                4,
                KernelBitmapPlots.byPlacement(r).getSeriesMap().size(),
                "the bare loop's chart: its per-call figures only");
        assertTrue(Plots.all(r).containsKey("by-placement-selftest-loop.png"));
        assertFalse(Plots.all(floor).containsKey("by-placement-selftest-loop.png"));
        assertThrows(
                IllegalArgumentException.class,
                () -> KernelBitmapPlots.byPlacement(floor, KernelBitmapPlots.SELFTEST_LOOP));
    }

    @Test
    void markdownHasAHeaderAlignmentAndEveryRow() {
        String md = Tables.markdown(Tables.graphByLayout(graph));
        List<String> lines = md.lines().toList();
        assertEquals("| graph | trace | hash | dfa-words | dfa-compact |", lines.get(0));
        assertEquals("| --- | --- | ---: | ---: | ---: |", lines.get(1));
        assertEquals(4, lines.size());
        assertTrue(lines.get(2).startsWith("| nginx | startup | "), lines.get(2));
    }

    @Test
    void plotsNeedingMissingRowsSaySo() {
        assertThrows(IllegalArgumentException.class, () -> FloorCostPlots.brokerCdf(graph));
        assertThrows(IllegalArgumentException.class, () -> GraphLookupPlots.graphByLayout(floor));
    }

    @Test
    void ecdfOfMillionsKeepsBoundedOrderStatisticsWithMinMedianP99Max() {
        int n = 2_000_000;
        long[][] runs = {new long[n / 2], new long[n / 2]};
        for (int i = 0; i < n; i++) {
            runs[i % 2][i / 2] = n - i; // descending: Ecdf must sort
        }
        Ecdf e = Ecdf.of(runs);
        assertTrue(e.x().length <= Ecdf.MAX_POINTS && e.x().length > 900, "points: " + e.x().length);
        assertEquals(n, e.count());
        assertEquals(1.0, e.x()[0]);
        assertEquals((double) n, e.max());
        assertEquals(1.0, e.y()[e.y().length - 1]);
        assertEquals(1_000_000.0, e.median(), "nearest-rank median");
        assertEquals(1_980_000.0, e.p99());
        List<Double> xs = java.util.Arrays.stream(e.x()).boxed().toList();
        assertTrue(xs.contains(e.median()) && xs.contains(e.p99()), "median and p99 are points");
        for (int i = 1; i < e.x().length; i++) {
            assertTrue(e.x()[i] > e.x()[i - 1] && e.y()[i] > e.y()[i - 1], "monotone at " + i);
        }
        // The top percent is drawn densely: a log-x plot spends most of its width there.
        long tail = java.util.Arrays.stream(e.y()).filter(y -> y > 0.99).count();
        assertTrue(tail > 150, "tail points: " + tail);
        assertEquals(4, Ecdf.of(new double[] {3, 1, 2, 50}).x().length, "small sets keep every sample");
        assertEquals(e.median(), e.at(0.5));
        assertEquals(e.p99(), e.at(0.99));
        assertEquals(e.max(), e.at(1.0));
    }

    @Test
    void aFolderWithoutSummaryIsBadInputNamingTheFile(@TempDir Path empty) throws Exception {
        BadInput e = assertThrows(BadInput.class, () -> Results.load(empty));
        assertTrue(e.getMessage().contains("summary.json"), e.getMessage());
        Files.writeString(empty.resolve("summary.json"), "{\"not\": \"an array\"}");
        e = assertThrows(BadInput.class, () -> Results.load(empty));
        // an object without schema_version: the file, the field and why
        assertTrue(e.getMessage().contains("summary.json: schema_version: missing"), e.getMessage());
        Files.writeString(empty.resolve("summary.json"), "\"rows\"");
        e = assertThrows(BadInput.class, () -> Results.load(empty));
        assertTrue(e.getMessage().contains("summary.json: (top level): expected an object"), e.getMessage());
    }
}
