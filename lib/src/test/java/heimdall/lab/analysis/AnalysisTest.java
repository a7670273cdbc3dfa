package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
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

    @BeforeAll
    static void fixtures() throws Exception {
        floor = Results.load(SyntheticResults.floorFolder(tmp.resolve("floor")));
        graph = Results.load(SyntheticResults.graphFolder(tmp.resolve("graph")));
    }

    @Test
    void summaryTableHasOneRowPerObjectAndTypedColumns() {
        Table s = floor.summary();
        assertEquals(6, s.rowCount());
        assertTrue(s.columnNames().containsAll(List.of("row", "what", "call", "insns", "cache", "median_ns",
                "added_ns", "p99_ns", "spread", "noisy", "status", "supervisor", "answer", "load",
                "published_median_ns", "published_added_ns")), s.columnNames().toString());
        assertFalse(s.columnNames().contains("run_medians_ns"), "lists stay out of the table");
        assertEquals(101.0, s.numberColumn("published_median_ns").getDouble(0));
        assertTrue(s.numberColumn("published_median_ns").isMissing(1), "published null -> missing");
        assertEquals("native", s.stringColumn("supervisor").get(2));
        assertTrue(s.stringColumn("supervisor").isMissing(0));
        assertEquals(4L, s.longColumn("insns").getLong(0));
        assertEquals("tsc", floor.environment().get("clocksource"));
    }

    @Test
    void tablesFromSummaryAndFromSamplesAgree() {
        Table sum = Tables.summary(floor);
        Table rec = Tables.fromSamples(floor);
        assertEquals(List.of("row", "label", "insns", "cache", "median_none_ns", "median_ns", "added_ns", "p99_ns",
                "spread", "samples", "noisy", "status", "published_median_ns", "published_added_ns"), sum.columnNames());
        assertEquals(6, rec.rowCount());
        for (int i = 0; i < 6; i++) {
            assertEquals(sum.numberColumn("median_ns").getDouble(i), rec.numberColumn("median_ns").getDouble(i), 1e-9);
            assertEquals(sum.numberColumn("p99_ns").getDouble(i), rec.numberColumn("p99_ns").getDouble(i), 1e-9);
            assertEquals(sum.numberColumn("added_ns").getDouble(i), rec.numberColumn("added_ns").getDouble(i), 1e-9);
            assertEquals(sum.numberColumn("spread").getDouble(i), rec.numberColumn("spread").getDouble(i), 1e-9);
            assertEquals(SyntheticResults.RUNS * SyntheticResults.PER_RUN, rec.intColumn("samples").getInt(i));
        }
        assertEquals("broker · openat · java · broker", sum.stringColumn("label").get(3));
        // The broker answer costs far more than the bare floor: the figures are not all alike.
        assertTrue(rec.numberColumn("added_ns").getDouble(3) > 100 * rec.numberColumn("added_ns").getDouble(0));
    }

    @Test
    void runMediansIsLongFormatOfTheSummaryLists() {
        Table t = Tables.runMedians(floor);
        assertEquals(6 * 2 * SyntheticResults.RUNS, t.rowCount());
        assertEquals(List.of("row", "label", "variant", "run", "median_ns"), t.columnNames());
        List<Double> expected = floor.numbers(1, "run_medians_ns");
        Table row1 = t.where(t.intColumn("row").isEqualTo(1).and(t.stringColumn("variant").isEqualTo("filtered")));
        assertEquals(expected, row1.doubleColumn("median_ns").asList());
    }

    @Test
    void graphByLayoutIsAGridOfMedians() {
        Table t = Tables.graphByLayout(graph);
        assertEquals(List.of("graph", "trace", "hash", "dfa-words", "dfa-compact"), t.columnNames());
        assertEquals(2, t.rowCount());
        assertEquals("redis", t.stringColumn("graph").get(1));
        assertEquals(graph.summary().numberColumn("ns_per_event_median").getDouble(4),
                t.doubleColumn("dfa-words").getDouble(1), 1e-12);
        Table rec = Tables.fromSamples(graph);
        assertEquals(10, rec.intColumn("samples").getInt(0), "warm-up sample 0 excluded");
        for (int i = 0; i < 6; i++) {
            assertEquals(graph.summary().numberColumn("ns_per_event_median").getDouble(i),
                    rec.doubleColumn("ns_per_event_median").getDouble(i), 1e-9);
        }
        assertTrue(Tables.summary(graph).columnNames().contains("speedup_vs_hash"));
    }

    @Test
    void htmlEscapesAndLimitsRows() {
        String html = Tables.html(Tables.summary(floor), 2);
        assertTrue(html.startsWith("<table"));
        assertTrue(html.contains("<th>median_ns</th>"));
        assertTrue(html.contains("4 more rows not shown"));
        assertTrue(Tables.html(Table.create("a<b>")).contains("a&lt;b&gt;"));
    }

    @Test
    void everyPlotIsWrittenAsAPngOfTheChartSize() throws Exception {
        Map<String, Chart<?, ?>> charts = Map.of(
                "distribution", Plots.distribution(floor),
                "distribution-row0", Plots.distribution(floor, 0),
                "run-medians", Plots.runMedians(floor),
                "broker-cdf", Plots.brokerCdf(floor),
                "graph-by-layout", Plots.graphByLayout(graph),
                "p99-vs-load", Plots.p99VsLoad(floor));
        for (var e : charts.entrySet()) {
            Path file = Plots.save(e.getValue(), tmp.resolve("plots").resolve(e.getKey() + ".png"));
            Plots.save(e.getValue(), PREVIEW.resolve(e.getKey() + ".png"));
            byte[] head = new byte[8];
            try (InputStream in = Files.newInputStream(file)) {
                new DataInputStream(in).readFully(head);
            }
            assertArrayEquals(PNG_SIGNATURE, head, e.getKey());
            BufferedImage img = ImageIO.read(file.toFile());
            assertEquals(Plots.WIDTH, img.getWidth(), e.getKey());
            assertEquals(Plots.HEIGHT, img.getHeight(), e.getKey());
            assertTrue(e.getValue().getTitle() != null && !e.getValue().getTitle().isBlank());
        }
        assertEquals(4, Plots.brokerCdf(floor).getSeriesMap().size() + 2, "two broker rows only");
        assertEquals(2, Plots.p99VsLoad(floor).getSeriesMap().size());
        assertEquals(SyntheticResults.RUNS, Plots.p99VsLoad(floor).getSeriesMap().values().iterator().next()
                .getXData().length, "one point per run");
    }

    @Test
    void saveAllWritesThePlotsThatApplyAndNeverOverwrites() throws Exception {
        Path dir = tmp.resolve("saveall/plots");
        List<Path> files = Plots.saveAll(floor, dir);
        assertEquals(List.of("distribution.png", "run-medians.png", "broker-cdf.png", "p99-vs-load.png"),
                files.stream().map(p -> p.getFileName().toString()).toList());
        for (Path f : files) {
            assertEquals(Plots.WIDTH, ImageIO.read(f.toFile()).getWidth());
        }
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> Plots.saveAll(floor, dir));
        assertEquals(List.of(tmp.resolve("saveall/graph/graph-by-layout.png")),
                Plots.saveAll(graph, tmp.resolve("saveall/graph")));
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
        assertThrows(IllegalArgumentException.class, () -> Plots.brokerCdf(graph));
        assertThrows(IllegalArgumentException.class, () -> Plots.graphByLayout(floor));
    }

    @Test
    void ecdfPointsEndAtOneAndAreMonotone() {
        double[] s = new double[1000];
        for (int i = 0; i < s.length; i++) {
            s[i] = i;
        }
        double[][] xy = Plots.ecdfPoints(s);
        assertEquals(Plots.ECDF_POINTS, xy[0].length);
        assertEquals(1.0, xy[1][xy[1].length - 1]);
        assertEquals(999.0, xy[0][xy[0].length - 1]);
        for (int i = 1; i < xy[0].length; i++) {
            assertTrue(xy[0][i] >= xy[0][i - 1] && xy[1][i] > xy[1][i - 1]);
        }
    }

    @Test
    void aFolderWithoutSummaryIsBadInputNamingTheFile(@TempDir Path empty) throws Exception {
        BadInput e = assertThrows(BadInput.class, () -> Results.load(empty));
        assertTrue(e.getMessage().contains("summary.json"), e.getMessage());
        Files.writeString(empty.resolve("summary.json"), "{\"not\": \"an array\"}");
        e = assertThrows(BadInput.class, () -> Results.load(empty));
        assertTrue(e.getMessage().contains("expected a JSON array"), e.getMessage());
    }
}
