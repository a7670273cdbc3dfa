package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** compare across kernels: an emulated folder is marked, and its nanoseconds never sit beside a native folder's. */
class CompareKernelsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SOURCE = Fixtures.resultsRoot().resolve("2026-11-30-vm-floor-cost-2");

    @TempDir
    Path tmp;

    /** A copy of a committed floor-cost folder (summary and environment only) with its environment.json changed. */
    private Path copy(String name, Consumer<ObjectNode> env) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        Files.copy(SOURCE.resolve("summary.json"), dir.resolve("summary.json"));
        ObjectNode e =
                (ObjectNode) JSON.readTree(SOURCE.resolve("environment.json").toFile());
        env.accept(e);
        Files.writeString(dir.resolve("environment.json"), JSON.writeValueAsString(e));
        return dir;
    }

    private static Consumer<ObjectNode> guest(String release, Boolean emulated) {
        return e -> {
            e.put("kernel_release", release);
            ObjectNode vm = e.putObject("vm");
            vm.put("kernel", "debian:6.1");
            vm.put("accelerator", "tcg");
            if (emulated != null) {
                vm.put("emulated", emulated);
            }
        };
    }

    @Test
    void anEmulatedFolderIsComparedByRatiosOnlyAndMarked() throws Exception {
        Path nativeDir = copy("native", e -> {});
        Path guestDir = copy("guest", guest("6.1.0-57-amd64", true));
        Compare c = Compare.load(List.of(nativeDir, guestDir));
        assertTrue(c.anyEmulated());
        assertTrue(c.acrossKernels());
        Table t = c.table();
        int withFigures = 0;
        for (int i = 0; i < t.rowCount(); i++) {
            boolean guestLine = t.stringColumn("folder").get(i).equals("guest");
            assertEquals(guestLine, t.booleanColumn("emulated").get(i), "line " + i);
            if (guestLine) {
                // no emulated nanosecond anywhere in the table
                for (String col : List.of("median", "added", "published_added", "ratio_to_published")) {
                    assertTrue(t.doubleColumn(col).isMissing(i), col + " of line " + i);
                }
            } else if (!t.doubleColumn("added").isMissing(i)
                    && !t.doubleColumn("added_ratio").isMissing(i)) {
                double median = t.doubleColumn("median").getDouble(i);
                double added = t.doubleColumn("added").getDouble(i);
                assertEquals(
                        added / (median - added), t.doubleColumn("added_ratio").getDouble(i), 1e-9);
                // the same summary: the guest's ratio is the native one's (rows in pairs: native, guest)
                assertEquals(
                        t.doubleColumn("added_ratio").getDouble(i),
                        t.doubleColumn("added_ratio").getDouble(i + 1),
                        1e-12);
                withFigures++;
            }
        }
        assertTrue(withFigures > 10, "ratios compared on " + withFigures + " rows");
        String text = c.text();
        assertTrue(text.contains("Emulated figures present (emulated (TCG): ratios within this folder only)"), text);
        assertTrue(text.contains("| guest |") && text.contains("emulated (tcg)"), text);
        assertTrue(text.contains("ok, emulated"), text);
        assertTrue(text.contains("added_ratio"), text);
        var chart = c.plot();
        assertTrue(
                chart.getTitle().contains("added / unfiltered")
                        && chart.getTitle().contains("per kernel"),
                chart.getTitle());
        assertTrue(
                chart.getSeriesMap().keySet().stream().anyMatch(s -> s.startsWith("6.1.0-57-amd64 (emulated) · guest")),
                chart.getSeriesMap().keySet().toString());
        assertFalse(chart.getSeriesMap().containsKey("published"), "published nanoseconds are not ratios");
        assertEquals(
                List.of("n", "label", "native", "guest"),
                c.byFolder("added_ratio").columnNames());
    }

    @Test
    void aVmObjectThatDoesNotSayIsTakenAsEmulatedAndAKvmGuestAsNative() throws Exception {
        Path nativeDir = copy("native", e -> {});
        Compare unsaid = Compare.load(List.of(nativeDir, copy("unsaid", guest("6.1.0-57-amd64", null))));
        assertTrue(unsaid.anyEmulated(), "a vm object without emulated is never taken for native");
        Path kvm = copy("kvm", e -> {
            guest("6.1.0-57-amd64", false).accept(e);
            ((ObjectNode) e.get("vm")).put("accelerator", "kvm");
        });
        Compare kvmCompare = Compare.load(List.of(nativeDir, kvm));
        assertFalse(kvmCompare.anyEmulated());
        assertFalse(kvmCompare.text().contains("Emulated figures"), kvmCompare.text());
        assertTrue(kvmCompare.text().contains("guest (kvm)"), kvmCompare.text());
        assertTrue(
                kvmCompare.plot().getTitle().endsWith("added cost by row, per kernel"),
                kvmCompare.plot().getTitle());
        Table t = kvmCompare.table();
        assertFalse(t.doubleColumn("median").isMissing(1), "a native guest's figures are shown");
    }

    @Test
    void nativeFoldersOnOneKernelCompareAsBefore() throws Exception {
        Compare c = Compare.load(List.of(copy("a", e -> {}), copy("b", e -> {})));
        assertFalse(c.anyEmulated());
        assertFalse(c.acrossKernels());
        assertFalse(c.text().contains("added_ratio"), "the text's columns are unchanged without emulated figures");
        assertTrue(
                c.plot().getTitle().endsWith("added cost by row, per folder"),
                c.plot().getTitle());
    }

    @Test
    void kernelMatrixFoldersLineUpByKernelAndKeepEmulatedRowsToRatios() throws Exception {
        Path committed = Fixtures.resultsRoot().resolve("2026-12-01-vm-kernel-matrix");
        Path again = Files.createDirectory(tmp.resolve("again"));
        for (String f : List.of("summary.json", "environment.json")) {
            Files.copy(committed.resolve(f), again.resolve(f));
        }
        Compare c = Compare.load(List.of(committed, again));
        assertEquals("kernel-matrix", c.reproduction());
        assertTrue(c.anyEmulated(), "the guests' rows are emulated though the folders' host is not");
        Table t = c.table();
        int host = 0;
        int guest = 0;
        for (int i = 0; i < t.rowCount(); i++) {
            if (!t.booleanColumn("present").get(i)
                    || t.doubleColumn("added_ratio").isMissing(i)) {
                continue;
            }
            boolean emulatedRow = !t.stringColumn("kernel").isMissing(i)
                    && t.booleanColumn("emulated").get(i);
            String label = t.stringColumn("label").get(i);
            if (label.startsWith("host")) {
                assertFalse(emulatedRow, label);
                assertFalse(t.doubleColumn("added").isMissing(i), label);
                host++;
            } else {
                assertTrue(emulatedRow, label);
                assertTrue(
                        t.doubleColumn("median").isMissing(i)
                                && t.doubleColumn("added").isMissing(i),
                        label);
                guest++;
            }
        }
        assertTrue(host >= 4 && guest >= 8, host + " host lines, " + guest + " guest lines with a ratio");
    }
}
