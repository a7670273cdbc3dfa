package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.cli.Main;
import heimdall.lab.fixtures.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code Results.compare} and {@code ./lab compare} over the committed floor-cost folders (two
 * schema-1 runs and one schema-2 run) and copies of them changed to attack or break the contract.
 */
class CompareTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Schema 2, with the ping-pong floors and the unpinned and shared-set placements. */
    private static final Path VM13 = Fixtures.resultsRoot().resolve("2026-11-30-vm-13");
    /** Schema 1 (bare array; its reproduction only in environment.json): rows 1–15. */
    private static final Path VM8 = Fixtures.resultsRoot().resolve("2026-11-30-vm-8");

    private static final Path VM5 = Fixtures.resultsRoot().resolve("2026-11-30-vm-5");
    private static final Path GRAPH = Fixtures.resultsRoot().resolve("2026-11-30-vm-14");

    @TempDir
    Path tmp;

    @Test
    void committedFloorCostFoldersLineUpByRowWithTheirOwnNumbers() throws Exception {
        Compare c = Results.compare(VM13, VM8, VM5);
        Table t = c.table();
        assertEquals("floor-cost", c.reproduction());
        for (String col : List.of(
                "folder",
                "host",
                "kernel",
                "cpu",
                "clocksource",
                "pti",
                "process_seccomp_filters",
                "in_container",
                "container_signs",
                "what",
                "call",
                "supervisor",
                "answer",
                "placement",
                "sync_wakeup",
                "median",
                "added",
                "published_added",
                "ratio_to_published",
                "present",
                "interrupted",
                "completed")) {
            assertTrue(t.columnNames().contains(col), col + " in " + t.columnNames());
        }
        List<JsonNode> r13 = rows(VM13);
        List<JsonNode> r8 = rows(VM8);
        // vm-13 holds every row vm-8 has and more (placements, ping-pong floors): the union is vm-13's rows
        assertEquals(r13.size() * 3, t.rowCount());
        assertEquals(r13.size(), c.rowLabels().size());
        int checked = 0;
        for (int i = 0; i < t.rowCount(); i++) {
            String folder = t.stringColumn("folder").get(i);
            boolean present = t.booleanColumn("present").get(i);
            if (!present) {
                assertTrue(
                        t.doubleColumn("added").isMissing(i)
                                && t.doubleColumn("median").isMissing(i),
                        "blank when absent");
                continue;
            }
            List<JsonNode> src = rows(Fixtures.resultsRoot().resolve(folder));
            JsonNode row = src.get(t.intColumn("row").getInt(i));
            // the line is that row: its identity matches the key columns
            assertEquals(row.get("what").asText(), t.stringColumn("what").get(i));
            assertEquals(row.get("call").asText(), t.stringColumn("call").get(i));
            assertEquals(text(row, "placement"), t.stringColumn("placement").get(i));
            assertEquals(text(row, "supervisor"), t.stringColumn("supervisor").get(i));
            assertEquals(
                    row.get("median_ns").asDouble(), t.doubleColumn("median").getDouble(i));
            JsonNode added = row.get("added_ns");
            JsonNode pub = row.path("published").path("added_ns");
            if (added != null && !added.isNull() && pub.isNumber()) {
                assertEquals(
                        added.asDouble() / pub.asDouble(),
                        t.doubleColumn("ratio_to_published").getDouble(i),
                        1e-12);
                // the reproduction's own rounded ratio agrees
                assertEquals(
                        row.get("added_vs_published").asDouble(),
                        t.doubleColumn("ratio_to_published").getDouble(i),
                        0.006);
                checked++;
            }
        }
        assertTrue(checked >= 3 * 21, "ratios checked: " + checked);
        // row 1 of the comparison is row 0 of each folder: getppid under abcdf's static floor
        assertEquals("static floor, abcdf · getppid", c.rowLabels().get(0));
        for (int f = 0; f < 3; f++) {
            assertEquals(0, t.intColumn("row").getInt(f));
        }
        assertEquals(30.0, t.doubleColumn("added").getDouble(0)); // vm-13's added_ns
        assertEquals(39.0, t.doubleColumn("added").getDouble(1)); // vm-8's
        assertEquals(41.0, t.doubleColumn("added").getDouble(2)); // vm-5's
        assertEquals(20.0, t.doubleColumn("published_added").getDouble(0));
        // rows vm-8 never measured stay, blank there: the pipe ping-pong floors
        long absent = 0;
        for (int i = 0; i < t.rowCount(); i++) {
            if (t.stringColumn("folder").get(i).equals("2026-11-30-vm-8")
                    && !t.booleanColumn("present").get(i)) {
                absent++;
            }
        }
        assertEquals(r13.size() - r8.size(), absent);
        // host columns from each environment.json; schema-1 folders lack the issue-16 keys: blank, not guessed
        assertEquals("6.18.44-fc-v657", t.stringColumn("kernel").get(0));
        assertEquals("6.18.44-fc-v782", t.stringColumn("kernel").get(1));
        assertEquals(0, t.intColumn("process_seccomp_filters").getInt(0));
        assertTrue(t.intColumn("process_seccomp_filters").isMissing(1));
        assertEquals("off (not affected)", t.stringColumn("pti").get(0));
        assertTrue(t.stringColumn("pti").isMissing(1));
        assertEquals("/.dockerenv", t.stringColumn("container_signs").get(1));
    }

    @Test
    void inAndOutOfTheContainerJobTheHostColumnsTellTheFoldersApart() {
        Table t = Results.compare(VM13, Fixtures.resultsRoot().resolve("2026-11-30-vm-container-floor-cost"))
                .table();
        // same kernel build, same CPU: what differs is the container (pid 1 is podman's) and the host name
        assertEquals(t.stringColumn("kernel").get(0), t.stringColumn("kernel").get(1));
        assertTrue(
                t.stringColumn("container_signs").get(1).contains("container=podman"),
                t.stringColumn("container_signs").get(1));
        assertFalse(t.stringColumn("container_signs").get(0).contains("container=podman"));
        assertEquals(0, t.intColumn("process_seccomp_filters").getInt(1), "the job runs unconfined, as the seeds did");
        // the two folders measured the same 53 rows: every line present
        assertTrue(t.booleanColumn("present").asList().stream().allMatch(Boolean::booleanValue));
    }

    @Test
    void aRowMissingOnOneSideAppearsBlankThereNotDropped() throws Exception {
        Path copy = copy(VM13, "one-less");
        ObjectNode top = (ObjectNode) JSON.readTree(copy.resolve("summary.json").toFile());
        ArrayNode rows = (ArrayNode) top.get("rows");
        String goneWhat = rows.get(1).get("what").asText() + " · "
                + rows.get(1).get("call").asText();
        rows.remove(1);
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        Compare c = Results.compare(VM13, copy);
        Table t = c.table();
        assertEquals(rows(VM13).size() * 2, t.rowCount(), "every row of either folder, once per folder");
        assertEquals(goneWhat, c.rowLabels().get(1), "the row keeps its place");
        assertTrue(t.booleanColumn("present").get(2));
        assertFalse(t.booleanColumn("present").get(3));
        assertEquals("one-less", t.stringColumn("folder").get(3));
        assertTrue(t.doubleColumn("added").isMissing(3));
        assertTrue(t.doubleColumn("ratio_to_published").isMissing(3));
        // the rows after it still line up with their own numbers (copy's index shifted by one)
        assertEquals(2, t.intColumn("row").getInt(4));
        assertEquals(1, t.intColumn("row").getInt(5));
        assertEquals(
                t.doubleColumn("added").getDouble(4), t.doubleColumn("added").getDouble(5));
        assertTrue(c.text().contains("(absent)"));
        Table wide = c.byFolder("added");
        assertEquals(List.of("n", "label", "2026-11-30-vm-13", "one-less", "published"), wide.columnNames());
        assertEquals(rows(VM13).size(), wide.rowCount());
        assertTrue(wide.doubleColumn("one-less").isMissing(1));
        assertEquals(
                t.doubleColumn("added").getDouble(2),
                wide.doubleColumn("2026-11-30-vm-13").getDouble(1));
    }

    @Test
    void interruptedRowsStayMarked() throws Exception {
        Path copy = copy(VM13, "stopped");
        ObjectNode top = (ObjectNode) JSON.readTree(copy.resolve("summary.json").toFile());
        top.put("interrupted", true);
        ObjectNode row = (ObjectNode) top.get("rows").get(2);
        row.put("interrupted", true);
        row.put("runs_completed", 3);
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        Table t = Results.compare(VM13, copy).table();
        assertFalse(t.booleanColumn("interrupted").get(4)); // row 3, vm-13
        assertTrue(t.booleanColumn("interrupted").get(5)); // row 3, the stopped copy
        assertEquals("3/7 runs", t.stringColumn("completed").get(5));
        assertEquals("7/7 runs", t.stringColumn("completed").get(4));
    }

    @Test
    void foldersOfDifferentReproductionsAreRefusedNamingBoth() {
        Err e = lab("compare", VM13.toString(), GRAPH.toString());
        assertEquals(2, e.status, e.err);
        assertTrue(e.err.contains(VM13 + " is floor-cost") && e.err.contains(GRAPH + " is graph-lookup"), e.err);
        assertFalse(e.err.contains("Exception"), e.err);
    }

    @Test
    void fewerThanTwoFoldersIsAUsageError() {
        Err e = lab("compare", VM13.toString());
        assertEquals(2, e.status);
        assertTrue(e.err.contains("at least two") && e.err.contains("usage"), e.err);
    }

    @Test
    void anUnknownSchemaVersionIsRefusedNamingTheFile() throws Exception {
        Path copy = copy(VM13, "future");
        ObjectNode top = (ObjectNode) JSON.readTree(copy.resolve("summary.json").toFile());
        top.put("schema_version", 99);
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        Err e = lab("compare", VM13.toString(), copy.toString());
        assertEquals(2, e.status, e.err);
        assertTrue(
                e.err.contains(copy.resolve("summary.json") + ": schema_version:") && e.err.contains("found 99"),
                e.err);
        top.remove("schema_version");
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        BadInput missing = assertThrows(BadInput.class, () -> Results.compare(VM13, copy));
        assertTrue(missing.getMessage().contains("schema_version: missing"), missing.getMessage());
    }

    @Test
    void aSchemaOneFolderThatNamesNoReproductionIsRefused() throws Exception {
        Path copy = copy(VM8, "anonymous");
        ObjectNode env =
                (ObjectNode) JSON.readTree(copy.resolve("environment.json").toFile());
        env.remove("reproduction");
        Files.writeString(copy.resolve("environment.json"), JSON.writeValueAsString(env));
        BadInput e = assertThrows(BadInput.class, () -> Results.compare(VM13, copy));
        assertTrue(
                e.getMessage().startsWith(copy.resolve("summary.json").toString())
                        && e.getMessage().contains("names no reproduction"),
                e.getMessage());
    }

    @Test
    void anUnsupportedReproductionIsRefusedNotGuessed() {
        Path a = Fixtures.resultsRoot().resolve("2026-11-30-vm-12");
        Path b = Fixtures.resultsRoot().resolve("2026-11-30-vm-11");
        BadInput e = assertThrows(BadInput.class, () -> Results.compare(a, b));
        assertTrue(e.getMessage().contains("kernel-bitmap folders cannot be compared yet"), e.getMessage());
    }

    @Test
    void twoRowsWithOneIdentityAreRefused() throws Exception {
        Path copy = copy(VM13, "twice");
        ObjectNode top = (ObjectNode) JSON.readTree(copy.resolve("summary.json").toFile());
        ((ArrayNode) top.get("rows")).add(top.get("rows").get(0).deepCopy());
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        BadInput e = assertThrows(BadInput.class, () -> Results.compare(copy, VM13));
        assertTrue(e.getMessage().contains("[0] and [53]: the same row twice"), e.getMessage());
    }

    @Test
    void aFolderThatIsASymbolicLinkIsRefused() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), copy(VM13, "real"));
        Err e = lab("compare", VM8.toString(), link.toString());
        assertEquals(2, e.status, e.err);
        assertTrue(e.err.contains(link + ": not a results folder: is a symbolic link"), e.err);
    }

    @Test
    void aPlantedSummaryLinkIsRefusedNotFollowed() throws Exception {
        Path copy = copy(VM13, "planted");
        Files.delete(copy.resolve("summary.json"));
        // points at a real, valid summary: following it would "work", which is the point
        Files.createSymbolicLink(
                copy.resolve("summary.json"), VM13.resolve("summary.json").toAbsolutePath());
        Err e = lab("compare", VM13.toString(), copy.toString());
        assertEquals(2, e.status, e.err);
        assertTrue(e.err.contains(copy.resolve("summary.json") + ": is a symbolic link; not followed"), e.err);
        Path envCopy = copy(VM13, "planted-env");
        Files.delete(envCopy.resolve("environment.json"));
        Files.createSymbolicLink(envCopy.resolve("environment.json"), Path.of("/proc/self/environ"));
        BadInput env = assertThrows(BadInput.class, () -> Results.compare(VM13, envCopy));
        assertTrue(env.getMessage().contains("environment.json: is a symbolic link"), env.getMessage());
    }

    @Test
    void aFifoAtSummaryIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path copy = copy(VM13, "fifo");
        Files.delete(copy.resolve("summary.json"));
        Process p = new ProcessBuilder("mkfifo", copy.resolve("summary.json").toString()).start();
        assertEquals(0, p.waitFor());
        BadInput e = assertTimeoutPreemptively(
                Duration.ofSeconds(20), () -> assertThrows(BadInput.class, () -> Results.compare(VM13, copy)));
        assertTrue(e.getMessage().contains("summary.json: not a regular file"), e.getMessage());
    }

    @Test
    void theCommandPrintsTheTableAndWritesThePlot() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Path png = tmp.resolve("compare.png");
        int status = new CompareCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .run(List.of(VM13.toString(), VM8.toString(), "-o", png.toString()));
        assertEquals(0, status);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("floor-cost: 2 folders, 53 rows"), out);
        assertTrue(
                out.contains("| 2026-11-30-vm-13 | vm | 6.18.44-fc-v657 | AMD EPYC | tsc | off (not affected) | 0 |"),
                out);
        assertTrue(
                out.contains("| 1 | static floor, abcdf · getppid | 2026-11-30-vm-13 | 160 | 30 | 20 | 1.50 | ok | 7/7 "
                        + "runs |"),
                out);
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, head);
        java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(png.toFile());
        assertTrue(img.getWidth() >= 1000 && img.getHeight() >= 800);

        Path outDir = tmp.resolve("cmp");
        assertEquals(
                0,
                new CompareCommand(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                        .run(List.of(VM13.toString(), VM5.toString(), "--out", outDir.toString())));
        assertTrue(Files.size(outDir.resolve("added-by-row.png")) > 1000);
        assertTrue(Files.readString(outDir.resolve("compare.md")).startsWith("floor-cost: 2 folders"));
        List<String> csv = Files.readAllLines(outDir.resolve("compare.csv"));
        assertEquals(1 + 53 * 2, csv.size());
        assertTrue(
                csv.get(0)
                        .startsWith(
                                "n,label,folder,host,kernel,cpu,clocksource,pti,process_seccomp_filters,in_container,"),
                csv.get(0));
    }

    @Test
    void aPlotNameThatIsALinkIsRefused() throws Exception {
        Path target = Files.writeString(tmp.resolve("victim"), "keep");
        Path link = Files.createSymbolicLink(tmp.resolve("plot.png"), target);
        Err e = lab("compare", VM13.toString(), VM8.toString(), "-o", link.toString());
        assertEquals(2, e.status, e.err);
        assertTrue(e.err.contains("-o " + link + ": cannot write: is a symbolic link"), e.err);
        assertEquals("keep", Files.readString(target));
    }

    @Test
    void textFromAFolderCannotDriveTheTerminalOrBreakTheTable() throws Exception {
        Path copy = copy(VM13, "escapes");
        ObjectNode top = (ObjectNode) JSON.readTree(copy.resolve("summary.json").toFile());
        ((ObjectNode) top.get("rows").get(0)).put("what", "evil\u001b[2J\nnext | line");
        Files.writeString(copy.resolve("summary.json"), JSON.writeValueAsString(top));
        String text = Results.compare(copy, VM8).text();
        assertFalse(text.contains("\u001b"), "no raw escape");
        assertTrue(text.contains("evil\\u001b[2J\\u000anext \\| line · getppid"), text.substring(0, 2000));
        // every table line is still one line
        assertTrue(text.lines().filter(l -> l.startsWith("| ")).allMatch(l -> l.endsWith(" |")));
    }

    @Test
    void theSameFolderTwiceIsComparedWithItselfUnderTwoNames() {
        Compare c = Results.compare(VM13, VM13.resolve("."));
        assertEquals(List.of("2026-11-30-vm-13", "2026-11-30-vm-13 (2)"), c.folderNames());
        assertEquals(53, c.byFolder("median").rowCount());
    }

    @Test
    void loadedFoldersCompareAsFoldersReadForThePurpose() {
        Table loaded = Results.compare(Results.load(VM13), Results.load(VM8)).table();
        Table read = Results.compare(VM13, VM8).table();
        assertEquals(read.rowCount(), loaded.rowCount());
        assertEquals(
                read.doubleColumn("added").asList(),
                loaded.doubleColumn("added").asList());
        assertEquals(
                read.stringColumn("label").asList(),
                loaded.stringColumn("label").asList());
    }

    @Test
    void committedHostLoadFoldersLineUpByLoadAsWell() {
        Compare c = Results.compare(
                Fixtures.resultsRoot().resolve("2026-11-30-vm-9"),
                Fixtures.resultsRoot().resolve("2026-11-30-vm-7"));
        Table t = c.table();
        assertEquals("host-load", c.reproduction());
        assertEquals(18, c.rowLabels().size(), "idle and loaded twins stay apart: the load is part of the identity");
        assertEquals("idle · static floor, abcdf · getppid", c.rowLabels().get(0));
        assertEquals("loaded · static floor, abcdf · getppid", c.rowLabels().get(9));
        assertEquals(30.0, t.doubleColumn("added").getDouble(0)); // vm-9's added_ns
        assertEquals(10.0, t.doubleColumn("added").getDouble(1)); // vm-7's
        assertEquals(31.0, t.doubleColumn("added").getDouble(18));
        assertEquals(20.0, t.doubleColumn("added").getDouble(19));
        assertEquals(1.5, t.doubleColumn("ratio_to_published").getDouble(0), 1e-12);
    }

    @Test
    void committedGraphLookupFoldersLineUpByGraphTraceAndLayout() {
        Compare c = Results.compare(Fixtures.resultsRoot().resolve("2026-11-30-vm"), GRAPH);
        Table t = c.table();
        assertEquals("ns/event", c.unit());
        assertTrue(t.columnNames().containsAll(List.of("graph", "trace", "layout")));
        // abcdf / walk main / hash: row 0 of both; its median is each folder's ns_per_event_median
        assertEquals("abcdf · walk main · hash", c.rowLabels().get(0));
        assertEquals(18.333, t.doubleColumn("median").getDouble(0));
        assertEquals(10.329, t.doubleColumn("median").getDouble(1));
    }

    private record Err(int status, String err) {}

    private static Err lab(String... argv) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            int status = Main.run(
                    List.of(argv),
                    new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Err(status, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
    }

    private Path copy(Path dir, String name) throws Exception {
        Path into = Files.createDirectory(tmp.resolve(name));
        for (String f : List.of("summary.json", "environment.json")) {
            Files.copy(dir.resolve(f), into.resolve(f));
        }
        return into;
    }

    private static List<JsonNode> rows(Path dir) throws Exception {
        JsonNode top = JSON.readTree(dir.resolve("summary.json").toFile());
        JsonNode rows = top.isObject() ? top.get("rows") : top;
        List<JsonNode> out = new ArrayList<>();
        rows.forEach(out::add);
        return out;
    }

    private static String text(JsonNode row, String field) {
        JsonNode v = row.get(field);
        return v == null || v.isNull() ? "" : v.asText(); // Tablesaw's missing text is ""
    }
}
