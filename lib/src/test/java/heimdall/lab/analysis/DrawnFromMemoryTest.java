package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's plots and distributions.json come from what it holds in memory: with its samples.arrow made
 * unreadable once written, the run still gets both, and they are what a reload from the real file gives,
 * byte for byte.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DrawnFromMemoryTest {
    @TempDir
    Path tmp;

    @Test
    void aRunWhoseSamplesFileIsUnreadableStillGetsTheReloadsPlotsAndDistributions() throws Exception {
        // the rows of a floor-cost folder (floor and broker rows), as a reproduction would hand them over
        Results rows = Results.load(SyntheticResults.floorFolder(tmp.resolve("rows")));
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("run"));
        try {
            Random rnd = new Random(5);
            try (SamplesFile samples = folder.createSamples()) {
                for (int row = 0; row < rows.resultRows().size(); row++) {
                    for (String variant : List.of("filtered", "none")) {
                        for (int run = 0; run < 3; run++) {
                            // more samples than an ECDF keeps points and than the grid has quantiles, a slow tail
                            long[] s = new long[4_000 + 500 * row];
                            for (int i = 0; i < s.length; i++) {
                                long slow = i % 97 == 0 ? 70_000 + rnd.nextInt(900_000) : 0;
                                s[i] = 100 + 50L * row + rnd.nextInt(80) + slow;
                            }
                            samples.append(row, variant, run, s);
                        }
                    }
                }
            }
            writeSummary(folder, rows.kind(), rows.resultRows());
            // the reference: the same summary.json and samples.arrow, loaded from disk as a notebook would
            Path reload = Files.createDirectory(tmp.resolve("reload"));
            Files.copy(folder.path().resolve("summary.json"), reload.resolve("summary.json"));
            Files.copy(folder.path().resolve("samples.arrow"), reload.resolve("samples.arrow"));
            // from now on any read of the run's samples or summary fails
            Files.writeString(folder.path().resolve("samples.arrow"), "not an Arrow file", StandardCharsets.UTF_8);
            Files.writeString(folder.path().resolve("summary.json"), "{not json", StandardCharsets.UTF_8);
            assertThrows(
                    RuntimeException.class, () -> Results.load(folder.path()).ecdfOf(0, "filtered"));

            List<String> said = new ArrayList<>();
            Distributions.writeBeside(folder, said::add);
            Plots.writeInto(folder, said::add);
            assertFalse(said.stream().anyMatch(m -> m.contains("not written")), said.toString());

            Distributions.distill(reload);
            assertArrayEquals(
                    Files.readAllBytes(reload.resolve(Distributions.FILE)),
                    Files.readAllBytes(folder.path().resolve(Distributions.FILE)),
                    "distributions.json");
            Results fromDisk = Results.load(reload);
            List<Path> expected = Plots.saveAll(fromDisk, tmp.resolve("reload-plots"));
            List<String> names = names(tmp.resolve("reload-plots"));
            assertTrue(names.stream().anyMatch(n -> n.startsWith("distribution-")), names.toString());
            assertTrue(names.stream().anyMatch(n -> n.startsWith("broker-cdf-")), names.toString());
            assertEquals(names, names(folder.path().resolve("plots")));
            for (Path p : expected) {
                Path drawn = folder.path().resolve("plots").resolve(p.getFileName());
                assertArrayEquals(
                        Files.readAllBytes(p),
                        Files.readAllBytes(drawn),
                        p.getFileName().toString());
            }
            Results inMemory = Results.written(folder).orElseThrow();
            assertEquals(fromDisk.variants(), inMemory.variants());
            assertEquals(fromDisk.rowsWithSamples(), inMemory.rowsWithSamples());
            for (int row : fromDisk.rowsWithSamples()) {
                for (String v : fromDisk.variants()) {
                    Ecdf a = fromDisk.ecdfOf(row, v);
                    Ecdf b = inMemory.ecdfOf(row, v);
                    assertArrayEquals(a.x(), b.x(), row + " " + v);
                    assertArrayEquals(a.y(), b.y(), row + " " + v);
                    assertEquals(a.median(), b.median());
                    assertEquals(a.p99(), b.p99());
                    assertEquals(a.count(), b.count());
                }
            }
        } finally {
            folder.abandon();
        }
    }

    @Test
    void aFolderWhoseSamplesWereNotCountedIsReadFromDiskAsBefore() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("old"));
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("nothing-written"));
        try {
            assertTrue(folder.written().isEmpty());
            assertTrue(Results.written(folder).isEmpty());
        } finally {
            folder.abandon();
        }
        List<String> said = new ArrayList<>();
        Distributions.writeBeside(dir, said::add);
        Plots.writeInto(dir, said::add);
        assertTrue(Files.isRegularFile(dir.resolve(Distributions.FILE)), said.toString());
        assertFalse(names(dir.resolve("plots")).isEmpty(), said.toString());
    }

    private static <R extends ResultRow> void writeSummary(
            ResultsFolder folder, ReproductionKind<R, ?> kind, List<ResultRow> rows) {
        folder.writeSummary(kind, Optional.empty(), kind.cast(rows));
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
