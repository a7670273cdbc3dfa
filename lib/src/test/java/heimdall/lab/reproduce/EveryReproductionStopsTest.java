package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.analysis.Results;
import heimdall.lab.reproduce.InterruptedRunTest.Lab;
import heimdall.lab.reproduce.attachcost.AttachCost;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12: every reproduction stops the same way (Stoppable). A real {@code lab} JVM per test gets a
 * signal; what is checked is the exit status (128 + the signal), that no measured child outlives it,
 * and the folder: a valid one marked interrupted (at the top and per row) where the reproduction keeps
 * partial rows, otherwise none at all, or the user's own left empty.
 */
class EveryReproductionStopsTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void needsSeccomp() {
        // Kernel facts (/proc/sys/kernel/seccomp/actions_avail): the measured children install filters.
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
    }

    /** kernel-bitmap stopped after a few rounds: summary.json and each row say so, with the runs completed. */
    @Test
    @SuppressWarnings("unchecked")
    void kernelBitmapLateSigtermKeepsTheCompletedRuns() throws Exception {
        Path out = tmp.resolve("bitmap");
        try (Lab lab = new Lab("reproduce", "kernel-bitmap", "--quick", "--out", out.toString())) {
            lab.awaitErr(l -> l.startsWith("round 3 ·"), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains("kernel-bitmap: terminated (SIGTERM); writing what was measured"),
                    lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("kernel-bitmap", top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("SIGTERM", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertFalse(rows.isEmpty());
        for (Map<String, Object> r : rows) {
            int asked = (Integer) r.get("runs_asked");
            int done = (Integer) r.get("runs_completed");
            assertEquals(KernelBitmap.Options.quick().runs(), asked);
            assertTrue(done >= 1 && done < asked, "stopped after round 3 of 16: " + done);
            assertEquals(Boolean.TRUE, r.get("interrupted"), r.toString());
        }
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        assertTrue(Results.load(out).interrupted());
    }

    /** kernel-bitmap stopped during its first runs: nothing kept, the user's folder left empty. */
    @Test
    void kernelBitmapEarlyCtrlCLeavesTheUsersFolderEmpty() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("mine"));
        try (Lab lab = new Lab(
                "reproduce",
                "kernel-bitmap",
                "--runs",
                "4",
                "--batch-runs",
                "4",
                "--calls",
                "5000000",
                "--batch-calls",
                "200000000",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("kernel-bitmap: 5 configurations"), 60);
            lab.signal("INT");
            assertEquals(130, lab.exit(), lab.errText());
            assertTrue(lab.errText().contains(out + " left empty"), lab.errText());
            assertTrue(Files.isDirectory(out) && InterruptedRunTest.empty(out), "the user's folder stays, empty");
            assertTrue(lab.out.isEmpty(), lab.out.toString());
            lab.assertNoRunnerLeft();
        }
    }

    /** attach-cost stopped after its first floor's second run: the folder keeps every run completed, marked. */
    @Test
    @SuppressWarnings("unchecked")
    void attachCostLateSigtermKeepsTheCompletedRuns() throws Exception {
        Path out = tmp.resolve("attach");
        try (Lab lab = new Lab("reproduce", "attach-cost", "--quick", "--podman", "none", "--out", out.toString())) {
            lab.awaitErr(l -> l.startsWith("run 2 ·"), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains("attach-cost: terminated (SIGTERM); writing what was measured"),
                    lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("attach-cost", top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("SIGTERM", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        int asked = AttachCost.Options.quick().runs();
        assertEquals("fork alone", rows.get(rows.size() - 1).get("what"), "every floor and the baseline are listed");
        assertTrue((Integer) rows.get(0).get("runs_completed") >= 2, rows.get(0).toString());
        assertEquals("ok", rows.get(0).get("status"));
        int cut = 0;
        for (Map<String, Object> r : rows) {
            int done = (Integer) r.get("runs_completed");
            assertEquals(asked, r.get("runs_asked"), r.toString());
            assertEquals(done < asked, r.get("interrupted"), r.toString());
            assertEquals(done == 0 ? "not measured" : "ok", r.get("status"), r.toString());
            assertEquals(
                    done > 0,
                    r.containsKey(r.get("what").equals("fork alone") ? "fork_median_ns" : "attach_median_ns"),
                    r.toString());
            cut += done < asked ? 1 : 0;
        }
        assertTrue(cut >= 1, "stopped before the baseline's last run: " + rows);
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
        assertTrue(Files.isRegularFile(out.resolve("samples.arrow")));
        assertTrue(Results.load(out).interrupted());
    }

    /** attach-cost stopped during its first run (a long fork child): nothing measured, no folder of its making. */
    @Test
    void attachCostEarlySigtermLeavesNoFolder() throws Exception {
        Path out = tmp.resolve("attach");
        try (Lab lab = new Lab(
                "reproduce",
                "attach-cost",
                "--quick",
                "--podman",
                "none",
                "--runs",
                "1",
                "--forks",
                "2000000",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("attach-cost: "), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText()
                            .contains("attach-cost: terminated (SIGTERM) before anything was measured; no results "
                                    + "folder left"),
                    lab.errText());
            assertFalse(Files.exists(out), "no part-written folder");
            assertTrue(lab.out.isEmpty(), lab.out.toString());
            lab.assertNoRunnerLeft();
        }
    }

    /** lanes stopped after its first worker count: the batches every variant completed are kept, marked. */
    @Test
    @SuppressWarnings("unchecked")
    void lanesLateSigtermKeepsTheCompletedBatches() throws Exception {
        Path out = tmp.resolve("lanes");
        int asked = 20;
        try (Lab lab = new Lab(
                List.of("GRAPH_BENCH_SAMPLES=" + asked, "GRAPH_WORKLOAD_THREADS=1,4"),
                "reproduce",
                "lanes",
                "--quick",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("lanes: 1 workers done"), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(lab.errText().contains("lanes: terminated (SIGTERM); writing what was measured"), lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("lanes", top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        for (Map<String, Object> r : rows) {
            assertEquals(asked, r.get("batches_asked"), r.toString());
            int done = (Integer) r.get("batches_completed");
            if ((Integer) r.get("workers") == 1) {
                assertEquals(asked, done, r.toString());
                assertEquals(Boolean.FALSE, r.get("interrupted"), r.toString());
            } else {
                assertTrue(done < asked, r.toString());
                assertEquals(Boolean.TRUE, r.get("interrupted"), r.toString());
            }
            assertEquals(done == 0 ? "not measured" : "measured", r.get("status"), r.toString());
            assertEquals(done == 0, r.get("wall_ms_median") == null, r.toString());
        }
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
        assertTrue(Results.load(out).interrupted());
    }

    /** lanes (threads in the JVM, no child): Ctrl-C during the warm-up batch, the user's folder left empty. */
    @Test
    void lanesEarlyCtrlCLeavesTheUsersFolderEmpty() throws Exception {
        Path out = Files.createDirectory(tmp.resolve("lanes"));
        try (Lab lab = new Lab(
                List.of("GRAPH_BENCH_SAMPLES=3", "GRAPH_WORKLOAD_THREADS=1", "GRAPH_WORKLOAD_ITERS=200000"),
                "reproduce",
                "lanes",
                "--quick",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("lanes: workers"), 120);
            lab.signal("INT");
            assertEquals(130, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText()
                            .contains(
                                    "lanes: interrupted (Ctrl-C) before anything was measured; " + out + " left empty"),
                    lab.errText());
            assertTrue(Files.isDirectory(out) && InterruptedRunTest.empty(out), "the user's folder stays, empty");
            assertTrue(lab.out.isEmpty(), lab.out.toString());
        }
    }

    /** follower-cost (root and kernel BTF) stopped after its first row: the runs completed are kept, marked. */
    @Test
    @SuppressWarnings("unchecked")
    void followerCostLateSigtermKeepsTheCompletedRuns() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Path out = tmp.resolve("follower");
        int asked = 3;
        try (Lab lab = new Lab(
                "reproduce",
                "follower-cost",
                "--runs",
                String.valueOf(asked),
                "--calls",
                "50000",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("t_follow "), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains("follower-cost: terminated (SIGTERM); writing what was measured"),
                    lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("follower-cost", top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("SIGTERM", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertEquals(asked, rows.get(0).get("runs_completed"), rows.get(0).toString());
        int cut = 0;
        for (Map<String, Object> r : rows) {
            assertEquals(asked, r.get("runs_asked"), r.toString());
            int done = (Integer) r.get("runs_completed");
            if ("refused".equals(r.get("status"))) {
                assertEquals(Boolean.FALSE, r.get("interrupted"), r.toString());
                continue;
            }
            assertEquals(done < asked, r.get("interrupted"), r.toString());
            assertEquals(done == 0 ? "not measured" : "ok", r.get("status"), r.toString());
            assertEquals(done > 0, r.containsKey("added_ns"), r.toString());
            cut += done < asked ? 1 : 0;
        }
        assertTrue(cut >= 1, "a later row cut short: " + rows);
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
        assertTrue(Results.load(out).interrupted());
    }

    /** graph-lookup stopped after its first case: the batches completed are kept, summary.json and each row marked. */
    @Test
    @SuppressWarnings("unchecked")
    void graphLookupLateSigtermKeepsTheCompletedBatches() throws Exception {
        Path out = tmp.resolve("lookup");
        int asked = 100;
        try (Lab lab = new Lab(
                List.of("GRAPH_BENCH_SAMPLES=" + asked),
                "reproduce",
                "graph-lookup",
                "--quick",
                "--out",
                out.toString())) {
            lab.awaitErr(l -> l.startsWith("case 1 of "), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains("graph-lookup: terminated (SIGTERM); writing what was measured"),
                    lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("graph-lookup", top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("SIGTERM", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        int full = 0;
        int cut = 0;
        for (Map<String, Object> r : rows) {
            assertEquals(asked, r.get("batches_asked"), r.toString());
            int done = (Integer) r.get("batches_completed");
            if ("refused".equals(r.get("status"))) {
                assertEquals(Boolean.FALSE, r.get("interrupted"), r.toString());
                continue;
            }
            assertEquals(done < asked, r.get("interrupted"), r.toString());
            assertEquals(done == 0 ? "not measured" : "measured", r.get("status"), r.toString());
            assertEquals(done == 0, r.get("ns_per_event_median") == null, r.toString());
            if (done > 0) {
                assertEquals(done, r.get("samples"), r.toString());
            }
            full += done == asked ? 1 : 0;
            cut += done < asked ? 1 : 0;
        }
        assertTrue(full >= 1 && cut >= 1, "the first case complete, a later one cut short: " + rows);
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Terminated (SIGTERM):"));
        Map<String, Object> env =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, env.get("interrupted"));
        assertTrue(Results.load(out).interrupted());
    }

    /** graph-lookup stopped while it prepares its graphs: nothing measured, no folder of its making. */
    @Test
    void graphLookupEarlySigtermLeavesNoFolder() throws Exception {
        Path out = tmp.resolve("lookup");
        try (Lab lab = new Lab(
                List.of("GRAPH_BENCH_SAMPLES=1000"), "reproduce", "graph-lookup", "--quick", "--out", out.toString())) {
            lab.awaitErr(l -> l.startsWith("abcdf: "), 120);
            lab.signal("TERM");
            assertEquals(143, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText()
                            .contains("graph-lookup: terminated (SIGTERM) before anything was measured; no results "
                                    + "folder left"),
                    lab.errText());
            assertFalse(Files.exists(out), "no part-written folder");
            assertTrue(lab.out.isEmpty(), lab.out.toString());
        }
    }

    /**
     * Issue 13 item 2: the framework stops two quite different reproductions alike: host-load (measured
     * children and load threads) and lanes (threads in the JVM), each Ctrl-C'd mid-run through
     * {@code ./lab reproduce}. Both leave a valid folder marked interrupted at the top, per row and in
     * environment.json, a table that says so, exit 130, and no heimdall-runner child.
     */
    @Test
    void hostLoadQuickAndLanesQuickStopMidRunTheSameWay() throws Exception {
        Path hostLoad = tmp.resolve("host-load");
        stopMidRun(
                List.of(),
                List.of("reproduce", "host-load", "--quick", "--out", hostLoad.toString()),
                l -> l.startsWith("loaded [1/"),
                hostLoad,
                "runs");
        Path lanes = tmp.resolve("lanes");
        stopMidRun(
                List.of("GRAPH_BENCH_SAMPLES=20", "GRAPH_WORKLOAD_THREADS=1,4"),
                List.of("reproduce", "lanes", "--quick", "--out", lanes.toString()),
                l -> l.startsWith("lanes: 1 workers done"),
                lanes,
                "batches");
    }

    @SuppressWarnings("unchecked")
    private static void stopMidRun(
            List<String> env, List<String> argv, java.util.function.Predicate<String> when, Path out, String unit)
            throws Exception {
        String name = argv.get(1);
        try (Lab lab = new Lab(env, argv.toArray(String[]::new))) {
            lab.awaitErr(when, 180);
            lab.signal("INT");
            assertEquals(130, lab.exit(), lab.errText());
            assertTrue(
                    lab.errText().contains(name + ": interrupted (Ctrl-C); writing what was measured"), lab.errText());
            assertEquals(out.toString(), lab.out.get(lab.out.size() - 1), lab.out.toString());
            assertTrue(
                    lab.out.contains(
                            "Interrupted (Ctrl-C): what was measured is in the folder below, marked interrupted"),
                    lab.out.toString());
            lab.assertNoRunnerLeft();
        }
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals(name, top.get("reproduction"));
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("SIGINT", top.get("signal"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        int whole = 0;
        int cut = 0;
        for (Map<String, Object> r : rows) {
            int asked = (Integer) r.get(unit + "_asked");
            int done = (Integer) r.get(unit + "_completed");
            assertEquals(done < asked, r.get("interrupted"), r.toString());
            whole += done == asked ? 1 : 0;
            cut += done < asked ? 1 : 0;
        }
        assertTrue(whole >= 1 && cut >= 1, "stopped mid-run: some rows whole, some cut short: " + rows);
        Map<String, Object> environment =
                new ObjectMapper().readValue(out.resolve("environment.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, environment.get("interrupted"));
        assertEquals(name, environment.get("reproduction"));
        assertTrue(Files.readString(out.resolve("table.md")).startsWith("**Interrupted (Ctrl-C):"));
        assertTrue(Files.isRegularFile(out.resolve("samples.arrow")));
        assertTrue(Results.load(out).interrupted(), "the folder loads, marked interrupted");
    }

    /**
     * A notebook interrupt ({@link heimdall.lab.bench.Interruption#requestStop}, what the Jupyter kernel
     * calls) through the same framework, in this JVM: lanes and host-load each stopped mid-run keep a
     * valid folder marked interrupted with no signal named, and status 130, as Ctrl-C does.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aNotebookInterruptStopsThroughTheSameFramework() throws Exception {
        for (List<String> run :
                List.of(List.of("lanes", "lanes: 1 workers done"), List.of("host-load", "loaded [1/"))) {
            String name = run.get(0);
            Path out = tmp.resolve("notebook-" + name);
            List<String> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
            java.io.PrintStream err = new java.io.PrintStream(
                    new java.io.OutputStream() {
                        private final StringBuilder line = new StringBuilder();

                        @Override
                        public synchronized void write(int b) {
                            if (b == '\n') {
                                lines.add(line.toString());
                                line.setLength(0);
                            } else {
                                line.append((char) b);
                            }
                        }
                    },
                    true,
                    java.nio.charset.StandardCharsets.UTF_8);
            java.util.concurrent.CompletableFuture<Integer> status =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return ReproduceCommand.run(
                                    List.of(name, "--quick", "--out", out.toString()),
                                    new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8),
                                    err);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
            long deadline = System.nanoTime() + 180_000_000_000L;
            // The list's own lock while streaming it: the run's progress thread adds lines meanwhile.
            while (!started(lines, run.get(1)) && !status.isDone() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(
                    heimdall.lab.bench.Interruption.requestStop(heimdall.lab.bench.Interruption.Cause.NOTEBOOK),
                    "a measurement was open: " + lines);
            assertEquals(130, status.get(120, java.util.concurrent.TimeUnit.SECONDS), lines.toString());
            Map<String, Object> top =
                    new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
            assertEquals(Boolean.TRUE, top.get("interrupted"), name);
            assertEquals(heimdall.lab.bench.Interruption.Cause.NOTEBOOK.said(), top.get("interruption"), name);
            assertEquals(null, top.get("signal"), "no signal behind a notebook interrupt");
            List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
            assertTrue(rows.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("interrupted"))), rows.toString());
            assertTrue(Results.load(out).interrupted(), name);
            assertTrue(printed.toString(java.nio.charset.StandardCharsets.UTF_8)
                    .strip()
                    .endsWith(out.toString()));
            assertFalse(heimdall.lab.bench.Interruption.stopRequested(), "the stop flag closes with the run");
        }
    }

    private static boolean started(List<String> lines, String prefix) {
        synchronized (lines) {
            return lines.stream().anyMatch(l -> l.startsWith(prefix));
        }
    }
}
