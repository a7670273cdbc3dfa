package heimdall.lab.reproduce;

import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The lanes workload of seed {@code 002} ({@link LaneWorkload}): for each foreground worker count
 * ({@code GRAPH_WORKLOAD_THREADS}, default 1, 4, 16) plus one collector, {@code GRAPH_WORKLOAD_ITERS}
 * iterations (default 50,000) per thread, the variants {@code unchecked} and one per prepared layout
 * (every thread checks each call with its own cursor over the shared tables). One warm-up batch (sample
 * 0, kept, excluded) then {@code GRAPH_BENCH_SAMPLES} batches (default 7); the variant order rotates
 * between batches. Every batch of every variant is verified: the exact read/write/getrusage/sched_yield
 * counts, bytes, each worker's checksum, every check made and none denied. A failed verification fails
 * the run (exit 1). A batch's figure is its wall time from the start latch's release to the last join;
 * spread above 25% is flagged noisy. Wall time divided by concurrent call counts is not single-call
 * latency.
 */
public final class Lanes {
    private Lanes() {}

    public static final String UNCHECKED = "unchecked";

    /**
     * What a run wrote.
     *
     * @param interruption the stop that cut the batches short, if one did; with an empty {@code summary}
     *     nothing was measured and nothing written (the caller removes the folder)
     */
    public record Result(
            Path folder, List<LanesRow> summary, List<String> failures, Optional<Interruption.Cause> interruption) {
        public Result(Path folder, List<LanesRow> summary, List<String> failures) {
            this(folder, summary, failures, Optional.empty());
        }
    }

    /** Measures and writes the results folder (a call outside the framework: see {@link Session#join}). */
    public static Result run(GraphBenchSettings s, ResultsFolder folder, Consumer<String> progress)
            throws InterruptedException {
        return run(s, Session.join(folder, progress));
    }

    /** Measures and writes the session's folder, leaving off between batches when the session is asked to stop. */
    public static Result run(GraphBenchSettings s, Session session) throws InterruptedException {
        // The input file lives in a private scratch folder of this run, removed with it.
        try (Scratch scratch = Scratch.create("heimdall-lab-lanes-")) {
            return run(s, session, LaneWorkload.prepareFile(scratch.path()));
        }
    }

    private static Result run(GraphBenchSettings s, Session session, Path file) throws InterruptedException {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        Instant started = Instant.now();
        PreparedGraph pg = PreparedGraph.prepare(
                LaneWorkload.graph(),
                PreparedGraph.Options.defaults()
                        .withBudget(s.budget())
                        .withLimit(s.bytes())
                        .withCoalesce(s.coalesce()));
        List<String> variants = new ArrayList<>(List.of(UNCHECKED));
        for (Layout l : pg.layouts().keySet()) {
            variants.add(l.wire());
        }
        int maxWorkers =
                s.workloadThreads().stream().mapToInt(Integer::intValue).max().orElse(1);
        long[] sums = new long[maxWorkers];
        for (int w = 0; w < maxWorkers; w++) {
            sums[w] = LaneWorkload.expectedChecksum(w, s.workloadIters());
        }
        progress.accept(String.format(
                Locale.ROOT,
                "lanes: workers %s + 1 collector, %,d iterations each, variants %s, 1 warm-up + %d batches, "
                        + "workload CPUs %s",
                s.workloadThreads(),
                s.workloadIters(),
                variants,
                s.samples(),
                s.workloadCpus()));

        BatchSamples samples = new BatchSamples("wall_ms");
        List<LanesRow> summary = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        int batches = s.samples() + 1;
        boolean complete = true;
        boolean anyMeasured = false;
        for (int workers : s.workloadThreads()) {
            long[][] nanos = new long[variants.size()][batches];
            String[] failed = new String[variants.size()];
            // A stop of the session (Stoppable) leaves off between variants' batches: the batches every
            // variant completed are kept, the one in progress is not (so every variant has as many).
            int done = 0;
            for (int b = 0; b < batches && !session.stopRequested(); b++) {
                for (int i = 0; i < variants.size() && !session.stopRequested(); i++) {
                    int v = (i + b) % variants.size();
                    Prepared tables = v == 0 ? null : pg.layout(Layout.parse(variants.get(v)));
                    LaneWorkload.Batch batch;
                    try {
                        batch = LaneWorkload.runBatch(file, workers, s.workloadIters(), tables, s.workloadCpus());
                    } catch (RuntimeException e) {
                        if (session.stopOn(e)) {
                            break; // this batch is not kept; those every variant completed are
                        }
                        throw e;
                    }
                    nanos[v][b] = batch.nanos();
                    String why = LaneWorkload.verify(batch, workers, s.workloadIters(), tables != null, sums);
                    if (why != null && failed[v] == null) {
                        failed[v] = "batch " + b + ": " + why;
                    }
                    if (i == variants.size() - 1) {
                        done = b + 1;
                    }
                }
                loads.sample();
            }
            int completed = Math.max(0, done - 1); // batch 0 is the warm-up
            complete &= done == batches;
            anyMeasured |= completed > 0;
            Double uncheckedMedian = null;
            for (int v = 0; v < variants.size(); v++) {
                if (completed == 0) {
                    summary.add(notMeasured(workers, variants.get(v), s));
                    continue;
                }
                int row = summary.size();
                double[] measured = new double[completed];
                for (int b = 0; b < done; b++) {
                    double ms = nanos[v][b] / 1e6;
                    samples.add(row, b, ms);
                    if (b > 0) {
                        measured[b - 1] = ms;
                    }
                }
                BatchSamples.Summary sum = BatchSamples.Summary.of(measured);
                if (v == 0) {
                    uncheckedMedian = sum.median();
                }
                long iters = s.workloadIters();
                summary.add(new LanesRow(
                        (long) workers,
                        1L,
                        variants.get(v),
                        iters,
                        GraphLookup.round(sum.median()),
                        GraphLookup.round(sum.min()),
                        GraphLookup.round(sum.max()),
                        GraphLookup.round(sum.spread()),
                        sum.noisy(),
                        uncheckedMedian == null ? null : GraphLookup.round(sum.median() / uncheckedMedian),
                        iters,
                        iters,
                        iters * LaneWorkload.BLOCK,
                        iters,
                        iters,
                        v == 0 ? 0L : 2L * iters * (workers + 1),
                        failed[v] == null,
                        failed[v],
                        (long) sum.count(),
                        "measured",
                        (long) s.samples(),
                        (long) completed,
                        completed < s.samples()));
                if (failed[v] != null) {
                    failures.add(workers + " workers, " + variants.get(v) + ": " + failed[v]);
                }
            }
            progress.accept("lanes: " + workers + " workers done"
                    + (done < batches ? " (stopped: " + completed + " of " + s.samples() + " batches)" : ""));
        }
        Optional<Interruption.Cause> cause = complete ? Optional.empty() : session.stopCause();
        if (cause.isPresent() && !anyMeasured) {
            // Stopped before any measured batch: nothing to keep (the caller removes the folder).
            return new Result(folder.path(), List.of(), List.of(), cause);
        }
        cause.ifPresent(
                x -> progress.accept("lanes: " + x.said() + "; writing what was measured to " + folder.target()));
        folder.writeSummary(ReproductionKind.of(LanesRow.class), cause, summary);
        samples.write(folder.path().resolve("samples.arrow"));
        folder.writeEnvironment("lanes", cause, started, Instant.now(), host, LanesSettings.of(s, loads));
        String table = table(summary, host, s, failures);
        folder.writeTable(cause, "fewer batches than asked (batches_completed in summary.json)", table);
        if (cause.isEmpty()) {
            heimdall.lab.analysis.Plots.writeInto(folder, progress);
        }
        // complete (or complete and marked interrupted): only now does it appear at its name
        return new Result(folder.publish(), summary, failures, cause);
    }

    /** A row a stop came before: its coordinates, no figures. */
    private static LanesRow notMeasured(int workers, String variant, GraphBenchSettings s) {
        return new LanesRow(
                (long) workers,
                1L,
                variant,
                (long) s.workloadIters(),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                0L,
                "not measured",
                (long) s.samples(),
                0L,
                true);
    }

    static String table(List<LanesRow> summary, Host host, GraphBenchSettings s, List<String> failures) {
        StringBuilder md =
                new StringBuilder("# lanes: a syscall-heavy workload with a cursor check before each call\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, Java %s. %,d iterations per thread; 1 warm-up batch "
                        + "(kept as sample 0, excluded) + %d batches; variant order rotating; workload threads on CPUs %s.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                System.getProperty("java.version"),
                s.workloadIters(),
                s.samples(),
                s.workloadCpus()));
        md.append(
                "Published (seed 002, oden, 2026-11-08): each worker 50,000 reads and 50,000 writes, the collector 50,000 "
                        + "getrusage/yield pairs; all variants matched byte count and checksum; every row exceeded the 25% spread threshold "
                        + "(no wall times published).\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "workers",
                "variant",
                "wall ms median",
                "min – max",
                "spread",
                "vs unchecked",
                "verified",
                "published"));
        for (LanesRow r : summary) {
            if (!"measured".equals(r.status())) {
                t.row(List.of(
                        r.workers() + " + 1",
                        r.variant(),
                        "not measured (interrupted)",
                        "—",
                        "—",
                        "—",
                        "—",
                        "noisy (>25%)"));
                continue;
            }
            t.row(List.of(
                    r.workers() + " + 1",
                    r.variant(),
                    String.format(Locale.ROOT, "%.3f", r.wallMsMedian()),
                    String.format(Locale.ROOT, "%.3f – %.3f", r.wallMsMin(), r.wallMsMax()),
                    String.format(
                            Locale.ROOT, "%.0f%%%s", 100 * r.spread(), Boolean.TRUE.equals(r.noisy()) ? " noisy" : ""),
                    r.vsUnchecked() != null ? String.format(Locale.ROOT, "%.3f×", r.vsUnchecked()) : "—",
                    Boolean.TRUE.equals(r.verified()) ? "yes" : "NO: " + r.failure(),
                    "noisy (>25%)"));
        }
        md.append(t.render()).append('\n');
        failures.forEach(f -> md.append("- FAILED: ").append(f).append('\n'));
        md.append(
                "\nA batch's wall time runs from the start latch's release to the last join; thread creation and file opening "
                        + "are outside it. Checked variants call Cursor.step before every call; all threads share the tables. Wall time "
                        + "divided by call counts is not single-call latency; a checked run appearing faster than unchecked shows noise, "
                        + "not a speed-up.\n");
        return md.toString();
    }
}
