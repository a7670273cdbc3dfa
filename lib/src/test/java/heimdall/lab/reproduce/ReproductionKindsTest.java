package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.ExploreCheckRow;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.Summary;
import heimdall.lab.results.SummaryJson;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry of reproduction kinds is the one description every reader uses, and every kind's
 * folder, written through the real writer, loads through {@code Results.load} and is drawn.
 */
class ReproductionKindsTest {
    @TempDir
    Path tmp;

    @Test
    void everyReaderSeesTheOneRegistry() {
        // Results.load's lookup (through META-INF/services) gives the very instances ./lab reproduce runs:
        // every kind is a package of its own (reproduce.<kind>), registered as a ReproductionKind service
        List<ReproductionKind<?, ?>> all = ReproductionKind.all();
        for (ReproductionKind<?, ?> k : all) {
            assertTrue(k.getClass().getPackageName().startsWith("heimdall.lab.reproduce."), k.name());
        }
        assertTrue(all.stream().anyMatch(k -> k.name().equals("mechanisms")), all.toString());
        assertTrue(all.stream().anyMatch(k -> k.name().equals("workload-cost")), all.toString());
        for (Reproduction r : ReproduceCommand.ALL) {
            assertTrue(all.contains(r), r.name());
        }
        List<String> names =
                ReproductionKind.all().stream().map(ReproductionKind::name).toList();
        assertEquals(names.size(), Set.copyOf(names).size(), "names are unique: " + names);
        assertEquals(names.stream().filter(ReproduceCommand.NAMES::contains).toList(), ReproduceCommand.NAMES);
        // graph-jmh and explore-check have commands of their own; every other kind is a NAME
        assertEquals(
                Set.of("graph-jmh", "explore-check"),
                names.stream().filter(n -> !ReproduceCommand.NAMES.contains(n)).collect(Collectors.toSet()));
        for (ReproductionKind<?, ?> k : ReproductionKind.all()) {
            assertTrue(k instanceof KindPlots, k + " draws its folder");
            assertSame(k, ReproductionKind.of(k.rowType()));
            assertSame(k, ReproductionKind.named(k.name(), Path.of("summary.json"), "reproduction"));
        }
        assertSame(
                ReproductionKind.of(heimdall.lab.results.GraphJmhRow.class),
                ReproductionKind.named("graph jmh", Path.of("environment.json"), "reproduction"));
        BadInput e = assertThrows(
                BadInput.class, () -> ReproductionKind.named("explore check\n", Path.of("s.json"), "reproduction"));
        assertTrue(e.getMessage().contains("s.json") && e.getMessage().contains("explore-check"), e.getMessage());
        // compare reads the identities the kinds declare: the four it always compared, and workload-cost
        assertEquals(
                Set.of("floor-cost", "host-load", "graph-lookup", "kernel-matrix", "workload-cost"),
                ReproductionKind.all().stream()
                        .filter(k -> k.identity().isPresent())
                        .map(ReproductionKind::name)
                        .collect(Collectors.toSet()));
    }

    /**
     * One folder per kind: the rows of a committed folder of that kind (explore-check has none: its
     * rows and samples are made here) written by {@link ResultsFolder#writeSummary}, beside the
     * committed folder's environment.json and distributions.json; each loads and draws at least one
     * non-empty PNG.
     */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyKindsFolderLoadsAndIsDrawn() throws Exception {
        Map<String, Path> committed = committedFolderOfEachKind();
        Set<String> drawn = new TreeSet<>();
        for (ReproductionKind<?, ?> kind : ReproductionKind.all()) {
            Path dir = kind.rowType() == ExploreCheckRow.class
                    ? exploreCheckFolder()
                    : rewritten(kind, committed.get(kind.name()));
            Results r = Results.load(dir);
            assertSame(kind, r.kind(), dir.toString());
            assertFalse(r.resultRows().isEmpty(), kind.name());
            List<Path> pngs = Plots.saveAll(r, dir.resolve("plots"));
            assertFalse(pngs.isEmpty(), kind.name() + ": no plot drawn");
            for (Path png : pngs) {
                assertTrue(Files.size(png) > 1000, png + " is empty");
                BufferedImage image = ImageIO.read(png.toFile());
                assertNotNull(image, png + " is no PNG");
                assertEquals(Plots.WIDTH, image.getWidth(), png.toString());
            }
            drawn.add(kind.name());
        }
        assertEquals(
                new TreeSet<>(ReproductionKind.all().stream()
                        .map(ReproductionKind::name)
                        .toList()),
                drawn);
    }

    /** The newest committed folder of each kind that has distributions.json, else the newest of it. */
    private static Map<String, Path> committedFolderOfEachKind() throws Exception {
        Map<String, Path> best = new LinkedHashMap<>();
        List<Path> dirs;
        try (var list = Files.list(Fixtures.resultsRoot())) {
            dirs = list.filter(d -> Files.isRegularFile(d.resolve("summary.json")))
                    .sorted()
                    .toList();
        }
        for (Path d : dirs) {
            String name = SummaryJson.read(d).kind().name();
            Path had = best.get(name);
            if (had == null
                    || Files.isRegularFile(d.resolve("distributions.json"))
                    || !Files.isRegularFile(had.resolve("distributions.json"))) {
                best.put(name, d);
            }
        }
        return best;
    }

    /** {@code source}'s rows through the real writer, into a new folder of {@code kind}. */
    private <R extends ResultRow> Path rewritten(ReproductionKind<R, ?> kind, Path source) throws Exception {
        assertNotNull(source, kind + ": no committed folder to take rows from");
        Summary s = SummaryJson.read(source);
        ResultsFolder f = ResultsFolder.chosen(tmp.resolve(kind.name()));
        f.writeSummary(kind, Optional.empty(), s.rows(kind.rowType()));
        for (String file : List.of("environment.json", "distributions.json")) {
            if (Files.isRegularFile(source.resolve(file))) {
                f.writeText(file, Files.readString(source.resolve(file)));
            }
        }
        List<String> variants = SAMPLES_MADE.getOrDefault(kind.name(), List.of());
        if (!variants.isEmpty()) {
            assertFalse(
                    Files.isRegularFile(source.resolve("distributions.json")),
                    kind + ": use the committed distributions");
            try (SamplesFile samples = SamplesFile.create(f.path().resolve("samples.arrow"))) {
                for (int row = 0; row < s.rows().size(); row++) {
                    for (String variant : variants) {
                        samples.append(row, variant, 0, made(row));
                    }
                }
            }
        }
        return f.publish();
    }

    /**
     * The kinds whose only committed folders predate distributions.json and that draw only from
     * samples (attach-cost: its ECDFs per variant): samples are made here, under the variants it writes.
     */
    private static final Map<String, List<String>> SAMPLES_MADE =
            Map.of("attach-cost", List.of("attach", "fork+attach"));

    /** 500 made-up samples around 200 ns, a little slower for each later row. */
    private static long[] made(int row) {
        long[] ns = new long[500];
        for (int i = 0; i < ns.length; i++) {
            ns[i] = 180 + row * 3L + (i * 37L) % 41;
        }
        return ns;
    }

    /** An explore-check folder as {@code ./lab explore check} writes it: two rows, their samples. */
    private Path exploreCheckFolder() throws Exception {
        ResultsFolder f = ResultsFolder.chosen(tmp.resolve("explore-check"));
        List<Long> medians = new ArrayList<>();
        try (SamplesFile samples = SamplesFile.create(f.path().resolve("samples.arrow"))) {
            for (int row = 0; row < 2; row++) {
                for (int run = 0; run < 4; run++) {
                    samples.append(row, "filtered", run, made(row + run));
                    if (row == 0) {
                        medians.add(200L + run);
                    }
                }
            }
        }
        ExploreCheckRow theirs = new ExploreCheckRow(
                new ExploreCheckRow.Subject("floor-cost row code (FloorBench)", "static floor, abcdf", "getppid"),
                RowStatus.OK,
                4L,
                new ExploreCheckRow.Figures(201L, 220L, 150L, 51L, medians, 2000L, 0.015, List.of(201L)),
                null,
                null,
                null);
        ExploreCheckRow ours = new ExploreCheckRow(
                new ExploreCheckRow.Subject("fluent API (Lab.measure)", "fluent API, static floor, abcdf", "getppid"),
                RowStatus.OK,
                4L,
                new ExploreCheckRow.Figures(204L, 224L, null, null, medians, 2000L, 0.015, List.of(204L)),
                new ExploreCheckRow.Check(1.0149, 0.05, true),
                null,
                null);
        f.writeSummary(ReproductionKind.of(ExploreCheckRow.class), Optional.empty(), List.of(theirs, ours));
        return f.publish();
    }
}
