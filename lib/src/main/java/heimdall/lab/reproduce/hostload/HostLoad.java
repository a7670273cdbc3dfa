package heimdall.lab.reproduce.hostload;

import heimdall.lab.BadInput;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.load.LoadGenerator;
import heimdall.lab.load.Worker;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.LoadLine;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.HostLoadRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.SummaryJson;
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
 * The floor-cost rows (1–9, no supervisor) measured twice into one results folder: on the host as it
 * is ("idle": nothing of ours running), then under a {@link LoadGenerator} load, after letting the
 * load settle. Each run's 1-minute load average is kept beside its median and p99, because the seed's
 * host was busy (load 52 to 83) and its remarks put the tail down to the host.
 *
 * <p>The 1-minute load average lags: it moves about 1 − e^(−t/60) of the way to a new level in t
 * seconds, so a short settle time shows the load only partly in the average (the runnable counts in
 * {@code environment.json} show it at once).
 */
public final class HostLoad {
    private HostLoad() {}

    /**
     * What to run.
     *
     * @param counts runs and calls per row (the brokered counts are unused)
     * @param cpu the measuring CPU
     * @param load the load threads
     * @param settleMs how long the load runs before the loaded rows are measured
     */
    public record Options(FloorBench.Counts counts, int cpu, List<Worker> load, long settleMs) {
        public Options {
            load = List.copyOf(load);
        }
    }

    /**
     * One run of one row, as a plot wants it: the load average beside the run's median and p99.
     *
     * @param row the summary row (0–8 idle, 9–17 loaded)
     * @param load {@code "idle"} or {@code "loaded"}
     * @param run 0-based
     * @param loadAvg the 1-minute load average around the run
     */
    public record RunPoint(
            int row, String load, String what, String call, int run, double loadAvg, long medianNs, long p99Ns) {}

    /**
     * Every filtered run of a host-load results folder, row by row; bad input naming the file and field
     * when the folder is not a host-load one or a row lacks a run's figures.
     */
    public static List<RunPoint> runPoints(Path folder) {
        Path file = folder.resolve("summary.json");
        List<ResultRow> rows = SummaryJson.read(folder).rows();
        List<RunPoint> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (!(rows.get(i) instanceof HostLoadRow r)) {
                throw BadInput.at(
                        file,
                        "reproduction",
                        "a host-load folder's rows expected, found a "
                                + rows.get(i).getClass().getSimpleName());
            }
            List<Double> loads = r.loadAvgRuns() == null ? List.of() : r.loadAvgRuns();
            if (r.runMediansNs() == null
                    || r.runP99Ns() == null
                    || r.runMediansNs().size() < loads.size()
                    || r.runP99Ns().size() < loads.size()) {
                throw BadInput.at(
                        file,
                        "rows[" + i + "]",
                        "load_avg_runs has " + loads.size() + " runs but run_medians_ns or run_p99_ns fewer");
            }
            for (int k = 0; k < loads.size(); k++) {
                out.add(new RunPoint(
                        i,
                        r.load(),
                        r.what(),
                        r.call(),
                        k,
                        loads.get(k),
                        r.runMediansNs().get(k),
                        r.runP99Ns().get(k)));
            }
        }
        return out;
    }

    /** Measures the rows idle and loaded; writes the folder, in a session of its own (see below). */
    public static ReproductionResult run(Options o, ResultsFolder folder, Consumer<String> progress) {
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = run(o, session);
        }
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return r;
        }
        Path written = Kept.keep(folder, r, progress);
        return new ReproductionResult(written, r.summary(), r.interruption(), r.failures(), r.report());
    }

    /**
     * Measures the rows idle and loaded, for the framework to write ({@link Kept}). Once the session is
     * asked to stop no further child starts (nor the load, nor its settling): what was measured is
     * returned marked interrupted, each row with the runs it completed; nothing at all when no run
     * completed.
     */
    public static ReproductionResult run(Options o, Session session) {
        try (Scratch job = Scratch.create(FloorCost.JOB_PREFIX)) {
            return run(o, session, FloorCost.inDir(job));
        }
    }

    private static ReproductionResult run(Options o, Session session, Path inDir) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        List<FloorRow> rows = FloorCost.rows(new FloorCost.Options(o.counts(), o.cpu(), o.cpu(), false), inDir);
        Host host = Host.capture();
        Instant started = Instant.now();
        Host.LoadSampler idleLoads = new Host.LoadSampler();
        Host.LoadSampler loadedLoads = new Host.LoadSampler();
        progress.accept(String.format(
                Locale.ROOT,
                "host-load: %d rows idle, then loaded by %s (settle %d ms); %d runs, %,d + %,d calls; CPU %d",
                rows.size(),
                o.load(),
                o.settleMs(),
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.cpu()));
        List<FloorBench.Measured> idle;
        List<FloorBench.Measured> loaded;
        LoadGenerator.Report report;
        try (SamplesFile samples = folder.createSamples()) {
            idle = FloorBench.run(
                    rows,
                    0,
                    o.counts(),
                    o.cpu(),
                    inDir,
                    samples,
                    idleLoads,
                    s -> progress.accept("idle " + s),
                    session);
            try (LoadGenerator gen = LoadGenerator.start(o.load())) {
                progress.accept(
                        "host-load: load started (threads " + gen.tids() + "), settling " + o.settleMs() + " ms");
                sleep(o.settleMs(), loadedLoads, session);
                loaded = FloorBench.run(
                        rows,
                        rows.size(),
                        o.counts(),
                        o.cpu(),
                        inDir,
                        samples,
                        loadedLoads,
                        s -> progress.accept("loaded " + s),
                        session);
                report = gen.stop();
            }
        }
        List<FloorBench.Measured> all = new ArrayList<>(idle);
        all.addAll(loaded);
        Optional<Interruption.Cause> cause =
                FloorCost.complete(all, o.counts().runs()) ? Optional.empty() : session.stopCause();
        if (cause.isPresent()
                && all.stream().allMatch(m -> m.runs().isEmpty() && m.baseline().isEmpty())) {
            // nothing to keep: the framework (Stoppable) clears the folder
            progress.accept("host-load: " + cause.get().said() + " before any run completed; nothing written");
            return ReproductionResult.nothing(cause);
        }
        cause.ifPresent(
                c -> progress.accept("host-load: " + c.said() + "; writing what was measured to " + folder.target()));
        List<HostLoadRow> summary = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            summary.add(row(idle.get(i), "idle", rows.size() + i, o.counts().runs(), cause.isPresent()));
        }
        for (int i = 0; i < rows.size(); i++) {
            summary.add(row(loaded.get(i), "loaded", i, o.counts().runs(), cause.isPresent()));
        }
        return ReproductionResult.of(
                ReproductionKind.of(HostLoadRow.class, HostLoadSettings.class),
                new Recorded<>(
                        summary, HostLoadSettings.of(o, report, idleLoads, loadedLoads), host, started, Instant.now()),
                cause);
    }

    /** The floor-cost summary row, with the load level, each run's p99, and the twin row's index. */
    static HostLoadRow row(FloorBench.Measured m, String load, int twin, int runsAsked, boolean interrupted) {
        FloorCostRow measured = FloorSummary.of(m, runsAsked, interrupted);
        return new HostLoadRow(
                load,
                measured.withIntervals(RowIntervals.NONE),
                m.runs().stream().map(s -> Stats.of(s).p99()).toList(),
                (long) twin,
                measured.intervals());
    }

    /** A row's added-cost interval cell ({@link RowIntervals#cell}). */
    private static String addedCi(HostLoadRow r) {
        return RowIntervals.cell(r.intervals().added());
    }

    /** Sleeps while sampling the load average every second (so the settling shows in the samples). */
    private static void sleep(long ms, Host.LoadSampler loads, Session stop) {
        long end = System.nanoTime() + ms * 1_000_000;
        loads.sample();
        try {
            while (System.nanoTime() < end && !stop.stopRequested()) {
                Thread.sleep(Math.max(1, Math.min(200, (end - System.nanoTime()) / 1_000_000)));
                loads.sample();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String table(Recorded<HostLoadRow, HostLoadSettings> run) {
        List<HostLoadRow> summary = run.rows();
        Host host = run.host();
        HostLoadSettings o = run.settings();
        LoadGenerator.Report report = o.loadRan();
        StringBuilder md = new StringBuilder("# host-load: the floor-cost rows idle and under load\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s; child on CPU %d; %d runs a row, %,d warm-up + %,d calls a run. "
                        + "Load: %s (kind:cpu:nice:intensity), settled %,d ms before the loaded rows.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                o.cpu(),
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.loadAsked(),
                o.settleMs()));
        md.append(LoadLine.of(host, summary)).append("\n\n");
        int half = summary.size() / 2;
        MarkdownTable t = new MarkdownTable(List.of(
                "what",
                "call",
                "idle: median",
                "p99",
                "added",
                RowIntervals.heading("added"),
                "load avg",
                "loaded: median",
                "p99",
                "added",
                RowIntervals.heading("added"),
                "load avg",
                "p99 loaded / idle"));
        for (int i = 0; i < half; i++) {
            HostLoadRow a = summary.get(i);
            HostLoadRow b = summary.get(half + i);
            t.row(List.of(
                    a.what(),
                    "`" + a.call() + "`",
                    ns(a.medianNs()),
                    ns(a.p99Ns()),
                    add(a.addedNs()),
                    addedCi(a),
                    range(a.loadAvgRuns()),
                    ns(b.medianNs()),
                    ns(b.p99Ns()),
                    add(b.addedNs()),
                    addedCi(b),
                    range(b.loadAvgRuns()),
                    a.p99Ns() != null && b.p99Ns() != null && a.p99Ns() > 0
                            ? String.format(Locale.ROOT, "%.2f×", (double) b.p99Ns() / a.p99Ns())
                            : "—"));
        }
        md.append(t.render()).append('\n');
        md.append("Each run (filtered), its load average (1 min, mean of before and after) beside its median and "
                + "p99:\n\n");
        MarkdownTable r = new MarkdownTable(List.of("row", "load", "what", "call", "run", "load avg", "median", "p99"));
        for (int i = 0; i < summary.size(); i++) {
            HostLoadRow s = summary.get(i);
            List<Double> la = s.loadAvgRuns();
            List<Long> med = s.runMediansNs();
            List<Long> p99 = s.runP99Ns();
            for (int k = 0; k < med.size(); k++) {
                r.row(List.of(
                        String.valueOf(i),
                        s.load(),
                        s.what(),
                        "`" + s.call() + "`",
                        String.valueOf(k + 1),
                        String.format(Locale.ROOT, "%.2f", la.get(k)),
                        MarkdownTable.ns(med.get(k)),
                        MarkdownTable.ns(p99.get(k))));
            }
        }
        md.append(r.render()).append('\n');
        md.append("What the load ran:\n\n");
        for (LoadGenerator.WorkerReport w : report.workers()) {
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: thread %d on CPU %d at nice %d, busy %.0f%% of %.1f s, %,d %s%n",
                    w.worker(),
                    w.tid(),
                    w.cpuGranted(),
                    w.niceGranted(),
                    100 * w.dutyCycle(),
                    w.elapsedNs() / 1e9,
                    w.loops(),
                    w.worker().kind() == Worker.Kind.SPIN ? "loop iterations" : "getppid calls"));
        }
        md.append("\nThe 1-minute load average lags the load (about 1 − e^(−t/60) of a step after t seconds); "
                + "environment.json has the samples and the runnable counts.\n");
        return md.toString();
    }

    private static String ns(Long v) {
        return v != null ? MarkdownTable.ns(v) : "—";
    }

    private static String add(Long v) {
        return v != null ? MarkdownTable.added(v) : "—";
    }

    private static String range(List<Double> l) {
        if (l == null || l.isEmpty()) {
            return "—";
        }
        double lo = l.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        double hi = l.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        return String.format(Locale.ROOT, "%.2f–%.2f", lo, hi);
    }
}
