package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Main;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C and SIGTERM sent to a real {@code lab reproduce floor-cost} process (its own JVM, as
 * {@code ./lab} starts it): early (nothing measured yet) and late (some runs done). What is checked:
 * the exit status, the message naming the signal as it was, the folder (absent, the user's own left
 * empty and reusable, or a summary marked interrupted at the top and per row), and that no measured
 * child outlives the process.
 */
class InterruptedRunTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void needsSeccompNotify() {
        // A kernel fact (/proc/sys/kernel/seccomp/actions_avail): floor-cost's rows install filters.
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
    }

    /** A {@code lab} JVM with the test's class path; the shell's own signal dispositions reset to default. */
    static final class Lab implements AutoCloseable {
        final Process process;
        final List<String> err = Collections.synchronizedList(new ArrayList<>());
        final List<String> out = Collections.synchronizedList(new ArrayList<>());
        final Set<Long> runners = Collections.synchronizedSet(new HashSet<>());

        Lab(String... argv) throws IOException {
            this(List.of(), argv);
        }

        /** With {@code NAME=value} environment entries (e.g. GRAPH_BENCH_SAMPLES) for the JVM. */
        Lab(List<String> environment, String... argv) throws IOException {
            List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
            cmd.addAll(environment);
            cmd.addAll(LabJvm.lab().command(argv));
            process = new ProcessBuilder(cmd).start();
            drain(process.getInputStream(), out);
            drain(process.getErrorStream(), err);
        }

        private static void drain(InputStream in, List<String> into) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        into.add(line);
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
            t.setDaemon(true);
            t.start();
        }

        /** Waits for a stderr line, noting the process's runner children meanwhile. */
        void awaitErr(Predicate<String> line, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < deadline) {
                noteRunners();
                synchronized (err) {
                    if (err.stream().anyMatch(line)) {
                        return;
                    }
                }
                if (!process.isAlive()) {
                    break;
                }
                Thread.sleep(5);
            }
            throw new AssertionError("no such line on stderr; got " + err);
        }

        void noteRunners() {
            process.toHandle()
                    .descendants()
                    .filter(p -> p.info()
                            .command()
                            .map(c -> c.endsWith("heimdall-runner"))
                            .orElse(false))
                    .forEach(p -> runners.add(p.pid()));
        }

        void signal(String name) throws Exception {
            noteRunners();
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                            .start()
                            .waitFor());
        }

        int exit() throws InterruptedException {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the process ends after the signal; stderr " + err);
            Thread.sleep(100); // the drain threads read to the end
            return process.exitValue();
        }

        /** No runner this process started is alive (pids are not reused within a test's seconds). */
        void assertNoRunnerLeft() {
            for (long pid : runners) {
                boolean alive = ProcessHandle.of(pid)
                        .map(p -> p.isAlive()
                                && p.info()
                                        .command()
                                        .map(c -> c.endsWith("heimdall-runner"))
                                        .orElse(false))
                        .orElse(false);
                assertFalse(alive, "heimdall-runner " + pid + " outlived the interrupted run");
            }
        }

        String errText() {
            synchronized (err) {
                return String.join("\n", err);
            }
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    static boolean empty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /**
     * Ctrl-C before any run completed, into a folder the user made: nothing is written, the folder is
     * left empty (not removed), and the next run may use it as --out.
     */
    @Test
    void earlyCtrlCLeavesTheUsersFolderEmptyAndReusable() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("mine"));
        // 50 million calls a run: the first run takes seconds, so the signal lands before it ends.
        try (Lab lab = new Lab(
                "reproduce",
                "floor-cost",
                "--no-broker",
                "--runs",
                "1",
                "--calls",
                "50000000",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("floor-cost: 9 rows"), 60);
            lab.signal("INT");
            assertEquals(130, lab.exit(), lab.errText());
            String err = lab.errText();
            assertTrue(err.contains("interrupted (Ctrl-C) before anything was measured"), err);
            assertTrue(err.contains(out + " left empty"), err);
            assertTrue(Files.isDirectory(out), "the user's folder is never deleted");
            assertTrue(empty(out), "nothing written into it");
            assertTrue(lab.out.isEmpty(), "no results folder printed: " + lab.out);
            lab.assertNoRunnerLeft();
        }
        // The same folder is accepted again, and a whole (tiny) run fills it.
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int status = Main.run(
                List.of(
                        "reproduce",
                        "floor-cost",
                        "--no-broker",
                        "--runs",
                        "1",
                        "--calls",
                        "2000",
                        "--out",
                        out.toString()),
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        assertEquals(0, status);
        Results r = Results.load(out);
        assertFalse(r.interrupted());
        assertEquals(9, r.floorCost().size());
    }

    /** SIGTERM before anything was measured into a folder of our own making: no folder is left. */
    @Test
    void earlySigtermLeavesNoFolderAndSaysSigterm() throws Exception {
        Path out = tmp.resolve("not-yet");
        try (Lab lab = new Lab(
                "reproduce",
                "floor-cost",
                "--no-broker",
                "--runs",
                "1",
                "--calls",
                "50000000",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("floor-cost: 9 rows"), 60);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            String err = lab.errText();
            assertTrue(err.contains("terminated (SIGTERM) before anything was measured; no results folder left"), err);
            assertFalse(err.contains("Ctrl-C"), "SIGTERM is not announced as Ctrl-C: " + err);
            assertFalse(Files.exists(out), "the folder this run made is gone");
            lab.assertNoRunnerLeft();
        }
    }

    /**
     * SIGTERM after some runs: the folder holds what was measured, summary.json says so at the top and
     * per row, a row with no completed run is not "ok" and has no figures, and the folder's path is
     * still the last line printed.
     */
    @Test
    @SuppressWarnings("unchecked")
    void lateSigtermWritesAnInterruptedSummary() throws Exception {
        Path out = tmp.resolve("late");
        try (Lab lab = new Lab("reproduce", "floor-cost", "--quick", "--out", out.toString())) {
            lab.awaitErr(l -> l.startsWith("[12/"), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            String err = lab.errText();
            assertTrue(err.contains("floor-cost: terminated (SIGTERM); writing what was measured"), err);
            assertFalse(err.contains("Ctrl-C"), err);
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), "the folder is the last line: " + lab.out);
            assertTrue(
                    lab.out.stream().anyMatch(l -> l.startsWith("Terminated (SIGTERM): what was measured")),
                    lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("terminated (SIGTERM)", top.get("interruption"));
        assertEquals("SIGTERM", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertEquals(
                FloorCost.rows(new FloorCost.Options(heimdall.lab.bench.FloorBench.Counts.quick(), 0, 0, true))
                        .size(),
                rows.size());
        int measured = 0;
        int none = 0;
        for (Map<String, Object> r : rows) {
            int done = (Integer) r.get("runs_completed");
            int asked = (Integer) r.get("runs_asked");
            // floor-cost's paired rounds: three times the runs (rows not reached say so with none completed)
            boolean paired = r.get("what").toString().startsWith(heimdall.lab.results.FloorCostRow.PAIRED);
            assertEquals(paired ? 9 : 3, asked, r.get("what").toString());
            if (done < asked || (Integer) r.get("runs_none_completed") < asked) {
                assertEquals("interrupted", r.get("status"), r.toString());
                assertEquals(Boolean.TRUE, r.get("interrupted"));
            }
            if (done == 0) {
                none++;
                assertNull(r.get("median_ns"), "a row with no run has no figures");
                assertNotNull(r.get("run_medians_ns"));
            } else {
                measured++;
            }
        }
        assertTrue(measured > 0 && none > 0, measured + " rows with runs, " + none + " without");
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        Results r = Results.load(out);
        assertTrue(r.interrupted());
        assertEquals("terminated (SIGTERM)", r.interruption());
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
    }

    /** Ctrl-C late: named as Ctrl-C, exit 130, summary marked with SIGINT. */
    @Test
    @SuppressWarnings("unchecked")
    void lateCtrlCIsNamedCtrlC() throws Exception {
        Path out = tmp.resolve("late-int");
        try (Lab lab = new Lab("reproduce", "floor-cost", "--quick", "--no-broker", "--out", out.toString())) {
            lab.awaitErr(l -> l.startsWith("[3/"), 120);
            lab.signal("INT");
            assertEquals(130, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains("floor-cost: interrupted (Ctrl-C); writing what was measured"),
                    lab.errText());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("interrupted (Ctrl-C)", top.get("interruption"));
        assertEquals("SIGINT", top.get("signal"));
        assertTrue(((List<Map<String, Object>>) top.get("rows")).stream().anyMatch(r -> !"ok".equals(r.get("status"))));
    }

    /** A folder made by ResultsFolder and left empty goes; one the user made stays. */
    @Test
    void discardIfEmptyNeverRemovesTheUsersFolder() throws Exception {
        Path mine = Files.createDirectory(tmp.resolve("users"));
        assertFalse(ResultsFolder.chosen(mine).discardIfEmpty());
        assertTrue(Files.isDirectory(mine));
        ResultsFolder ours = ResultsFolder.chosen(tmp.resolve("ours"));
        assertTrue(ours.discardIfEmpty());
        assertFalse(Files.exists(tmp.resolve("ours")));
        ResultsFolder partial = ResultsFolder.chosen(tmp.resolve("partial"));
        partial.writeText("table.md", "x");
        assertTrue(partial.discardIfEmpty(), "an unpublished (part-written) folder goes whole");
        assertFalse(Files.exists(tmp.resolve("partial")));
        assertFalse(Files.exists(partial.path()));
        ResultsFolder kept = ResultsFolder.chosen(tmp.resolve("written"));
        kept.writeText("table.md", "x");
        kept.publish();
        assertFalse(kept.discardIfEmpty(), "a folder with results stays");
        assertTrue(Files.isRegularFile(tmp.resolve("written/table.md")));
    }
}
