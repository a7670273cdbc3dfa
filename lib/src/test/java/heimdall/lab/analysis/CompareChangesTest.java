package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.LabRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * compare's change detection: B/A per row with its interval and a verdict. A folder against itself is
 * "no difference" on every row; against a copy with a shift injected on some rows' run medians, "slower"
 * (or "faster") on exactly those rows; emulated folders by within-run ratios only; bad thresholds refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompareChangesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A full run: 7 runs a row, 57 rows. */
    private static final Path FULL = Fixtures.resultsRoot().resolve("2026-12-01-vm-floor-cost");

    @TempDir
    Path tmp;

    /** A copy of {@link #FULL} (summary and environment) with some rows' filtered figures multiplied by a factor. */
    private Path shifted(String name, Map<Integer, Double> factors, Consumer<ObjectNode> env) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve(name));
        ObjectNode summary =
                (ObjectNode) JSON.readTree(FULL.resolve("summary.json").toFile());
        ArrayNode rows = (ArrayNode) summary.get("rows");
        for (Map.Entry<Integer, Double> e : factors.entrySet()) {
            ObjectNode row = (ObjectNode) rows.get(e.getKey());
            double k = e.getValue();
            ArrayNode runs = (ArrayNode) row.get("run_medians_ns");
            for (int j = 0; j < runs.size(); j++) {
                runs.set(
                        j,
                        JSON.getNodeFactory().numberNode(Math.round(runs.get(j).asDouble() * k)));
            }
            long median = Math.round(row.get("median_ns").asDouble() * k);
            row.put("median_ns", median);
            row.put("added_ns", median - row.get("median_none_ns").asLong());
        }
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(summary));
        ObjectNode e =
                (ObjectNode) JSON.readTree(FULL.resolve("environment.json").toFile());
        env.accept(e);
        Files.writeString(dir.resolve("environment.json"), JSON.writeValueAsString(e));
        return dir;
    }

    private static Set<Integer> rowsWith(Table changes, String verdict) {
        Set<Integer> rows = new TreeSet<>();
        for (int i = 0; i < changes.rowCount(); i++) {
            if (verdict.equals(changes.stringColumn("verdict").get(i))) {
                rows.add(changes.intColumn("n").getInt(i) - 1);
            }
        }
        return rows;
    }

    @Test
    void aFolderAgainstItselfIsNoDifferenceOnEveryRow() {
        Compare c = Results.compare(FULL, FULL);
        assertEquals(List.of("2026-12-01-vm-floor-cost", "2026-12-01-vm-floor-cost (2)"), c.folderNames());
        for (double threshold : new double[] {0.05, 0.0}) {
            Table t = c.changes(threshold);
            assertEquals(57, t.rowCount());
            assertEquals(57, rowsWith(t, "no difference beyond noise").size(), t.print());
            for (int i = 0; i < t.rowCount(); i++) {
                assertEquals(1.0, t.doubleColumn("ratio").getDouble(i), 1e-12);
                assertTrue(t.doubleColumn("ratio_low").getDouble(i) <= 1
                        && t.doubleColumn("ratio_high").getDouble(i) >= 1);
                assertEquals(7, t.intColumn("runs_a").getInt(i));
            }
        }
        String text = c.text();
        assertTrue(
                text.contains("2026-12-01-vm-floor-cost (2): 0 slower, 0 faster, 57 no difference beyond noise"), text);
        assertTrue(text.contains("Mann-Whitney U over run medians"), text);
        assertTrue(text.contains("threshold of 5%"), text);
    }

    @Test
    void anInjectedShiftIsSlowerOrFasterOnExactlyThoseRows() throws Exception {
        Path b = shifted("shifted", Map.of(0, 1.3, 9, 1.3, 21, 1.3, 30, 0.7), e -> {});
        Table t = Results.compare(FULL, b).changes();
        assertEquals(Set.of(0, 9, 21), rowsWith(t, "slower"), t.print());
        assertEquals(Set.of(30), rowsWith(t, "faster"), t.print());
        assertEquals(53, rowsWith(t, "no difference beyond noise").size());
        for (int i : new int[] {0, 9, 21}) {
            assertTrue(
                    t.doubleColumn("ratio_low").getDouble(i) > 1.1
                            && t.doubleColumn("ratio_low").getDouble(i) < 1.3
                            && t.doubleColumn("ratio_high").getDouble(i) > 1.3,
                    "the interval holds the injected 1.3: " + t.row(i));
            assertTrue(t.doubleColumn("p_value").getDouble(i) < 0.01);
        }
        // within the threshold: a 3% shift on a quiet row is significant but not a change beyond 5%
        Path small = shifted("small", Map.of(1, 1.03), e -> {});
        Table s = Results.compare(FULL, small).changes();
        assertEquals(Set.of(), rowsWith(s, "slower"));
        assertEquals(Set.of(1), rowsWith(Results.compare(FULL, small).changes(0.01), "slower"));
    }

    @Test
    void emulatedFoldersAreComparedByWithinRunRatiosNeverNanoseconds() throws Exception {
        Consumer<ObjectNode> guest = e -> {
            ObjectNode vm = e.putObject("vm");
            vm.put("kernel", "debian:6.1");
            vm.put("accelerator", "tcg");
            vm.put("emulated", true);
        };
        // the emulator makes every call 3x slower, filtered and unfiltered alike: no change in the ratios
        Path slowGuest = Files.createDirectory(tmp.resolve("slow-guest"));
        ObjectNode summary =
                (ObjectNode) JSON.readTree(FULL.resolve("summary.json").toFile());
        for (JsonNode row : summary.get("rows")) {
            for (String f : List.of("run_medians_ns", "run_medians_none_ns")) {
                ArrayNode a = (ArrayNode) row.get(f);
                for (int j = 0; a != null && j < a.size(); j++) {
                    a.set(j, JSON.getNodeFactory().numberNode(a.get(j).asLong() * 3));
                }
            }
            for (String f : List.of("median_ns", "median_none_ns", "added_ns")) {
                if (row.get(f) != null && row.get(f).isNumber()) {
                    ((ObjectNode) row).put(f, row.get(f).asLong() * 3);
                }
            }
        }
        Files.writeString(slowGuest.resolve("summary.json"), JSON.writeValueAsString(summary));
        ObjectNode env =
                (ObjectNode) JSON.readTree(FULL.resolve("environment.json").toFile());
        guest.accept(env);
        Files.writeString(slowGuest.resolve("environment.json"), JSON.writeValueAsString(env));
        Compare c = Results.compare(FULL, slowGuest);
        Table t = c.changes();
        Set<Integer> compared = new TreeSet<>();
        for (int i = 0; i < t.rowCount(); i++) {
            if (!t.doubleColumn("ratio").isMissing(i)) {
                compared.add(i);
                assertEquals(
                        1.0, t.doubleColumn("ratio").getDouble(i), 0.02, "a 3x emulator is no change: " + t.row(i));
            }
        }
        assertTrue(compared.size() >= 50, "rows with an unfiltered run to divide by: " + compared.size());
        assertEquals(compared.size(), rowsWith(t, "no difference beyond noise").size());
        assertTrue(c.text().contains("within-run ratios"), c.text());
        assertTrue(c.text().contains("note: slow-guest and 2026-12-01-vm-floor-cost differ in"), c.text());
        assertTrue(!Results.compare(FULL, FULL).text().contains("note: "));
        // a filtered-only shift in the guest is a change in its within-run ratio: found on that row only
        Path shiftedGuest = shifted("shifted-guest", Map.of(0, 1.5), guest);
        assertEquals(Set.of(0), rowsWith(Results.compare(FULL, shiftedGuest).changes(), "slower"));
    }

    @Test
    void tooFewRunsAreWarnedWithTheMinimum() throws Exception {
        Path a = SyntheticResults.floorFolder(Files.createDirectory(tmp.resolve("a"))); // 3 runs a row
        Path b = SyntheticResults.floorFolder(Files.createDirectory(tmp.resolve("b")));
        Compare c = Results.compare(a, b);
        String text = c.text();
        assertTrue(
                text.contains("warning: b against a: too few runs (3 against 3): the U test cannot reach p < 0.05 "
                        + "(its smallest p here is 0.100); it needs at least 4 runs a side"),
                text);
        Table t = c.changes();
        for (int i = 0; i < t.rowCount(); i++) {
            if (!t.stringColumn("verdict").isMissing(i)) {
                assertEquals(
                        "no difference beyond noise", t.stringColumn("verdict").get(i));
                assertTrue(t.stringColumn("note").get(i).contains("at least 4 runs a side"));
            }
        }
    }

    @Test
    void malformedRunMediansAreBadInputNamingTheField() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("bad"));
        ObjectNode summary =
                (ObjectNode) JSON.readTree(FULL.resolve("summary.json").toFile());
        ((ObjectNode) summary.get("rows").get(2))
                .putArray("run_medians_ns")
                .add(1)
                .add("lots");
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(summary));
        Files.copy(FULL.resolve("environment.json"), dir.resolve("environment.json"));
        BadInput e =
                assertThrows(BadInput.class, () -> Results.compare(FULL, dir).changes());
        assertTrue(
                e.getMessage().contains("summary.json") && e.getMessage().contains("[2].run_medians_ns"),
                e.getMessage());
    }

    @Test
    void badThresholdsAreRefusedWithExitTwo() {
        for (String bad : List.of("abc", "-5%", "150%", "100", "5%%", "1e2", "")) {
            LabRun.of("compare", FULL.toString(), FULL.toString(), "--threshold", bad)
                    .assertRefused(2, "--threshold");
        }
        LabRun r = LabRun.of("compare", FULL.toString(), FULL.toString(), "--threshold", "abc");
        assertTrue(r.err().contains("'abc' is not a percentage"), r.err());
        String full = FULL.toString();
        assertTrue(LabRun.of("compare", full, full, "--threshold", "-5%").err().contains("negative"));
        assertTrue(LabRun.of("compare", full, full, "--threshold", "150%").err().contains("100% or more"));
        assertEquals(0.05, CompareCommand.threshold(null));
        assertEquals(0.1, CompareCommand.threshold("10%"), 1e-12);
        assertEquals(0.025, CompareCommand.threshold("2.5"), 1e-12);
        assertEquals(0.0, CompareCommand.threshold("0%"));
    }

    @Test
    void theCommandPrintsVerdictsAndWritesTheIntervalPlot() throws Exception {
        Path b = shifted("shifted", Map.of(0, 1.3), e -> {});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Path out = tmp.resolve("out");
        int status = new CompareCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(List.of(FULL.toString(), b.toString(), "--threshold", "10%", "--out", out.toString()));
        assertEquals(0, status);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("shifted: 1 slower, 0 faster, 56 no difference beyond noise"), text);
        assertTrue(text.contains("threshold of 10%"), text);
        assertTrue(text.contains("| 1 | static floor, abcdf · getppid | shifted | 7/7 | 1.299 |"), text);
        java.awt.image.BufferedImage img =
                javax.imageio.ImageIO.read(out.resolve("change-by-row.png").toFile());
        assertTrue(img.getWidth() >= 1000 && img.getHeight() >= 600);
        List<String> csv = Files.readAllLines(out.resolve("changes.csv"));
        assertEquals(1 + 57, csv.size());
        assertTrue(
                csv.get(0)
                        .startsWith(
                                "n,label,folder,baseline,runs_a,runs_b,figure_a,figure_b,ratio,ratio_low,ratio_high,"),
                csv.get(0));

        Path png = tmp.resolve("change.png");
        assertEquals(
                0,
                new CompareCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                        .run(List.of(FULL.toString(), b.toString(), "--change-plot", png.toString())));
        assertTrue(javax.imageio.ImageIO.read(png.toFile()).getWidth() >= 1000);
        // a planted link at the plot's name is refused, its target untouched
        Path victim = Files.writeString(tmp.resolve("victim"), "keep");
        Path link = Files.createSymbolicLink(tmp.resolve("link.png"), victim);
        LabRun.of("compare", FULL.toString(), b.toString(), "--change-plot", link.toString())
                .assertRefused(2, "--change-plot", "symbolic link");
        assertEquals("keep", Files.readString(victim));
    }
}
