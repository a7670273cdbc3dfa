package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.bench.SamplesFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionsTest {
    @TempDir
    Path tmp;

    /** A copy of the folder with everything but samples.arrow, as a clone of the repository has it. */
    static Path withoutSamples(Path dir, Path into) throws Exception {
        Files.createDirectories(into);
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f) && !f.getFileName().toString().equals("samples.arrow")) {
                    Files.copy(f, into.resolve(f.getFileName()));
                }
            }
        }
        return into;
    }

    @Test
    void aFloorFolderRedrawsTheSameChartsAndFiguresWithoutSamplesArrow() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Distributions.distill(dir);
        // each series is written with its fields in the order readers and git diffs have always seen
        String written = Files.readString(dir.resolve(Distributions.FILE));
        assertTrue(
                java.util.regex.Pattern.compile(
                                "\\n\\{\"row\":0,\"variant\":\"[a-z-]+\",\"runs\":\\d+,\"count\":\\d+,\"ns_delta\":\\[")
                        .matcher(written)
                        .find(),
                written.substring(0, Math.min(400, written.length())));
        Results full = Results.load(dir);
        Results compact = Results.load(withoutSamples(dir, tmp.resolve("copy")));
        assertTrue(compact.distilledOnly());
        assertFalse(full.distilledOnly());
        assertEquals(Plots.all(full).keySet(), Plots.all(compact).keySet());
        assertTrue(
                Plots.all(compact).keySet().stream().anyMatch(n -> n.startsWith("distribution-")),
                Plots.all(compact).keySet().toString());
        assertEquals(full.variants(), compact.variants());
        assertEquals(full.rowsWithSamples(), compact.rowsWithSamples());
        for (int row : full.rowsWithSamples()) {
            for (String v : full.variants()) {
                Ecdf a = full.ecdfOf(row, v);
                Ecdf b = compact.ecdfOf(row, v);
                // fewer samples than grid points: every order statistic is kept, so the curves are equal
                assertArrayEquals(a.x(), b.x(), "row " + row + " " + v);
                assertArrayEquals(a.y(), b.y(), 1e-12, "row " + row + " " + v);
                assertEquals(a.median(), b.median());
                assertEquals(a.p99(), b.p99());
                assertEquals(a.count(), b.count());
            }
        }
        var t1 = Tables.fromSamples(full);
        var t2 = Tables.fromSamples(compact);
        assertEquals(
                t1.doubleColumn("median_ns").asList(),
                t2.doubleColumn("median_ns").asList());
        assertEquals(
                t1.doubleColumn("p99_ns").asList(), t2.doubleColumn("p99_ns").asList());
        Plots.saveAll(compact, tmp.resolve("plots"));
        assertEquals(Plots.all(compact).size(), Files.list(tmp.resolve("plots")).count());
    }

    @Test
    void manySamplesKeepExactQuantilesOnTheGrid() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("big"));
        Files.writeString(dir.resolve("summary.json"), "[{\"what\": \"x\", \"call\": \"getppid\"}]");
        Random rnd = new Random(7);
        long[][] runs = new long[3][100_000];
        for (long[] run : runs) {
            for (int i = 0; i < run.length; i++) {
                run[i] = 50 + (long) (-200 * Math.log(1 - rnd.nextDouble())); // a long tail
            }
        }
        try (SamplesFile s = SamplesFile.create(dir.resolve("samples.arrow"))) {
            for (int k = 0; k < runs.length; k++) {
                s.append(0, "filtered", k, runs[k]);
            }
        }
        Path file = Distributions.distill(dir);
        assertTrue(Files.size(file) < 20_000, "compact: " + Files.size(file));
        Ecdf compact = Distributions.read(file).ecdf(0, "filtered");
        long[] all = heimdall.lab.bench.Stats.concat(runs);
        Arrays.sort(all);
        Ecdf exact = Ecdf.of(runs);
        assertEquals(exact.median(), compact.median());
        assertEquals(exact.p99(), compact.p99());
        assertEquals(all[0], compact.x()[0]);
        assertEquals(all[all.length - 1], compact.max());
        for (double q : Distributions.quantiles()) {
            assertEquals(all[Ecdf.rank(all.length, q)], compact.at(q), "q " + q);
        }
        for (int k = 0; k < compact.x().length; k++) { // every point is a sample at its exact fraction
            int rank = (int) Math.round(compact.y()[k] * all.length) - 1;
            assertEquals(all[rank], compact.x()[k]);
        }
        assertEquals(3, Distributions.read(file).runs(0, "filtered"));
    }

    @Test
    void graphBatchesComeBackAsTheSameTable() throws Exception {
        Path dir = SyntheticResults.graphFolder(tmp.resolve("graph"));
        Distributions.distill(dir);
        Results full = Results.load(dir);
        Results compact = Results.load(withoutSamples(dir, tmp.resolve("copy")));
        assertEquals(full.samples().columnNames(), compact.samples().columnNames());
        assertEquals(full.samples().rowCount(), compact.samples().rowCount());
        for (String c : full.samples().columnNames()) {
            assertEquals(
                    full.samples().column(c).asList(),
                    compact.samples().column(c).asList(),
                    c);
        }
        assertEquals(
                Tables.fromSamples(full).print(), Tables.fromSamples(compact).print());
    }

    @Test
    void neverOverwritesAndRefusesAPlantedLink() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "keep");
        Files.createSymbolicLink(dir.resolve(Distributions.FILE), outside);
        BadInput e = assertThrows(BadInput.class, () -> Distributions.distill(dir));
        assertTrue(e.getMessage().contains(Distributions.FILE) && e.getMessage().contains("exists"), e.getMessage());
        assertEquals("keep", Files.readString(outside));
        BadInput missing =
                assertThrows(BadInput.class, () -> Distributions.distill(Files.createDirectory(tmp.resolve("empty"))));
        assertTrue(missing.getMessage().contains("samples.arrow"), missing.getMessage());
    }

    @Test
    void aDamagedFileIsBadInputNamingTheField() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path file = Distributions.distill(dir);
        String good = Files.readString(file);
        for (String[] c : List.of(
                new String[] {"\"format\": \"heimdall-lab distributions 1\"", "\"format\": \"other\"", "format"},
                new String[] {"\"ns_delta\":[", "\"ns_delta\":[-5,", "ns_delta"},
                new String[] {"\"quantiles\": [0.0,", "\"quantiles\": [0.5,0.0,", "quantiles"},
                new String[] {"\"count\":", "\"count\":\"many\",\"x\":", "series[0]"})) {
            Path d = Files.createDirectories(tmp.resolve("bad-" + c[2].replaceAll("\\W", "")));
            Path f = Files.writeString(
                    d.resolve(Distributions.FILE),
                    good.replaceFirst(
                            java.util.regex.Pattern.quote(c[0]), java.util.regex.Matcher.quoteReplacement(c[1])));
            assertFalse(Files.readString(f).equals(good), c[0]);
            BadInput e = assertThrows(BadInput.class, () -> Distributions.read(f), c[2]);
            assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains(c[2]), e.getMessage());
        }
    }
}
