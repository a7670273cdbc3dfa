package heimdall.lab.reproduce.graphjmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.Refusal;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * graph jmh's folder, written from a JMH result of the shape JMH 1.37 writes (running JMH itself
 * takes minutes and a Maven build): the row keeps JMH's own 99.9% interval of its mean after its
 * other keys, table.md shows it, and a quick run's table starts with the quick line as every
 * reproduction's does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GraphJmhCommandTest {
    @TempDir
    Path tmp;

    /** A JMH result: 2,860 us mean per 2,000,000-event replay, its 99.9% interval [2,837, 2,883]. */
    private static JsonNode result(String confidence, String unit) throws Exception {
        return new ObjectMapper()
                .readTree("{\"jmhVersion\": \"1.37\", \"benchmark\": \"heimdall.lab.jmh.ReplayBenchmark.replay\","
                        + " \"mode\": \"sample\", \"forks\": 1, \"warmupIterations\": 3, \"measurementIterations\": 3,"
                        + " \"primaryMetric\": {\"score\": 2860.0, \"scoreError\": 23.0, \"scoreConfidence\": "
                        + confidence + ", \"scorePercentiles\": {\"50.0\": 2822.0}, \"scoreUnit\": \"" + unit + "\","
                        + " \"rawDataHistogram\": [[[[2822.0, 10], [2900.0, 5]]]]}}");
    }

    private static Path keep(ResultsFolder folder, boolean quick, JsonNode result) throws Exception {
        GraphJmhRow row = GraphJmhCommand.row("main", Layout.DFA_MIN_COMPACT, new double[] {1.45, 1.40, 1.42}, result);
        GraphJmhSettings settings = new GraphJmhSettings(1, quick, 3, 3, "1.37", "sample", 1, 3, 3, 15);
        Instant now = Instant.now();
        return GraphJmhCommand.keep(
                folder, quick, new Recorded<>(List.of(row), settings, Host.capture(), now, now), result);
    }

    @Test
    void aQuickRunsFolderHasJmhsIntervalAndSaysQuick() throws Exception {
        Path dir = keep(ResultsFolder.chosen(tmp.resolve("quick")), true, result("[2837.0, 2883.0]", "us/op"));
        String table = Files.readString(dir.resolve("table.md"));
        assertTrue(table.startsWith(ResultsFolder.QUICK_LINE + "\n\n# graph jmh"), table);
        assertTrue(table.contains("| JMH mean [99.9% CI] |") && table.contains("| [1.419, 1.442] |"), table);
        assertTrue(table.contains("scoreConfidence"), "the method says whose interval it is: " + table);

        JsonNode row = new ObjectMapper()
                .readTree(dir.resolve("summary.json").toFile())
                .get("rows")
                .get(0);
        List<String> keys = new ArrayList<>();
        row.fieldNames().forEachRemaining(keys::add);
        assertEquals(
                List.of("jmh_mean_ci_low_ns_per_event", "jmh_mean_ci_high_ns_per_event", "jmh_mean_ci_level"),
                keys.subList(keys.size() - 3, keys.size()),
                "appended after the keys every folder has");
        assertEquals("agrees_within_15_percent", keys.get(keys.size() - 4));
        double mean = row.get("jmh_mean_ns_per_event").asDouble();
        assertEquals(1.43, mean, 1e-9);
        assertTrue(row.get("jmh_mean_ci_low_ns_per_event").asDouble() < mean
                && mean < row.get("jmh_mean_ci_high_ns_per_event").asDouble());
        assertEquals(0.999, row.get("jmh_mean_ci_level").asDouble());
        assertEquals(1.42, row.get("harness_ns_per_event").asDouble(), "the middle of the three runs");

        GraphJmhRow back = SummaryJson.read(dir).rows(GraphJmhRow.class).get(0);
        assertEquals(0.999, back.jmhMeanCi().level());
        JsonNode env =
                new ObjectMapper().readTree(dir.resolve("environment.json").toFile());
        assertEquals("graph-jmh", env.get("reproduction").asText());
        assertEquals(15, env.get("jmh_invocations_timed").asInt());
        assertTrue(Files.isRegularFile(dir.resolve("jmh.json")));
    }

    @Test
    void aFullRunsTableHasNoQuickLineAndNoIntervalWhenJmhGivesNone() throws Exception {
        Path dir = keep(ResultsFolder.chosen(tmp.resolve("full")), false, result("[\"NaN\", \"NaN\"]", "us/op"));
        String table = Files.readString(dir.resolve("table.md"));
        assertTrue(table.startsWith("# graph jmh"), table);
        JsonNode row = new ObjectMapper()
                .readTree(dir.resolve("summary.json").toFile())
                .get("rows")
                .get(0);
        assertTrue(!row.has("jmh_mean_ci_low_ns_per_event"), row.toString());
        assertNull(SummaryJson.read(dir).rows(GraphJmhRow.class).get(0).jmhMeanCi());
    }

    @Test
    void anotherUnitIsRefused() throws Exception {
        JsonNode ms = result("[2.837, 2.883]", "ms/op");
        Refusal e = assertThrows(
                Refusal.class, () -> GraphJmhCommand.row("main", Layout.DFA_OFFSETS, new double[] {1, 1, 1}, ms));
        assertTrue(e.getMessage().contains("ms/op"), e.getMessage());
    }
}
