package heimdall.lab.reproduce.lanes;

import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.reproduce.graphlookup.GraphLookup;
import heimdall.lab.results.FigureCi;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.LanesRow.Variant;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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
 * spread above 25% is flagged noisy. Each measured row carries distribution-free 95% intervals over its
 * batches, of its median wall time and of its ratio to unchecked ({@link #intervals}). Wall time divided by
 * concurrent call counts is not single-call latency.
 */
public final class Lanes {
    private Lanes() {}

    /**
     * What a run wrote.
     *
     * @param folder where it is (where it would have been when nothing was measured)
     * @param summary the rows; empty when a stop came before any measured batch (nothing is left)
     * @param failures the verifications that failed, one line each
     * @param interruption the stop that cut the batches short, if one did
     */
    public record Result(
            Path folder, List<LanesRow> summary, List<String> failures, Optional<Interruption.Cause> interruption) {}

    /**
     * Measures and writes the results folder, in a session of its own (a notebook's or a test's call):
     * the framework's {@link Kept#keep} writes it as {@code ./lab reproduce lanes} does.
     */
    public static Result run(GraphBenchSettings s, ResultsFolder folder, Consumer<String> progress)
            throws InterruptedException {
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = run(s, session);
        }
        @SuppressWarnings("unchecked") // lanes' rows, as its body recorded them
        List<LanesRow> rows = (List<LanesRow>) r.summary();
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return new Result(folder.target(), rows, r.failures(), r.interruption());
        }
        return new Result(Kept.keep(folder, r, progress), rows, r.failures(), r.interruption());
    }

    /**
     * Measures, leaving off between batches when the session is asked to stop, and returns what was
     * measured for the framework to write ({@link Kept}): marked interrupted after a stop, each row with
     * the batches every variant completed; {@link ReproductionResult#nothing} when none was. The body
     * writes only {@code samples.arrow} into the session's folder.
     */
    public static ReproductionResult run(GraphBenchSettings s, Session session) throws InterruptedException {
        // The input file lives in a private scratch folder of this run, removed with it.
        try (Scratch scratch = Scratch.create("heimdall-lab-lanes-")) {
            return run(s, session, LaneWorkload.prepareFile(scratch.path()));
        }
    }

    private static ReproductionResult run(GraphBenchSettings s, Session session, Path file)
            throws InterruptedException {
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
        List<Variant> variants = new ArrayList<>(List.of(Variant.UNCHECKED));
        for (Layout l : pg.layouts().keySet()) {
            variants.add(Variant.of(l.wire()));
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
                    Prepared tables = v == 0
                            ? null
                            : pg.layout(Layout.parse(variants.get(v).label()));
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
            double[][] measured = new double[variants.size()][];
            for (int v = 0; v < variants.size(); v++) {
                int row = summary.size() + v;
                measured[v] = new double[completed];
                for (int b = 0; b < done && completed > 0; b++) {
                    double ms = nanos[v][b] / 1e6;
                    samples.add(row, b, ms);
                    if (b > 0) {
                        measured[v][b - 1] = ms;
                    }
                }
                if (completed > 0 && failed[v] != null) {
                    failures.add(workers + " workers, " + variants.get(v).label() + ": " + failed[v]);
                }
            }
            summary.addAll(rows(workers, variants, measured, failed, s));
            progress.accept("lanes: " + workers + " workers done"
                    + (done < batches ? " (stopped: " + completed + " of " + s.samples() + " batches)" : ""));
        }
        Optional<Interruption.Cause> cause = complete ? Optional.empty() : session.stopCause();
        if (cause.isPresent() && !anyMeasured) {
            // Stopped before any measured batch: nothing to keep (the framework clears the folder).
            progress.accept("lanes: " + cause.get().said() + " before any batch completed; nothing written");
            return ReproductionResult.nothing(cause);
        }
        cause.ifPresent(
                x -> progress.accept("lanes: " + x.said() + "; writing what was measured to " + folder.target()));
        samples.write(folder.path().resolve("samples.arrow"));
        return ReproductionResult.of(
                ReproductionKind.of(LanesRow.class, LanesSettings.class),
                new Recorded<>(summary, LanesSettings.of(s, loads), host, started, Instant.now(), failures),
                cause);
    }

    /** What {@code table.md} says falls short after a stop. */
    static final String SHORTFALL = "fewer batches than asked (batches_completed in summary.json)";

    /**
     * The rows of one thread count, a row per variant ({@code variants.get(0)} is unchecked), from each
     * variant's measured batch wall times in ms ({@code measured[v]}, warm-up excluded; all empty: a stop
     * came before any, and the rows are not measured) and its first failed verification
     * ({@code failed[v]}, null: every batch verified).
     */
    static List<LanesRow> rows(
            int workers, List<Variant> variants, double[][] measured, String[] failed, GraphBenchSettings s) {
        List<LanesRow> rows = new ArrayList<>();
        BatchSamples.Summary unchecked = null;
        double[] uncheckedWritten = null;
        for (int v = 0; v < variants.size(); v++) {
            Variant variant = variants.get(v);
            LanesRow.Subject subject = new LanesRow.Subject((long) workers, 1L, variant, (long) s.workloadIters());
            if (measured[v].length == 0) {
                rows.add(notMeasured(subject, s));
                continue;
            }
            BatchSamples.Summary sum = BatchSamples.Summary.of(measured[v]);
            if (v == 0) {
                unchecked = sum;
                uncheckedWritten = written(measured[0]);
            }
            long iters = s.workloadIters();
            LanesRow.Wall wall = new LanesRow.Wall(
                    GraphLookup.round(sum.median()),
                    GraphLookup.round(sum.min()),
                    GraphLookup.round(sum.max()),
                    GraphLookup.round(sum.spread()),
                    sum.noisy());
            LanesRow.Calls calls = new LanesRow.Calls(
                    iters,
                    iters,
                    iters * LaneWorkload.BLOCK,
                    iters,
                    iters,
                    variant.checked() ? 2L * iters * (workers + 1) : 0L);
            int completed = measured[v].length;
            rows.add(new LanesRow(
                    subject,
                    wall,
                    unchecked == null ? null : GraphLookup.round(sum.median() / unchecked.median()),
                    calls,
                    failed[v] == null,
                    failed[v],
                    (long) sum.count(),
                    RowStatus.MEASURED,
                    new LanesRow.Batches((long) s.samples(), (long) completed, completed < s.samples()),
                    v == 0
                            ? intervals(written(measured[v]), sum.median(), null, 0)
                            : intervals(written(measured[v]), sum.median(), uncheckedWritten, unchecked.median())));
        }
        return rows;
    }

    /**
     * A measured row's intervals at {@link Intervals#LEVEL}, over its batch wall times as the row's
     * figures are written (to 3 decimals, so that an interval's ends are the very min and max the row
     * shows where it reaches that far): its median's over its batches (order statistics:
     * {@link OrderStatistics#overRuns}, a batch being one observation of what a batch takes), and, for a
     * checked variant, its ratio to the unchecked row's ({@link ChangeTest#compare}'s B/A): the
     * Hodges–Lehmann shift of the logarithms of the two rows' batch wall times with its Mann–Whitney
     * interval, taken back out of logarithms. That interval ranks every ratio of one of this row's
     * batches to one of unchecked's, so it covers the ratio at its stated coverage whenever the variant
     * scales the wall-time distribution by a constant, whatever its shape; each interval is stretched to
     * hold the row's own figure.
     *
     * @param batches the row's batch wall times, ms, to 3 decimals
     * @param median their median before rounding (the median's interval is about it as written, the ratio's
     *     about the ratio of the medians before rounding, which the row writes rounded)
     * @param unchecked the unchecked row's, likewise, or null (the unchecked row itself)
     * @param uncheckedMedian their median before rounding
     */
    static LanesRow.Intervals intervals(double[] batches, double median, double[] unchecked, double uncheckedMedian) {
        // about the median as written: it lies between the written batches' middle ones (rounding keeps the
        // order), so the interval is theirs and never stretched past the row's own min and max
        Interval wall = OrderStatistics.overRuns(GraphLookup.round(median), batches, Intervals.LEVEL);
        // a ratio needs wall times above zero on both sides (a batch under 0.5 µs would be written as 0)
        boolean ratioDefined = unchecked != null
                && unchecked.length > 0
                && uncheckedMedian > 0
                && Arrays.stream(unchecked).allMatch(x -> x > 0)
                && Arrays.stream(batches).allMatch(x -> x > 0);
        Interval ratio = !ratioDefined
                ? null
                : ChangeTest.compare(
                                unchecked,
                                batches,
                                median / uncheckedMedian,
                                ChangeTest.DEFAULT_THRESHOLD,
                                Intervals.LEVEL)
                        .ratio();
        // 3 decimals, as the row's figures: ends rounded outward still hold the figures rounded to 3
        return new LanesRow.Intervals(FigureCi.of(wall, 3), FigureCi.of(ratio, 3));
    }

    /** Wall times as the row writes its figures: to 3 decimals. */
    private static double[] written(double[] ms) {
        double[] out = new double[ms.length];
        for (int i = 0; i < ms.length; i++) {
            out[i] = GraphLookup.round(ms[i]);
        }
        return out;
    }

    /** A row a stop came before: its coordinates, no figures. */
    private static LanesRow notMeasured(LanesRow.Subject subject, GraphBenchSettings s) {
        return new LanesRow(
                subject,
                LanesRow.Wall.NONE,
                null,
                LanesRow.Calls.NONE,
                null,
                null,
                0L,
                RowStatus.NOT_MEASURED,
                new LanesRow.Batches((long) s.samples(), 0L, true),
                null);
    }

    /** {@code table.md}'s body, from the run as recorded: its rows, settings, host and failures. */
    static String table(Recorded<LanesRow, LanesSettings> run) {
        List<LanesRow> summary = run.rows();
        Host host = run.host();
        GraphBenchSettings.Recorded s = run.settings().settings();
        List<String> failures = run.failures();
        StringBuilder md =
                new StringBuilder("# lanes: a syscall-heavy workload with a cursor check before each call\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, Java %s. %,d iterations per thread; 1 warm-up batch "
                        + "(kept as sample 0, excluded) + %d batches; variant order rotating; workload threads on "
                        + "CPUs %s.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                run.settings().java(),
                s.workloadIters(),
                s.samples(),
                s.workloadCpus()));
        md.append("Published (seed 002, oden, 2026-11-08): each worker 50,000 reads and 50,000 writes, the collector "
                + "50,000 "
                + "getrusage/yield pairs; all variants matched byte count and checksum; every row exceeded "
                + "the 25% spread threshold "
                + "(no wall times published).\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "workers",
                "variant",
                "wall ms median",
                RowIntervals.heading("median"),
                "min – max",
                "spread",
                "vs unchecked",
                RowIntervals.heading("vs unchecked"),
                "verified",
                "published"));
        for (LanesRow r : summary) {
            if (!r.measured()) {
                t.row(List.of(
                        r.workers() + " + 1",
                        r.variant().label(),
                        "not measured (interrupted)",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "noisy (>25%)"));
                continue;
            }
            LanesRow.Wall w = r.wall();
            LanesRow.Intervals ci = r.intervals();
            t.row(List.of(
                    r.workers() + " + 1",
                    r.variant().label(),
                    String.format(Locale.ROOT, "%.3f", w.medianMs()),
                    FigureCi.cell(ci == null ? null : ci.wallMs(), "%.3f", "batches"),
                    String.format(Locale.ROOT, "%.3f – %.3f", w.minMs(), w.maxMs()),
                    String.format(
                            Locale.ROOT, "%.0f%%%s", 100 * w.spread(), Boolean.TRUE.equals(w.noisy()) ? " noisy" : ""),
                    r.vsUnchecked() != null ? String.format(Locale.ROOT, "%.3f×", r.vsUnchecked()) : "—",
                    r.variant().checked()
                            ? FigureCi.cell(ci == null ? null : ci.vsUnchecked(), "%.3f", "batches")
                            : "—",
                    Boolean.TRUE.equals(r.verified()) ? "yes" : "NO: " + r.failure(),
                    "noisy (>25%)"));
        }
        md.append(t.render()).append('\n');
        failures.forEach(f -> md.append("- FAILED: ").append(f).append('\n'));
        md.append("\nA batch's wall time runs from the start latch's release to the last join; thread creation and "
                + "file opening "
                + "are outside it. Checked variants call Cursor.step before every call; all threads share "
                + "the tables. Wall time "
                + "divided by call counts is not single-call latency; a checked run appearing faster than "
                + "unchecked shows noise, "
                + "not a speed-up.\n");
        md.append(String.format(
                Locale.ROOT,
                "%nIntervals (%d%%, distribution-free, over the batches): the median's are order statistics of the "
                        + "batches' wall times (binomial ranks; with %d batches or fewer even their fastest to slowest "
                        + "covers less, and the cell says how much). The ratio's are the Hodges–Lehmann shift of the "
                        + "logarithms of the variant's and unchecked's batch wall times, same thread count, with its "
                        + "Mann–Whitney interval, taken back out of logarithms (every ratio of a variant's batch to an "
                        + "unchecked one, ranked): an interval that holds 1 is no difference beyond noise.%n",
                Math.round(Intervals.LEVEL * 100),
                OrderStatistics.runsNeededForMedian(Intervals.LEVEL) - 1));
        return md.toString();
    }
}
