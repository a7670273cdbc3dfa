package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.cli.Main;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
