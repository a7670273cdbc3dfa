package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.testing.JupyterPython;
import heimdall.lab.testing.Requires;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
        Path out = tmp.resolve("stopped");
        List<Object> argv = jshell(Path.of(System.getProperty("java.home")));
        List<Map<String, Object>> steps = List.of(
                Map.of("prompts", 1),
                Map.of("send", "long spins = 0; while (true) { spins++; }"),
                Map.of("ctrl_c_after", "spins ==> 0", "delay", 2),
                Map.of("prompts", 2),
                Map.of("send", "\"alive \" + (1 + 1)"),
                Map.of("prompts", 3),
                Map.of(
                        "send",
                        "heimdall.lab.reproduce.floorcost.FloorCost.run("
                                + "new heimdall.lab.reproduce.floorcost.FloorCost.Options("
                                + "heimdall.lab.bench.FloorBench.Counts.published(), "
                                + "heimdall.lab.sys.Cpus.measuring(), "
                                + "heimdall.lab.sys.Cpus.supervisor(), true), "
                                + "heimdall.lab.bench.ResultsFolder.chosen(java.nio.file.Path.of(\""
                                + out + "\")), System.out::println)"),
                Map.of("ctrl_c_after", "[8/"),
                Map.of("prompts", 4),
                Map.of(
                        "send",
                        "\"runners: \" + ProcessHandle.current().descendants()"
                                + ".filter(p -> p.info().command().map(c -> "
                                + "c.endsWith(\"heimdall-runner\")).orElse(false)).count()"),
                Map.of("prompts", 5));
        String printed = drive(tmp, argv, steps, 400);
        assertTrue(
                printed.contains("\"alive 2\""), "jshell answers after the spinning snippet was stopped:\n" + printed);
        assertTrue(
                printed.contains("floor-cost: interrupted (notebook/jshell interrupt); writing what was measured"),
                printed);
        assertTrue(printed.contains("\"runners: 0\""), "no heimdall-runner outlives the stop:\n" + printed);
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertNull(top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertTrue(rows.stream().anyMatch(row -> (Integer) row.get("runs_completed") > 0), rows.toString());
    }

    /**
     * {@code var m = Lab.measure(...).run()} and Ctrl-C at 20 random moments (before the measurement
     * opens, during a run, between runs, after it returned): each time, either {@code m} holds a value
     * that jshell showed ({@code m ==> ...}, marked interrupted when runs are missing) or jshell printed
     * {@link heimdall.lab.bench.Interruption.Stopped} with its reason; never a silent {@code null}. On
     * the JDK running the tests and, where one is installed, on JDK 21 ({@code LAB_JDK21}).
     */
    @ParameterizedTest(name = "jshell of {0}")
    @MethodSource("jdks")
    @Timeout(value = 900, unit = TimeUnit.SECONDS)
    void ctrlCAtRandomMomentsOfAMeasurementNeverLeavesASilentNull(Path jdk, @TempDir Path tmp) throws Exception {
        Requires.seccomp("kill_process", "errno", "allow");
        long seed = Long.getLong("lab.interrupt.seed", System.nanoTime());
        Random random = new Random(seed);
        List<Map<String, Object>> steps = new ArrayList<>();
        steps.add(Map.of("prompts", 1));
        steps.add(Map.of("send", "var p = heimdall.lab.explore.Lab.fixtureFloor(\"abcdf\")"));
        steps.add(Map.of("wait_for", PROMPT));
        int moments = 20;
        List<Double> delays = new ArrayList<>();
        for (int i = 0; i < moments; i++) {
            // 0 to 3 s, against a measurement of about 3-4 s on a quiet machine (3 runs of 6 million calls
            // each way, ~100-170 ns a call) and longer on a busy one: the moments fall before the measurement
            // opens, before the first run ends, between runs and (a few) after the value returned. With
            // 2 million calls a quiet machine finished every measurement before its moment.
            double delay = Math.round(random.nextDouble() * 3000) / 1000.0;
            delays.add(delay);
            // a fresh variable each time: a failed redeclaration of one would leave the last value
            steps.add(Map.of(
                    "send",
                    "var m" + i + " = heimdall.lab.explore.Lab.measure(\"getppid\").under(p).runs(3)"
                            + ".calls(6_000_000).run()"));
            steps.add(Map.of("ctrl_c_after", "", "delay", delay)); // jline echoes the line with escapes between
            steps.add(Map.of("wait_for", PROMPT));
            steps.add(Map.of(
                    "send",
                    "System.out.println(\"CH\" + \"ECK \" + (m" + i + " == null ? \"null\"" + " : m" + i
                            + ".interrupted() + \" \" + m" + i + ".runs().size()))"));
            steps.add(Map.of("wait_for", "CHECK "));
            steps.add(Map.of("wait_for", PROMPT));
        }
        String printed = drive(tmp, jshell(jdk), steps, 840);
        String why = "seed " + seed + " (-Dlab.interrupt.seed), delays " + delays + ":\n" + printed;
        Matcher check = Pattern.compile("CHECK (null|true \\d+|false \\d+)").matcher(printed);
        int from = printed.indexOf("p ==> ");
        int seen = 0;
        int stopped = 0;
        while (check.find()) {
            String segment = printed.substring(from, check.start());
            String got = check.group(1);
            if (got.equals("null")) {
                assertTrue(
                        segment.contains("heimdall.lab.bench.Interruption$Stopped"),
                        "moment " + seen + ": m is null and jshell said nothing about a stop; " + why);
                stopped++;
            } else {
                assertTrue(
                        Pattern.compile("m" + seen + " ==> \\S")
                                .matcher(segment)
                                .find(),
                        "moment " + seen + ": m holds a value jshell did not show; " + why);
                if (got.startsWith("true")) {
                    assertTrue(segment.contains("interrupted"), "moment " + seen + ": not marked; " + why);
                    stopped++;
                } else {
                    assertEquals("false 3", got, why);
                }
            }
            from = check.end();
            seen++;
        }
        System.out.println("JShellInterruptTest: JDK " + jdk + ": " + moments + " moments, " + stopped
                + " stopped the measurement (seed " + seed + ")");
        assertEquals(moments, seen, "every moment answered; " + why);
        assertTrue(stopped > 0, "no moment stopped the measurement, the test tested nothing; " + why);
    }

    /**
     * jshell's Tab-Tab after {@code Lab.measure(} shows the library's Javadoc (LibrarySources, given the
     * sources folder as {@code ./lab jshell} gives it), not "no documentation found".
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void tabTabShowsTheLibrarysJavadoc(@TempDir Path tmp) throws Exception {
        List<Object> argv = jshell(Path.of(System.getProperty("java.home")));
        List<Map<String, Object>> steps = List.of(
                Map.of("prompts", 1),
                Map.of("type", "heimdall.lab.explore.Lab.measure(\t"),
                Map.of("wait_for", "press tab again"),
                Map.of("type", "\t"),
                Map.of("wait_for", "Measures a call by name"),
                Map.of("ctrl_c_after", ""));
        String printed = drive(tmp, argv, steps, 240);
        assertTrue(printed.contains("Measures a call by name"), printed);
    }

    /** jshell's bracketed-paste switch, written once per prompt. */
    private static final String PROMPT = "\u001b[?2004h";

    /** The JDK running the tests, and JDK 21 where one is installed (said loudly when not). */
    static List<Path> jdks() {
        List<Path> out = new ArrayList<>();
        out.add(Path.of(System.getProperty("java.home")));
        String configured = System.getenv("LAB_JDK21");
        Path jdk21 = Path.of(
                configured != null && !configured.isBlank() ? configured : "/usr/lib/jvm/java-21-openjdk-amd64");
        if (Files.isExecutable(jdk21.resolve("bin/jshell"))) {
            out.add(jdk21);
        } else {
            System.err.println(
                    "JShellInterruptTest: NOTE: no JDK 21 at " + jdk21 + " (LAB_JDK21; Debian 12 packages none and"
                            + " trixie's openjdk-21 needs glibc 2.38): Ctrl-C in jshell was checked on JDK "
                            + Runtime.version().feature() + " only in this pass");
        }
        return out;
    }

    /**
     * jshell of {@code jdk} as {@code ./lab jshell} starts it (the lab script's {@code jshell)} branch): lib's
     * classes and runtime class path for the snippets, the kernel's classes beside them in jshell's JVM
     * ({@code --execution heimdall}), lib's sources for Javadoc, lab.jsh at start-up. Not the test class path:
     * it holds lib's sources jar (a kernel dependency, which the kernel keeps off JShell's class path too), and
     * javac takes a class's source from the class path instead of its class when the source is newer
     * ({@code -Xprefer:newer}, its default): JShell then compiled the library on each Tab (a minute and more,
     * and Tab-Tab listed completions instead of the Javadoc), which no user's jshell does.
     */
    private static List<Object> jshell(Path jdk) throws IOException {
        Path lib = Path.of("../lib").toAbsolutePath().normalize();
        Path runtime = lib.resolve("target/runtime-classpath.txt");
        assertTrue(Files.isRegularFile(runtime), "lib is built (mvn -pl kernel -am ...): no " + runtime);
        List<String> cp = new ArrayList<>();
        cp.add(lib.resolve("target/classes").toString());
        for (String e : Files.readString(runtime).trim().split(File.pathSeparator)) {
            if (!e.isBlank()) {
                cp.add(e);
            }
        }
        String libPath = String.join(File.pathSeparator, cp);
        List<Object> argv = new ArrayList<>(List.of(
                jdk.resolve("bin/jshell").toString(),
                "--class-path",
                libPath,
                "-J--class-path",
                "-J" + Path.of("target/classes").toAbsolutePath() + File.pathSeparator + libPath));
        for (String o : List.of(
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.unsupported",
                "-Djava.awt.headless=true",
                LibrarySources.JSHELL_OPENS,
                "-D" + LibrarySources.PROPERTY + "=" + lib.resolve("src/main/java"))) {
            argv.add("-J" + o);
        }
        argv.addAll(List.of(
                "--execution",
                JShellExecution.NAME,
                "--startup",
                "DEFAULT",
                "--startup",
                lib.resolveSibling("jshell-startup/lab.jsh").toString()));
        return argv;
    }

    /** Runs drive_jshell.py over {@code steps}; what jshell printed. */
    private static String drive(Path tmp, List<Object> argv, List<Map<String, Object>> steps, int seconds)
            throws Exception {
        Path spec = tmp.resolve("spec.json");
        new ObjectMapper().writeValue(spec.toFile(), Map.of("argv", argv, "steps", steps));
        Path driver = tmp.resolve("drive_jshell.py");
        try (InputStream in = JShellInterruptTest.class.getResourceAsStream("drive_jshell.py")) {
            Files.copy(in, driver);
        }
        return KernelProtocolTest.run(
                        new ProcessBuilder(JupyterPython.require().toString(), driver.toString(), spec.toString()),
                        seconds)
                .out();
    }
}
