package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Main;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ExploreCheckCommandTest {
    private static int lab(List<String> args, ByteArrayOutputStream err) {
        return Main.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
    }

    @Test
    void writesBothMediansAndTheirRatio(@TempDir Path dir) throws Exception {
        Requires.seccomp("kill_process", "allow");
        Path out = dir.resolve("check");
        int status = lab(
                List.of(
                        "explore",
                        "check",
                        "--rounds",
                        "2",
                        "--runs",
                        "2",
                        "--calls",
                        "20000",
                        "--out",
                        out.toString()),
                new ByteArrayOutputStream());
        assertTrue(status == 0 || status == 1, "0 within 5%, 1 outside: " + status);
        @SuppressWarnings("unchecked")
        Map<String, Object> summary =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("explore-check", summary.get("reproduction"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) summary.get("rows");
        assertEquals(2, rows.size());
        assertEquals(4, rows.get(0).get("runs_completed"));
        assertEquals(4, rows.get(1).get("runs_completed"));
        double ratio = ((Number) rows.get(1).get("vs_floor_cost")).doubleValue();
        double expected = ((Number) rows.get(1).get("median_ns")).doubleValue()
                / ((Number) rows.get(0).get("median_ns")).doubleValue();
        assertEquals(expected, ratio, 1e-4);
        assertEquals(status == 0, rows.get(1).get("within_tolerance"));
        for (String f : List.of("samples.arrow", "environment.json", "table.md")) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        // each row's median and p99 within their intervals over the runs; floor-cost's added cost within its
        for (Map<String, Object> row : rows) {
            for (String figure : List.of("median", "p99")) {
                assertWithin(row, figure + "_ns", figure + "_ci_low_ns", figure + "_ci_high_ns");
                assertEquals(4, row.get(figure + "_ci_runs"), row.toString());
            }
        }
        assertWithin(rows.get(0), "added_ns", "added_ci_low_ns", "added_ci_high_ns");
        assertFalse(rows.get(1).containsKey("added_ci_low_ns"), "the fluent row measures no added cost");
        assertWithin(rows.get(1), "vs_floor_cost", "vs_floor_cost_ci_low", "vs_floor_cost_ci_high");
        assertEquals(4, rows.get(1).get("vs_floor_cost_ci_runs"));
        assertFalse(rows.get(0).containsKey("vs_floor_cost_ci_low"), "the ratio is the fluent row's");
        // environment.json as every reproduction's: its name, no stop, the host, then its own settings
        @SuppressWarnings("unchecked")
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals("explore-check", env.get("reproduction"));
        assertEquals(false, env.get("interrupted"));
        assertTrue(env.containsKey("kernel_release") && env.containsKey("started"), env.toString());
        assertEquals(
                Map.of("rounds", 2, "runs", 2, "warmup", 20000, "calls", 20000, "cpu", env.get("cpu")),
                env.get("options"));
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.startsWith("# explore check"), "not quick: no quick line\n" + table);
        assertTrue(table.contains("| median [95% CI] |") && table.contains("Hodges–Lehmann"), table);
    }

    private static void assertWithin(Map<String, Object> row, String figure, String low, String high) {
        double x = ((Number) row.get(figure)).doubleValue();
        double lo = ((Number) row.get(low)).doubleValue();
        double hi = ((Number) row.get(high)).doubleValue();
        assertTrue(lo <= x && x <= hi, figure + " in [" + low + ", " + high + "]: " + row);
    }

    @Test
    void aQuickRunsTableStartsWithTheQuickLine(@TempDir Path dir) throws Exception {
        Requires.seccomp("kill_process", "allow");
        Path out = dir.resolve("quick");
        int status = lab(
                List.of(
                        "explore",
                        "check",
                        "--quick",
                        "--rounds",
                        "1",
                        "--runs",
                        "2",
                        "--calls",
                        "5000",
                        "--out",
                        out.toString()),
                new ByteArrayOutputStream());
        assertTrue(status == 0 || status == 1, "0 within 5%, 1 outside: " + status);
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.startsWith(ResultsFolder.QUICK_LINE + "\n\n# explore check"), table);
    }

    @Test
    void aCpuNotAllowedIsBadInputAndWritesNothing(@TempDir Path dir) {
        Path out = dir.resolve("check");
        int notAllowed = Cpus.allowed().get(Cpus.allowed().size() - 1) + 1;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(
                2, lab(List.of("explore", "check", "--cpu", String.valueOf(notAllowed), "--out", out.toString()), err));
        assertTrue(err.toString().contains("--cpu"), err.toString());
        assertTrue(Files.notExists(out));
    }
}
