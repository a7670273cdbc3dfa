package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphInfoCommandTest {
    static final String NODES =
            GraphFilesTest.nodes(GraphFilesTest.FIXTURES, "abcdf").toString();
    static final String EDGES =
            GraphFilesTest.edges(GraphFilesTest.FIXTURES, "abcdf").toString();

    static String run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = new GraphInfoCommand(new PrintStream(out, true, StandardCharsets.UTF_8)).run(List.of(args));
        assertEquals(0, status);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Exit status and stderr of {@code ./lab graph info ARGS} through the real dispatcher. */
    static Object[] main(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("graph", "info"));
        argv.addAll(List.of(args));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Method run = Main.class.getDeclaredMethod("run", List.class, PrintStream.class, PrintStream.class);
        run.setAccessible(true);
        PrintStream realOut = System.out;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream()));
            int status = (int) run.invoke(null, argv, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Object[] {status, err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setOut(realOut);
        }
    }

    @Test
    void jsonReportsTheAbcdfFigures() throws Exception {
        JsonNode r = new ObjectMapper().readTree(run(NODES, EDGES, "--json"));
        assertEquals("abcdf", r.get("program").asText());
        assertTrue(r.get("pinned").asBoolean());
        assertEquals(7, r.get("sites").asInt());
        assertEquals(8, r.get("states").asInt());
        assertEquals(15, r.get("transitions").asInt());
        assertEquals(8, r.get("minimized_states").asInt());
        assertTrue(r.get("payload_bytes").get("hash").isNull(), "hash memory is unmeasured");
        assertEquals(8 * 111 * 4, r.get("payload_bytes").get("dfa-offsets").asLong());
        assertEquals(8 * 111 * 4, r.get("payload_bytes").get("dfa-min-words").asLong());
        assertTrue(r.get("import_ms").asDouble() >= 0);
        assertEquals(7, r.get("prepare_ms").size());
    }

    @Test
    void textNamesEveryLayout() throws Exception {
        String text = run(NODES, EDGES, "--coalesce");
        for (String l : List.of(
                "hash",
                "dfa-words",
                "dfa-offsets",
                "dfa-compact",
                "dfa-min-words",
                "dfa-min-offsets",
                "dfa-min-compact")) {
            assertTrue(text.contains(l), l);
        }
        assertTrue(text.contains("states       8 (15 transitions)"), text);
        assertTrue(text.contains("7 after coalescing"), text);
    }

    @Test
    void budgetsRefuseWithExit1AndBadFilesExit2(@TempDir Path tmp) throws Exception {
        Object[] r = main(NODES, EDGES, "--max-transitions", "3");
        assertEquals(1, r[0]);
        assertTrue(
                ((String) r[1]).contains("refused: construction budget exceeded: 4 transitions reached (budget 3"),
                (String) r[1]);
        Object[] b = main(NODES, EDGES, "--bytes", "1000");
        assertEquals(1, b[0]);
        assertTrue(((String) b[1]).contains("dfa-words needs 3,552 bytes"), (String) b[1]);
        Object[] missing = main(tmp.resolve("x.exec.nodes.arrow").toString(), EDGES);
        assertEquals(2, missing[0]);
        assertTrue(
                ((String) missing[1]).contains("x.exec.nodes.arrow: cannot read: no such file"), (String) missing[1]);
        Object[] usage = main(NODES);
        assertEquals(2, usage[0]);
    }

    /**
     * A graph whose SHA256SUMS line was deleted: bad input (exit 2) naming the file, its digest and
     * --unpinned; with --unpinned it is read, and the report gives both digests and pinned false.
     */
    @Test
    void anUnpinnedGraphNeedsUnpinnedAndReportsItsDigests(@TempDir Path tmp) throws Exception {
        for (String f : List.of("abcdf.exec.nodes.arrow", "abcdf.exec.edges.arrow")) {
            java.nio.file.Files.copy(GraphFilesTest.FIXTURES.resolve(f), tmp.resolve(f));
        }
        java.nio.file.Files.write(
                tmp.resolve(Pins.FILE_NAME),
                java.nio.file.Files.readAllLines(GraphFilesTest.FIXTURES.resolve(Pins.FILE_NAME)).stream()
                        .filter(l -> l.endsWith("  abcdf.exec.edges.arrow"))
                        .toList());
        String nodes = tmp.resolve("abcdf.exec.nodes.arrow").toString();
        String edges = tmp.resolve("abcdf.exec.edges.arrow").toString();
        String sha = Pins.sha256(Path.of(nodes));
        Object[] refused = main(nodes, edges);
        assertEquals(2, refused[0]);
        String err = (String) refused[1];
        assertTrue(
                err.contains("abcdf.exec.nodes.arrow: sha256: no pin for this file")
                        && err.contains(sha)
                        && err.contains("--unpinned"),
                err);
        JsonNode r = new ObjectMapper().readTree(run(nodes, edges, "--json", "--unpinned"));
        assertEquals(false, r.get("pinned").asBoolean());
        assertEquals(sha, r.get("nodes_sha256").asText());
        assertEquals(Pins.sha256(Path.of(edges)), r.get("edges_sha256").asText());
        assertTrue(run(nodes, edges, "--unpinned").contains("NOT pinned (--unpinned): nodes sha256 " + sha));
    }
}
