package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Interruption;
import heimdall.lab.reproduce.InterruptedRunTest.Lab;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 2: a run that throws part-way (not a signal) stops the measurement the way Ctrl-C
 * does: the children are ended, what was measured is written marked interrupted with the failure
 * named, and the exception still reaches the command line for its message and status. The failures
 * are real ones, with nothing in production code made for the test: the progress stream a run writes
 * to fails (as a closed or full stderr would), or the input file a lanes batch reads is removed.
 */
class FailedRunKeepsWhatWasMeasuredTest {
    private static final Pattern PROGRESS = Pattern.compile("^(?:idle )?\\[(\\d+)/(\\d+)]");

    @TempDir
    Path tmp;

    @BeforeAll
    static void needsSeccomp() {
        // Kernel facts (/proc/sys/kernel/seccomp/actions_avail): the measured children install filters.
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
    }

    /**
     * floor-cost and host-load (measured children; host-load also load threads), each failing in its
     * third round of runs: the exception comes out of the command as it was thrown, after the folder
     * holds every run completed before it, marked interrupted and naming the failure.
     */
    @Test
    void floorCostAndHostLoadFailingMidRunKeepWhatWasMeasured() throws Exception {
        failMidRun("floor-cost", new BadInput("test: the progress stream refused a line"), 2);
        failMidRun("host-load", new IllegalStateException("test: the progress stream broke"), 3);
    }

    @SuppressWarnings("unchecked")
    private void failMidRun(String name, RuntimeException thrown, int status) throws Exception {
        Path out = tmp.resolve(name);
        // Half-way through the last of the quick runs (idle ones for host-load): some rows whole, some not.
        FailingStream err = new FailingStream(
                line -> {
                    Matcher m = PROGRESS.matcher(line);
                    if (!m.find()) {
                        return false;
                    }
                    int done = Integer.parseInt(m.group(1));
                    int total = Integer.parseInt(m.group(2));
                    return done == total * 2 / 3 + total / 6;
                },
                thrown);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RuntimeException e = assertThrows(
                RuntimeException.class,
                () -> ReproduceCommand.run(
                        List.of(name, "--quick", "--out", out.toString()),
                        new PrintStream(printed, true, StandardCharsets.UTF_8),
                        err.stream));
        assertSame(thrown, e, "the run's own exception reaches the command line");
        assertTrue(err.failed, name + ": the failing line came: " + err.lines);
        assertEquals(status, Interruption.Cause.failed(thrown).exitStatus(), "the status ./lab gives it");
        assertFalse(Interruption.stopRequested(), "the stop flag closes with the run");
        assertNoRunnerChild();

        String said = "failed (" + thrown.getClass().getName() + ": " + thrown.getMessage() + ")";
        assertTrue(
                err.lines.contains(name + ": " + said + "; writing what was measured to " + out), err.lines.toString());
        List<String> shown = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(out.toString(), shown.get(shown.size() - 1), "the folder is still the last line: " + shown);
        assertTrue(
                shown.contains("Failed (" + thrown.getClass().getName() + ": " + thrown.getMessage()
                        + "): what was measured is in the folder below, marked interrupted"),
                shown.toString());

        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(name, top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals(said, top.get("interruption"));
        assertNull(top.get("signal"), "no signal behind a failure");
        int whole = 0;
        int cut = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) top.get("rows")) {
            int asked = (Integer) r.get("runs_asked");
            int done = (Integer) r.get("runs_completed");
            // a row is cut short by its filtered runs or by its unfiltered baseline's
            boolean shortOfRuns =
                    done < asked || (r.get("runs_none_completed") instanceof Integer none && none < asked);
            assertEquals(shortOfRuns, r.get("interrupted"), r.toString());
            whole += done == asked ? 1 : 0;
            cut += done > 0 && done < asked ? 1 : 0;
        }
        assertTrue(
                whole >= 1 && cut >= 1,
                "failed mid-run: some rows whole, some with the runs before it: " + top.get("rows"));
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
        assertEquals(said, env.get("interruption"));
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.startsWith("**Failed (" + thrown.getClass().getName()), table);
        assertTrue(Files.isRegularFile(out.resolve("samples.arrow")));
        Results loaded = Results.load(out);
        assertTrue(loaded.interrupted(), name);
        assertEquals(said, loaded.interruption());
    }

    /**
     * A failure on the last run, once every row has all its runs: the folder is whole (not marked
     * interrupted: nothing is missing), and the error is not lost for that: it still ends the command.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aFailureAfterTheLastRunStillEndsTheCommandWithIt() throws Exception {
        Path out = tmp.resolve("last");
        RuntimeException thrown = new IllegalStateException("test: the progress stream broke on the last line");
        FailingStream err = new FailingStream(
                l -> {
                    Matcher m = PROGRESS.matcher(l);
                    return m.find() && m.group(1).equals(m.group(2));
                },
                thrown);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        assertSame(
                thrown,
                assertThrows(
                        RuntimeException.class,
                        () -> ReproduceCommand.run(
                                List.of(
                                        "floor-cost",
                                        "--no-broker",
                                        "--runs",
                                        "1",
                                        "--calls",
                                        "20000",
                                        "--out",
                                        out.toString()),
                                new PrintStream(printed, true, StandardCharsets.UTF_8),
                                err.stream)));
        assertTrue(err.failed, err.lines.toString());
        assertNoRunnerChild();
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(Boolean.FALSE, top.get("interrupted"), "every run was measured");
        for (Map<String, Object> r : (List<Map<String, Object>>) top.get("rows")) {
            assertEquals(r.get("runs_asked"), r.get("runs_completed"), r.toString());
        }
        List<String> shown = printed.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(out.toString(), shown.get(shown.size() - 1), shown.toString());
    }

    /** A failure before any run completed ends as it always did: its exception, and no folder of ours. */
    @Test
    void aFailureBeforeAnythingWasMeasuredLeavesNoFolder() throws Exception {
        Path out = tmp.resolve("early");
        RuntimeException thrown = new IllegalStateException("test: the progress stream broke at once");
        // floor-cost's first "[1/N]" line reports a completed run; its header comes before any.
        FailingStream header = new FailingStream(l -> l.startsWith("floor-cost: "), thrown);
        assertSame(
                thrown,
                assertThrows(
                        RuntimeException.class,
                        () -> ReproduceCommand.run(
                                List.of("floor-cost", "--quick", "--out", out.toString()),
                                new PrintStream(OutputStream.nullOutputStream()),
                                header.stream)));
        assertFalse(Files.exists(out), "no folder of ours is left");
        assertFalse(Interruption.stopRequested());
        assertNoRunnerChild();
        assertTrue(header.failed);
    }

    /**
     * lanes through a real {@code ./lab} JVM: the input file its batches read is removed after the
     * first worker count is done, so the next batch fails (a file error). The exit status is the one
     * that error gives (2), its message is printed, and the folder keeps the whole rows, marked.
     */
    @Test
    @SuppressWarnings("unchecked")
    void lanesLosingItsInputMidRunExitsWithTheErrorsStatusAndKeepsTheCompletedBatches() throws Exception {
        Path scratchParent = Files.createDirectory(tmp.resolve("scratch")); // the lab JVM's own java.io.tmpdir
        Path out = tmp.resolve("lanes");
        int asked = 20;
        try (Lab lab = new Lab(
                List.of(
                        "JAVA_TOOL_OPTIONS=-Djava.io.tmpdir=" + scratchParent,
                        "GRAPH_BENCH_SAMPLES=" + asked,
                        "GRAPH_WORKLOAD_THREADS=1,4"),
                "reproduce",
                "lanes",
                "--quick",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("lanes: 1 workers done"), 180);
            List<Path> inputs;
            try (Stream<Path> s = Files.find(
                    scratchParent,
                    2,
                    (p, a) -> a.isRegularFile() && p.getFileName().toString().equals("lanes-input.bin"))) {
                inputs = s.toList();
            }
            assertEquals(1, inputs.size(), "the run's input file: " + inputs);
            Files.delete(inputs.get(0));
            assertEquals(2, lab.exit(), lab.errText());
            String err = lab.errText();
            assertTrue(err.contains("lanes: failed (java.lang.IllegalStateException: worker "), err);
            assertTrue(err.contains("lab reproduce: error: ") && err.contains("lanes-input.bin"), err);
            assertFalse(err.contains("internal error"), err);
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
            assertTrue(
                    lab.out.stream().anyMatch(l -> l.startsWith("Failed (java.lang.IllegalStateException: worker ")),
                    lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertTrue(((String) top.get("interruption")).contains("NoSuchFileException"), top.toString());
        assertNull(top.get("signal"));
        int whole = 0;
        int cut = 0;
        for (Map<String, Object> r : (List<Map<String, Object>>) top.get("rows")) {
            int done = (Integer) r.getOrDefault("batches_completed", 0);
            if (Integer.valueOf(1).equals(r.get("workers"))) {
                assertEquals(asked, done, "the first worker count was complete: " + r);
                assertEquals(Boolean.FALSE, r.get("interrupted"), r.toString());
                whole++;
            } else {
                cut += done < asked ? 1 : 0;
            }
        }
        assertTrue(whole >= 1 && cut >= 1, top.get("rows").toString());
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Failed (java.lang.IllegalStateException"));
        assertTrue(Results.load(out).interrupted());
        try (Stream<Path> s = Files.list(scratchParent)) {
            assertEquals(List.of(), s.toList(), "the run's scratch folder went with it");
        }
    }

    /** No heimdall-runner this JVM started is still alive. */
    private static void assertNoRunnerChild() {
        List<ProcessHandle> left = ProcessHandle.current()
                .descendants()
                .filter(p -> p.isAlive()
                        && p.info()
                                .command()
                                .map(c -> c.endsWith("heimdall-runner"))
                                .orElse(false))
                .toList();
        assertEquals(List.of(), left, "heimdall-runner children outlived the failed run");
    }

    /** A progress stream that throws {@code thrown} once, when a whole line matching {@code when} is written. */
    private static final class FailingStream {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());
        final PrintStream stream;
        volatile boolean failed;

        FailingStream(Predicate<String> when, RuntimeException thrown) {
            stream = new PrintStream(
                    new OutputStream() {
                        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

                        @Override
                        public synchronized void write(int b) {
                            if (b != '\n') {
                                line.write(b);
                                return;
                            }
                            String l = line.toString(StandardCharsets.UTF_8);
                            line.reset();
                            lines.add(l);
                            if (!failed && when.test(l)) {
                                failed = true;
                                throw thrown;
                            }
                        }
                    },
                    true,
                    StandardCharsets.UTF_8);
        }
    }
}
