package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.HostLoadRow;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.ResultRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every committed results folder redraws its distributions from what git holds: samples.arrow stays
 * out of git, so each folder's ECDFs must come from its distributions.json. Each folder is copied
 * without samples.arrow (a clone has none) and its charts are drawn from the copy.
 */
class CommittedResultsRedrawTest {
    @TempDir
    Path tmp;

    /**
     * Folders that cannot redraw: made before distributions.json existed, and their samples.arrow is
     * gone (results/README.md says which). graph jmh ({@code -vm-3}, {@code -vm-15}) writes no samples.
     * The list must stay exact: a new folder without distributions.json fails, and so does a listed
     * folder that has one.
     */
    private static final Set<String> WITHOUT_DISTRIBUTIONS = Set.of(
            "2026-11-30-vm",
            "2026-11-30-vm-2",
            "2026-11-30-vm-3",
            "2026-11-30-vm-4",
            "2026-11-30-vm-5",
            "2026-11-30-vm-6",
            "2026-11-30-vm-7",
            "2026-11-30-vm-8",
            "2026-11-30-vm-9",
            "2026-11-30-vm-10",
            "2026-11-30-vm-11",
            "2026-11-30-vm-15");

    @Test
    void everyCommittedFolderRedrawsItsEcdfWithoutSamplesArrow() throws Exception {
        List<Path> folders = new ArrayList<>();
        try (var list = Files.list(Fixtures.resultsRoot())) {
            list.filter(d -> Files.isRegularFile(d.resolve("summary.json"))
                            && !d.getFileName().toString().contains("bpf-stats"))
                    .sorted()
                    .forEach(folders::add);
        }
        assertTrue(folders.size() >= 16, "the committed folders: " + folders);
        Set<String> without = new TreeSet<>();
        List<String> redrawn = new ArrayList<>();
        for (Path dir : folders) {
            String name = dir.getFileName().toString();
            Results loaded = Results.load(dir);
            if (loaded.kind().rowType() == KernelMatrixRow.class) {
                // medians from each kernel's part, no samples: its chart redraws from summary.json alone
                assertFalse(
                        Files.exists(dir.resolve(Distributions.FILE)), name + ": kernel-matrix keeps no distributions");
                Map<String, ?> charts = Plots.all(loaded);
                // the calls' panel always; the brokered panel where a kernel measured a brokered ratio (a 5.10 guest
                // alone has none): exactly the charts the run drew
                assertTrue(charts.containsKey("added-ratio-by-kernel.png"), name + ": " + charts.keySet());
                Set<String> drawn = new TreeSet<>();
                try (Stream<Path> pngs = Files.list(dir.resolve("plots"))) {
                    pngs.map(f -> f.getFileName().toString())
                            .filter(f -> f.endsWith(".png"))
                            .forEach(drawn::add);
                }
                assertEquals(drawn, new TreeSet<>(charts.keySet()), name + ": redrawn as the run drew");
                redrawn.add(name + " (ratios from summary.json)");
                continue;
            }
            if (!Files.isRegularFile(dir.resolve(Distributions.FILE))) {
                without.add(name);
                continue;
            }
            // A fixed quantile grid per row and variant: about 3.5 kB a row; floor-cost with its paired rounds has
            // 94 rows (330 kB), and no kind more.
            assertTrue(
                    Files.size(dir.resolve(Distributions.FILE)) < 400_000,
                    name + ": distributions.json is small enough for git");
            Results r = Results.load(DistributionsTest.withoutSamples(dir, tmp.resolve(name)));
            assertTrue(r.distilledOnly(), name);
            if (r.hasGraphRows() || !r.hasCallSamples()) {
                // batch samples (graph-lookup, lanes): the same table as samples.arrow gave
                assertTrue(r.samples().rowCount() > 0, name);
                assertTrue(Tables.fromSamples(r).rowCount() > 0, name);
                redrawn.add(name + " (batches)");
                continue;
            }
            Map<String, ?> charts = Plots.all(r);
            List<String> ecdfs = charts.keySet().stream()
                    .filter(c -> c.startsWith("distribution-") || c.startsWith("broker-") || c.startsWith("ecdf-"))
                    .toList();
            assertFalse(ecdfs.isEmpty(), name + ": no ECDF chart among " + charts.keySet());
            Path plots = tmp.resolve(name + "-plots");
            assertEquals(charts.size(), Plots.saveAll(r, plots).size(), name);
            for (String c : ecdfs) {
                assertTrue(Files.size(plots.resolve(c)) > 10_000, name + "/" + c + " drawn");
                // the same charts the run drew from samples.arrow
                assertTrue(
                        !Files.isDirectory(dir.resolve("plots"))
                                || Files.isRegularFile(dir.resolve("plots").resolve(c)),
                        name + ": redrew " + c + ", which the run did not draw");
            }
            // the medians and p99s the curves show are the summary's, where the summary keeps them per row
            for (int i : r.rowsWithSamples()) {
                Figures row = i < r.resultRows().size() ? Figures.of(r.row(i)) : Figures.NONE;
                if (r.hasSamples(i, "filtered") && row.median() != null && row.runsCompleted() == null) {
                    assertEquals(
                            row.median().doubleValue(),
                            r.ecdfOf(i, "filtered").median(),
                            name + " row " + i + " median");
                    if (row.p99() != null) {
                        assertEquals(
                                row.p99().doubleValue(), r.ecdfOf(i, "filtered").p99(), name + " row " + i + " p99");
                    }
                }
            }
            redrawn.add(name + " " + ecdfs);
        }
        System.out.println("redrawn without samples.arrow: " + redrawn);
        assertEquals(
                new TreeSet<>(WITHOUT_DISTRIBUTIONS),
                without,
                "folders without distributions.json (new folders must have one; results/README.md lists the old ones)");
    }

    /** A row's median, p99 and completed runs where its type has them (rows of a call's samples), else nulls. */
    private record Figures(Long median, Long p99, Long runsCompleted) {
        static final Figures NONE = new Figures(null, null, null);

        static Figures of(ResultRow row) {
            if (row instanceof FloorCostRow f) {
                return new Figures(f.medianNs(), f.p99Ns(), f.runsCompleted());
            }
            if (row instanceof HostLoadRow h) {
                return new Figures(h.medianNs(), h.p99Ns(), h.runsCompleted());
            }
            if (row instanceof KernelBitmapRow.Configuration c) {
                return new Figures(c.medianNs(), c.p99Ns(), c.runsCompleted());
            }
            return NONE;
        }
    }
}
