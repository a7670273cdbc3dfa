package heimdall.lab.reproduce.floorcost;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Profile;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.PublishedFloorCost;
import heimdall.lab.results.PublishedFloorRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The floor-cost table of seed {@code 000}: what a call costs under the static floor, the floor with
 * three answers and the stacked floors of two fixtures (rows 1–9), and what a brokered {@code openat}
 * costs through a supervisor answering CONTINUE or brokering the open (rows 10–15), with both a
 * native and a Java supervisor, plus rows for faster round trips (the supervisor on the child's CPU,
 * both unpinned or on a shared set of CPUs, the synchronous wake-up) and the host's floor for a round
 * trip in each placement (a pipe ping-pong, no seccomp), against which every round trip is a ratio.
 */
public final class FloorCost {
    /** How a run's calls are placed in the runner's code, as {@code environment.json} says it. */
    public static final String CODE_PLACEMENT =
            "run i of every plain-call row and of its baseline times its calls with the runner's "
                    + "copy i mod 4 of the loop (16-byte steps within a 64-byte code line); attach and fork loops "
                    + "have one copy";

    private FloorCost() {}

    /** The call brokered by the three-answer and stacked floors. */
    public static final Set<String> BROKERED = Set.of("openat");

    /**
     * What to run.
     *
     * @param counts runs and calls per row
     * @param cpu the measuring CPU (the child's)
     * @param supervisorCpu the supervisor's own CPU
     * @param brokerRows whether to measure rows 10–15 and the round-trip rows
     */
    public record Options(FloorBench.Counts counts, int cpu, int supervisorCpu, boolean brokerRows) {}

    /**
     * What a run wrote.
     *
     * @param interruption the signal that stopped the measurement, if one did
     */
    public record Result(Path folder, List<FloorCostRow> summary, Optional<Interruption.Cause> interruption) {
        /** Rows whose child did not complete (killed by its floor, refused). */
        public List<FloorCostRow> failed() {
            return summary.stream().filter(r -> "failed".equals(r.status())).toList();
        }
    }

    /**
     * The rows for describing them (labels, published twins): their openat names a file that can never
     * exist ({@link #NOT_MADE}); a run builds its own with {@link #rows(Options, Path)} beneath its
     * private job folder.
     */
    public static List<FloorRow> rows(Options o) {
        return rows(o, NOT_MADE);
    }

    /** Where {@link #rows(Options)} points openat: below {@code /dev/null}, so nothing can be planted there. */
    static final Path NOT_MADE = Path.of("/dev/null/in");

    /**
     * The published rows, and ours in the same order, with the brokered rows twice (native, Java);
     * openat opens {@code data.txt} in {@code inDir} (see {@link #inDir(Scratch)}).
     */
    public static List<FloorRow> rows(Options o, Path inDir) {
        Profile abcdf = Fixtures.profile("abcdf");
        Profile wasm = Fixtures.profile("heimdall-wasm-host");
        Floor staticAbcdf = Floors.staticFloor("static floor, abcdf", abcdf);
        Floor staticWasm = Floors.staticFloor("static floor, wasm host", wasm);
        Floor threeAbcdf = Floors.threeAnswers("three answers, abcdf", abcdf, BROKERED);
        Floor threeWasm = Floors.threeAnswers("three answers, wasm host", wasm, BROKERED);
        Floor stackedWasm = Floors.stacked("stacked, wasm host", wasm, BROKERED);
        Path data = inDir.resolve(DATA_FILE);
        Call openat = Call.openat(data);

        List<FloorRow> rows = new ArrayList<>();
        rows.add(row(staticAbcdf, Call.GETPPID, null));
        rows.add(row(staticAbcdf, Call.MPROTECT, null));
        rows.add(row(staticAbcdf, openat, null));
        rows.add(row(staticWasm, Call.GETTID, null));
        rows.add(row(staticWasm, Call.PRCTL_SET_NAME, null));
        rows.add(row(staticWasm, Call.MPROTECT, null));
        rows.add(row(threeAbcdf, Call.MPROTECT, null));
        rows.add(row(threeWasm, Call.PRCTL_SET_NAME, null));
        rows.add(row(stackedWasm, Call.PRCTL_SET_NAME, null));
        if (!o.brokerRows()) {
            return rows;
        }
        for (Floor floor : List.of(threeAbcdf, threeWasm, stackedWasm)) {
            for (Answer answer : List.of(Answer.CONTINUE, Answer.BROKER)) {
                for (Supervisor.Kind kind : Supervisor.Kind.values()) {
                    rows.add(row(
                            floor, openat, new FloorRow.Brokering(kind, answer, OWN_CPU, o.supervisorCpu(), false)));
                }
            }
        }
        // Faster round trips: the supervisor where the child runs, and the synchronous wake-up.
        for (Answer answer : List.of(Answer.CONTINUE, Answer.BROKER)) {
            for (Supervisor.Kind kind : Supervisor.Kind.values()) {
                rows.add(row(threeAbcdf, openat, new FloorRow.Brokering(kind, answer, CHILDS_CPU, o.cpu(), false)));
                rows.add(row(threeAbcdf, openat, new FloorRow.Brokering(kind, answer, CHILDS_CPU, o.cpu(), true)));
                rows.add(row(
                        threeAbcdf, openat, new FloorRow.Brokering(kind, answer, OWN_CPU, o.supervisorCpu(), true)));
            }
        }
        // Where a synchronous wake-up can act: child and supervisor free to migrate (within the allowed
        // CPUs), or both on one set of CPUs (the child's and the supervisor's).
        long allowed = mask(Cpus.allowed());
        long shared = mask(List.of(o.cpu(), o.supervisorCpu()));
        for (Answer answer : List.of(Answer.CONTINUE, Answer.BROKER)) {
            for (Supervisor.Kind kind : Supervisor.Kind.values()) {
                for (boolean sync : List.of(false, true)) {
                    rows.add(
                            row(threeAbcdf, openat, new FloorRow.Brokering(kind, answer, UNPINNED, -1, sync, allowed)));
                    rows.add(row(
                            threeAbcdf, openat, new FloorRow.Brokering(kind, answer, SHARED_SET, -1, sync, shared)));
                }
            }
        }
        // The host's floor for a round trip, in every placement: a pipe ping-pong, no seccomp.
        Floor none = new Floor(REFERENCE, List.of(), -1);
        rows.add(row(
                none,
                Call.PINGPONG,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, OWN_CPU, o.supervisorCpu(), false)));
        rows.add(row(
                none,
                Call.PINGPONG,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, CHILDS_CPU, o.cpu(), false)));
        rows.add(row(
                none,
                Call.PINGPONG,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, UNPINNED, -1, false, allowed)));
        rows.add(row(
                none,
                Call.PINGPONG,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, SHARED_SET, -1, false, shared)));
        // The same floor measured the way a brokered openat's added cost is: the ping-pong, then the
        // openat, less the openat alone (a call right after a round trip runs on caches the other
        // side has used, and a brokered CONTINUE's added cost includes that too).
        Floor noneThenCall = new Floor(REFERENCE_THEN_OPENAT, List.of(), -1);
        Call pingThenOpen = Call.pingPongThenOpenat(data);
        rows.add(row(
                noneThenCall,
                pingThenOpen,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, OWN_CPU, o.supervisorCpu(), false)));
        rows.add(row(
                noneThenCall,
                pingThenOpen,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, CHILDS_CPU, o.cpu(), false)));
        rows.add(row(
                noneThenCall,
                pingThenOpen,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, UNPINNED, -1, false, allowed)));
        rows.add(row(
                noneThenCall,
                pingThenOpen,
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, SHARED_SET, -1, false, shared)));
        // The true floor of a round trip: the kernel's notify loop, in every placement, wake-up off and on,
        // on the kernel benchmark's gettid and on the rows' own openat.
        rows.addAll(NotifyLoopFloor.rows(o, allowed, shared, openat));
        // The loop and the supervisors on one filter, in rounds back to back: their ratio, sharply.
        rows.addAll(PairedRoundTrips.rows(NotifyLoopFloor.placements(o, allowed, shared), openat));
        return rows;
    }

    /** The CPUs as a set of bits (bit c = CPU c); CPUs from 64 up cannot be named this way. */
    static long mask(List<Integer> cpus) {
        long m = 0;
        for (int c : cpus) {
            if (c < 0 || c >= 64) {
                throw BadInput.at("allowed CPUs", "cpu", "CPU " + c + " is beyond the 64 a CPU set can name here");
            }
            m |= 1L << c;
        }
        return m;
    }

    public static final String OWN_CPU = "own CPU";
    static final String CHILDS_CPU = "child's CPU";
    /** Child and supervisor both free to migrate among the allowed CPUs. */
    static final String UNPINNED = "unpinned";
    /** Child and supervisor both free on the same set: the child's CPU and the supervisor's. */
    static final String SHARED_SET = "shared set";
    /** The reference rows' label: a pipe ping-pong with a partner in the supervisor's place. */
    static final String REFERENCE = "round-trip floor: pipe ping-pong, no seccomp";

    /** The reference rows measured like a brokered openat: the ping-pong, then the openat. */
    static final String REFERENCE_THEN_OPENAT = "round-trip floor: pipe ping-pong then openat, no seccomp";

    /** A summary row's {@code reference} value for a bare ping-pong (FloorSummary). */
    static final String PURE = "pipe ping-pong";

    public static final String DATA_FILE = "data.txt";

    private static FloorRow row(Floor floor, Call call, FloorRow.Brokering broker) {
        FloorRow draft = new FloorRow(floor.name(), floor, call, broker, null);
        return new FloorRow(floor.name(), floor, call, broker, published(draft));
    }

    /** The published row for {@code row}: same label, call and answer; none for our extra rows. */
    static PublishedFloorRow published(FloorRow row) {
        if (row.reference()
                || row.brokered()
                        && (!row.broker().placement().equals(OWN_CPU)
                                || row.broker().syncWakeUp())) {
            return null;
        }
        return PublishedFloorCost.read()
                .twin(
                        row.what(),
                        row.callName(),
                        row.brokered() ? row.broker().answer().label() : null)
                .orElse(null);
    }

    /**
     * Makes the job's {@code in/} directory inside {@code job} (a private scratch folder, never a
     * predictable name) with the file that {@code openat} opens, created exclusively.
     */
    public static Path inDir(Scratch job) {
        Path dir = job.newDirectory("in");
        try {
            SafeFiles.writeNew(
                    dir.resolve(DATA_FILE),
                    "heimdall-lab: the file a measured openat opens\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the job's " + dir.resolve(DATA_FILE), e);
        }
        return dir;
    }

    /** The job folder's prefix under {@code java.io.tmpdir} (a random suffix follows). */
    public static final String JOB_PREFIX = "heimdall-lab-job-";

    /**
     * Measures every row and writes the results folder (never an existing one), in a session of its
     * own (a notebook's call): Ctrl-C, SIGTERM or a notebook interrupt while it runs stops it, see
     * {@link #run(Options, Session)}.
     */
    public static Result run(Options o, ResultsFolder folder, Consumer<String> progress) {
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = run(o, session);
        }
        @SuppressWarnings("unchecked") // floor-cost's rows, as its body recorded them
        List<FloorCostRow> rows = (List<FloorCostRow>) r.summary();
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return new Result(folder.target(), rows, r.interruption());
        }
        return new Result(Kept.keep(folder, r, progress), rows, r.interruption());
    }

    /**
     * Measures every row, stopping before the next child once the session is asked to (its signal has
     * ended the running child), and returns what was measured for the framework to write ({@link Kept}):
     * marked interrupted after a stop, each row with the runs it completed; {@link ReproductionResult#nothing}
     * when no run had completed.
     */
    public static ReproductionResult run(Options o, Session session) {
        // The job folder is private and goes with the run. A signal does not end the JVM (the run
        // stops and closes it); a second one does, and the folder goes with it at once.
        try (Scratch job = Scratch.create(JOB_PREFIX)) {
            return run(o, session, inDir(job));
        }
    }

    private static ReproductionResult run(Options o, Session session, Path inDir) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        List<FloorRow> rows = rows(o, inDir);
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        long pairedRows = rows.stream().filter(PairedRoundTrips::isPaired).count();
        FloorBench.Counts pairedCounts = PairedRoundTrips.counts(o.counts());
        progress.accept(String.format(
                Locale.ROOT,
                "floor-cost: %d rows, %d runs each, %,d + %,d calls (brokered %,d + %,d); child on CPU %d, "
                        + "supervisor on CPU %d%s",
                rows.size() - pairedRows,
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.counts().brokerWarmup(),
                o.counts().brokerCount(),
                o.cpu(),
                o.supervisorCpu(),
                pairedRows == 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; then %d paired rows, %d rounds of %,d + %,d calls",
                                pairedRows,
                                pairedCounts.runs(),
                                pairedCounts.brokerWarmup(),
                                pairedCounts.brokerCount())));
        Instant started = Instant.now();
        long[] timer;
        try {
            timer = MeasuredChild.timerCost(o.cpu(), 1_000_000).samples();
        } catch (Refusal e) {
            if (!session.stopRequested()) {
                throw e;
            }
            timer = null; // the signal ended the timer's child
        }
        List<FloorBench.Measured> measured = new ArrayList<>();
        List<FloorRow> table =
                rows.stream().filter(r -> !PairedRoundTrips.isPaired(r)).toList();
        boolean complete = true;
        if (!session.stopRequested()) {
            try (SamplesFile samples = folder.createSamples()) {
                measured.addAll(
                        FloorBench.run(table, 0, o.counts(), o.cpu(), inDir, samples, loads, progress, session));
                complete = complete(measured, o.counts().runs());
                // Each group of the paired rounds on its own, so that its rounds run back to back (after a
                // stop, each returns its rows with no run at once).
                int rowBase = table.size();
                for (List<FloorRow> group : PairedRoundTrips.groups(rows)) {
                    List<FloorBench.Measured> m = FloorBench.run(
                            group, rowBase, pairedCounts, o.cpu(), inDir, samples, loads, progress, session);
                    complete &= complete(m, pairedCounts.runs());
                    measured.addAll(m);
                    rowBase += group.size();
                }
            }
        }
        // A signal that came after the last run stopped nothing: the run is complete.
        Optional<Interruption.Cause> cause = measured.isEmpty() || !complete ? session.stopCause() : Optional.empty();
        if (cause.isPresent()
                && measured.stream()
                        .allMatch(m -> m.runs().isEmpty() && m.baseline().isEmpty())) {
            // nothing to keep: the framework (Stoppable) clears the folder
            progress.accept("floor-cost: " + cause.get().said() + " before any run completed; nothing written");
            return ReproductionResult.nothing(cause);
        }
        cause.ifPresent(
                c -> progress.accept("floor-cost: " + c.said() + "; writing what was measured to " + folder.target()));
        return recorded(o, measured, host, loads, timer, started, cause);
    }

    /** Whether every row has all its runs, or stopped at a failure of its own. */
    public static boolean complete(List<FloorBench.Measured> measured, int runs) {
        return measured.stream()
                .allMatch(m -> m.failure() != null
                        || (m.runs().size() >= runs && m.baseline().size() >= runs));
    }

    /** The rows of what was measured, with their cross-row ratios, and the settings the table is made from. */
    private static ReproductionResult recorded(
            Options o,
            List<FloorBench.Measured> measured,
            Host host,
            Host.LoadSampler loads,
            long[] timer,
            Instant started,
            Optional<Interruption.Cause> cause) {
        List<FloorCostRow> measuredRows = new ArrayList<>();
        int pairedRuns = PairedRoundTrips.counts(o.counts()).runs();
        for (FloorBench.Measured m : measured) {
            int runs =
                    PairedRoundTrips.isPaired(m.row()) ? pairedRuns : o.counts().runs();
            measuredRows.add(FloorSummary.of(m, runs, cause.isPresent()));
        }
        List<FloorCostRow> summary = FloorCostRatios.addRatios(measuredRows);
        return ReproductionResult.of(
                ReproductionKind.of(FloorCostRow.class, FloorCostSettings.class),
                new Recorded<>(summary, FloorCostSettings.of(o, timer, loads), host, started, Instant.now()),
                cause);
    }
}
