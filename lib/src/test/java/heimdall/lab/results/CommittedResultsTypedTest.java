package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.fixtures.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every folder committed under {@code results/} loads typed: its reproduction is the one
 * results/README.md's index says made it, and every row is that reproduction's record with the
 * figures the JSON holds.
 */
class CommittedResultsTypedTest {
    private static final Pattern INDEX =
            Pattern.compile("^\\| `([^`]+)` \\| `\\./lab (?:reproduce ([a-z-]+)|graph (jmh))");

    /** results/README.md's index: folder name to the reproduction that made it. */
    private static Map<String, String> index() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Fixtures.resultsRoot().resolve("README.md"))) {
            Matcher m = INDEX.matcher(line);
            if (m.find()) {
                out.put(m.group(1), m.group(2) != null ? m.group(2) : "graph-jmh");
            }
        }
        return out;
    }

    @Test
    void everyCommittedFolderLoadsTypedAsItsIndexSays() throws IOException {
        Map<String, String> index = index();
        List<String> loaded = new ArrayList<>();
        try (var list = Files.list(Fixtures.resultsRoot())) {
            for (Path dir : list.filter(Files::isDirectory).sorted().toList()) {
                if (dir.getFileName().toString().equals("published")
                        || !Files.isRegularFile(dir.resolve("summary.json"))) {
                    continue; // the seeds' tables, and `./lab bpf stats` outputs: not reproduction folders
                }
                String name = dir.getFileName().toString();
                Summary s = SummaryJson.read(dir);
                String expected = index.get(name);
                assertNotNull(expected, name + " is not in results/README.md's index");
                assertEquals(expected, s.kind().name(), name);
                JsonNode raw =
                        SummaryJson.JSON.readTree(dir.resolve("summary.json").toFile());
                JsonNode rows = raw.isArray() ? raw : raw.get("rows");
                assertEquals(rows.size(), s.rows().size(), name);
                for (int i = 0; i < rows.size(); i++) {
                    ResultRow r = s.rows().get(i);
                    assertTrue(s.kind().rowType().isInstance(r), name + " row " + i);
                    // Nothing read is lost: the record written back holds every field the file has, same values.
                    JsonNode back = SummaryJson.JSON.valueToTree(r);
                    for (var it = rows.get(i).fields(); it.hasNext(); ) {
                        var e = it.next();
                        assertEquals(
                                String.valueOf(e.getValue()),
                                String.valueOf(back.get(e.getKey())),
                                name + " row " + i + " field " + e.getKey());
                    }
                    assertFalse(r.label().isBlank());
                }
                EnvironmentInfo env = SummaryJson.environment(dir);
                assertNotNull(env, name);
                assertFalse(env.kernelRelease().isBlank());
                loaded.add(name);
            }
        }
        assertEquals(
                index.keySet().stream()
                        .filter(n -> Files.isRegularFile(rootOf(n).resolve("summary.json")))
                        .sorted()
                        .toList(),
                loaded.stream().sorted().toList(),
                "every indexed folder with a summary is loaded");
        assertTrue(loaded.size() >= 15, "found " + loaded);
    }

    private static Path rootOf(String name) {
        return Fixtures.resultsRoot().resolve(name);
    }

    /**
     * The reproductions that write their rows as records (lanes, graph jmh, attach-cost) write what the committed
     * folders hold: a committed row read and written again has the same fields, in the same order.
     */
    @Test
    void recordWrittenRowsAreTheCommittedRows() throws IOException {
        int compared = 0;
        for (String name : List.of(
                "2026-11-30-vm-4", "2026-11-30-vm-3", "2026-11-30-vm-15", "2026-11-30-vm-6", "2026-11-30-vm-10")) {
            Path dir = rootOf(name);
            Summary s = SummaryJson.read(dir);
            JsonNode raw = SummaryJson.JSON.readTree(dir.resolve("summary.json").toFile());
            JsonNode rows = raw.isArray() ? raw : raw.get("rows");
            for (int i = 0; i < rows.size(); i++) {
                JsonNode back = SummaryJson.tree(s.rows().get(i));
                List<String> want = new ArrayList<>();
                rows.get(i).fieldNames().forEachRemaining(want::add);
                List<String> got = new ArrayList<>();
                back.fieldNames().forEachRemaining(got::add);
                assertEquals(want, got, name + " row " + i);
                compared++;
            }
        }
        assertTrue(compared > 20);
    }

    @Test
    void typedFiguresAreTheFilesFigures() {
        Summary floor = SummaryJson.read(rootOf("2026-11-30-vm-13"));
        assertEquals(ReproductionKind.of(FloorCostRow.class), floor.kind());
        assertEquals(2, floor.schemaVersion());
        FloorCostRow first = floor.rows(FloorCostRow.class).get(0);
        assertNotNull(first.medianNs());
        assertEquals(first.medianNs() - first.medianNoneNs(), first.addedNs());
        assertTrue(floor.rows(FloorCostRow.class).stream().anyMatch(FloorCostRow::isReference));
        Summary bitmap = SummaryJson.read(rootOf("2026-11-30-vm-11"));
        assertEquals(1, bitmap.schemaVersion());
        assertEquals(5, bitmap.rows(KernelBitmapRow.Configuration.class).size());
        assertEquals(1, bitmap.rows(KernelBitmapRow.Agreement.class).size());
        assertEquals(
                ReproductionKind.of(GraphJmhRow.class),
                SummaryJson.read(rootOf("2026-11-30-vm-3")).kind());
    }
}
