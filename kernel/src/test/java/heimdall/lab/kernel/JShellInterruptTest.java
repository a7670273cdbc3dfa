package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.testing.JupyterPython;
import heimdall.lab.testing.Requires;
import java.io.File;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in the jshell tool as {@code ./lab jshell} starts it ({@code --execution heimdall}: snippets in
 * jshell's own JVM), typed on a pseudo-terminal: a spinning snippet is stopped and jshell goes on; a
 * floor-cost measurement at the published counts is stopped cooperatively (summary.json marked
 * interrupted, no runner left). Runs on whichever JDK runs the tests (17, and 25 in CI's second pass).
 */
class JShellInterruptTest {
    @Test
    @SuppressWarnings("unchecked")
    void ctrlCStopsASpinningSnippetAndAMeasurementAndJshellGoesOn(@TempDir Path tmp) throws Exception {
        // A kernel fact (/proc/sys/kernel/seccomp/actions_avail): floor-cost's rows install filters.
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
        String cp = KernelProtocolTest.testClasspath().stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        Path out = tmp.resolve("stopped");
        List<Object> argv = List.of(Path.of(System.getProperty("java.home"), "bin", "jshell").toString(),
                "--class-path", cp, "-J--class-path", "-J" + cp, "-J--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-J--add-modules=jdk.unsupported", "-J-Djava.awt.headless=true", "--execution", JShellExecution.NAME);
        List<Map<String, Object>> steps = List.of(
                Map.of("prompts", 1),
                Map.of("send", "long spins = 0; while (true) { spins++; }"),
                Map.of("ctrl_c_after", "spins ==> 0", "delay", 2),
                Map.of("prompts", 2),
                Map.of("send", "\"alive \" + (1 + 1)"),
                Map.of("prompts", 3),
                Map.of("send", "heimdall.lab.reproduce.FloorCost.run(new heimdall.lab.reproduce.FloorCost.Options("
                        + "heimdall.lab.bench.FloorBench.Counts.published(), heimdall.lab.sys.Cpus.measuring(), "
                        + "heimdall.lab.sys.Cpus.supervisor(), true), heimdall.lab.bench.ResultsFolder.chosen(java.nio.file.Path.of(\""
                        + out + "\")), System.out::println)"),
                Map.of("ctrl_c_after", "[8/"),
                Map.of("prompts", 4),
                Map.of("send", "\"runners: \" + ProcessHandle.current().descendants()"
                        + ".filter(p -> p.info().command().map(c -> c.endsWith(\"heimdall-runner\")).orElse(false)).count()"),
                Map.of("prompts", 5));
        Path spec = tmp.resolve("spec.json");
        new ObjectMapper().writeValue(spec.toFile(), Map.of("argv", argv, "steps", steps));
        Path driver = tmp.resolve("drive_jshell.py");
        try (InputStream in = JShellInterruptTest.class.getResourceAsStream("drive_jshell.py")) {
            Files.copy(in, driver);
        }
        KernelProtocolTest.Result r = KernelProtocolTest.run(
                new ProcessBuilder(JupyterPython.require().toString(), driver.toString(), spec.toString()), 400);
        String printed = r.out();
        assertTrue(printed.contains("\"alive 2\""), "jshell answers after the spinning snippet was stopped:\n" + printed);
        assertTrue(printed.contains("floor-cost: interrupted (notebook/jshell interrupt); writing what was measured"), printed);
        assertTrue(printed.contains("\"runners: 0\""), "no heimdall-runner outlives the stop:\n" + printed);
        Map<String, Object> top = new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertNull(top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertTrue(rows.stream().anyMatch(row -> (Integer) row.get("runs_completed") > 0), rows.toString());
    }
}
