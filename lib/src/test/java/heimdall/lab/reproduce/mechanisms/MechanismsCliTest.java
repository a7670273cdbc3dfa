package heimdall.lab.reproduce.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.cli.Main;
import heimdall.lab.results.MechanismsRow;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of {@code ./lab reproduce mechanisms} through the real command line writes a folder that reads back. */
class MechanismsCliTest {
    @TempDir
    Path tmp;

    @Test
    void aQuickRunThroughTheCliWritesAFolderThatRoundTrips() throws Exception {
        Requires.landlock();
        Requires.seccomp("user_notif", "allow", "kill_process");
        Path out = tmp.resolve("mechanisms");
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int rc = Main.run(
                List.of(
                        "reproduce",
                        "mechanisms",
                        "--quick",
                        "--runs",
                        "1",
                        "--calls",
                        "300",
                        "--broker-calls",
                        "30",
                        "--out",
                        out.toString()),
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        String said = o.toString(StandardCharsets.UTF_8) + e.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, said);
        for (String f : List.of("summary.json", "environment.json", "table.md")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        Results r = Results.load(out);
        assertEquals("mechanisms", r.reproduction());
        List<MechanismsRow> rows = r.rows(MechanismsRow.class);
        Mechanisms.Options opts = new Mechanisms.Options(FloorBench.Counts.quick(), 0, 0);
        assertEquals(Mechanisms.rows(opts, tmp).size(), rows.size());
        // every row read back writes the same JSON it was read from
        JsonNode written = new ObjectMapper()
                .readTree(out.resolve("summary.json").toFile())
                .get("rows");
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(
                    written.get(i).toString(), SummaryJson.tree(rows.get(i)).toString(), "row " + i);
        }
        // Landlock really confined the refused names, and the broker's BROKER answer refused them too
        for (MechanismsRow row : rows) {
            assertEquals("ok", row.status(), row.label() + ": " + row.failure());
            assertNotNull(row.medianNs(), row.label());
            boolean refusing = row.call().equals("openat")
                    && row.policy().equals("refuse")
                    && (row.landlock()
                            || "broker"
                                    .equals(
                                            row.measured().brokering().answer() == null
                                                    ? null
                                                    : row.measured()
                                                            .brokering()
                                                            .answer()
                                                            .label()));
            if (refusing) {
                assertTrue(!row.result().equals("ok"), row.label() + " opened a refused name");
            }
            if (row.policy().equals("admit")) {
                assertEquals("ok", row.result(), row.label());
            }
        }
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.contains("## What each decides: a grid of names"), table);
        assertTrue(table.contains("| landlock |"), table);
        JsonNode env =
                new ObjectMapper().readTree(out.resolve("environment.json").toFile());
        assertTrue(env.get("landlock_abi").asInt() >= 1, env.toString());
        assertTrue(env.get("grid").size() >= 10, env.toString());
    }
}
