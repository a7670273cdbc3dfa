package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code ./lab compare} over workload-cost folders (issue 31): rows lined up by workload and mechanism across
 * hosts and kernels, an emulated guest's marked and compared by ratios only, each row's runs paired round by
 * round with its workload's unfiltered runs (the {@code none} row of the same folder).
 */
class CompareWorkloadCostTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SOURCE = Fixtures.resultsRoot().resolve("2026-12-05-vm-workload-cost");

    @TempDir
    Path tmp;

    /** A copy of the committed folder (summary and environment), each changed as asked. */
    private Path copy(String name, Consumer<ObjectNode> env, Consumer<ArrayNode> rows) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        ObjectNode s = (ObjectNode) JSON.readTree(SOURCE.resolve("summary.json").toFile());
        rows.accept((ArrayNode) s.get("rows"));
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(s));
        ObjectNode e =
                (ObjectNode) JSON.readTree(SOURCE.resolve("environment.json").toFile());
        env.accept(e);
        Files.writeString(dir.resolve("environment.json"), JSON.writeValueAsString(e));
        return dir;
    }

    private static void guest(ObjectNode e) {
        e.put("kernel_release", "5.10.0-33-amd64");
        ObjectNode vm = e.putObject("vm");
        vm.put("kernel", "debian:5.10");
        vm.put("accelerator", "tcg");
        vm.put("emulated", true);
    }

    /** find-tree under Docker's profile, every run three times as long: the one row that changed. */
    private static void dockerOnFindTreeSlower(ArrayNode rows) {
        for (var r : rows) {
            if (r.get("workload").asText().equals("find-tree")
                    && r.get("mechanism").asText().equals("docker")) {
                ArrayNode runs = (ArrayNode) r.get("wall_runs_ns");
                for (int i = 0; i < runs.size(); i++) {
                    runs.set(i, runs.get(i).asLong() * 3);
                }
                long median = r.get("wall_median_ns").asLong();
                long none = median - r.get("wall_added_ns").asLong();
                ((ObjectNode) r).put("wall_median_ns", median * 3);
                ((ObjectNode) r).put("wall_added_ns", median * 3 - none);
            }
        }
    }

    private static int line(Table t, String label, String folder) {
        for (int i = 0; i < t.rowCount(); i++) {
            if (t.stringColumn("label").get(i).equals(label)
                    && t.stringColumn("folder").get(i).equals(folder)) {
                return i;
            }
        }
        throw new AssertionError("no line " + label + " of " + folder);
    }

    @Test
    void aGuestsWorkloadCostIsMarkedAndComparedByRatiosRoundByRound() throws Exception {
        Path host = copy("host", e -> {}, r -> {});
        Path vm = copy("guest", CompareWorkloadCostTest::guest, CompareWorkloadCostTest::dockerOnFindTreeSlower);
        Compare c = Compare.load(List.of(host, vm));
        assertEquals("workload-cost", c.reproduction());
        assertTrue(c.anyEmulated());
        assertTrue(c.acrossKernels());
        assertEquals(35, c.keys().size(), "5 workloads × 7 mechanisms, lined up by identity");
        Table t = c.table();
        for (int i = 0; i < t.rowCount(); i++) {
            if (t.stringColumn("folder").get(i).equals("guest")) {
                assertTrue(t.booleanColumn("emulated").get(i), "line " + i);
                assertTrue(
                        t.doubleColumn("median").isMissing(i)
                                && t.doubleColumn("added").isMissing(i),
                        "line " + i);
            }
        }
        int hostLine = line(t, "gcc-headers · podman", "host");
        int guestLine = line(t, "gcc-headers · podman", "guest");
        assertEquals(287963526, t.doubleColumn("added").getDouble(hostLine), 0.5);
        assertEquals(
                t.doubleColumn("added_ratio").getDouble(hostLine),
                t.doubleColumn("added_ratio").getDouble(guestLine),
                1e-12);
        assertTrue(c.text().contains("Emulated figures present"), c.text());

        List<CompareChanges.Line> lines = CompareChanges.lines(c, 0.05, 0.95);
        assertEquals(35, lines.size());
        long compared = lines.stream().filter(l -> l.change() != null).count();
        assertEquals(35, compared, "every row has its runs and its workload's unfiltered runs: " + lines);
        for (CompareChanges.Line l : lines) {
            double ratio = l.change().ratio().estimate();
            if (l.label().equals("find-tree · docker")) {
                // each run over the same round's unfiltered run, three times what it was
                assertEquals(3.0, ratio, 1e-9, l.toString());
                assertEquals("slower", l.change().verdict().text(), l.toString());
            } else {
                assertEquals(1.0, ratio, 1e-9, l.toString());
                assertFalse(l.change().verdict().text().equals("slower"), l.toString());
            }
        }
    }

    @Test
    void nativeFoldersCompareTheirWallRunsInNanoseconds() throws Exception {
        Path a = copy("a", e -> {}, r -> {});
        Path b = copy("b", e -> e.put("hostname", "other"), CompareWorkloadCostTest::dockerOnFindTreeSlower);
        Compare c = Compare.load(List.of(a, b));
        assertFalse(c.anyEmulated());
        List<CompareChanges.Line> lines = CompareChanges.lines(c, 0.05, 0.95);
        CompareChanges.Line docker = lines.stream()
                .filter(l -> l.label().equals("find-tree · docker"))
                .findFirst()
                .orElseThrow();
        assertNotNull(docker.change(), docker.why());
        assertNull(docker.why());
        assertEquals(3.0, docker.change().ratio().estimate(), 1e-9);
        assertEquals(175991142.0 * 3, docker.b().figure(), 0.5, "the wall median in ns, not a ratio");
        assertEquals(10, docker.b().runs().length);
    }
}
