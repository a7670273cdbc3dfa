package heimdall.lab.reproduce.floorcost;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
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
import heimdall.lab.reproduce.LoadLine;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.PublishedFloorCost;
import heimdall.lab.results.PublishedFloorRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

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
        // The true floor of a round trip: the kernel's notify loop, in every placement, wake-up off and on.
        rows.addAll(NotifyLoopFloor.rows(o, allowed, shared));
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
    private static final String PURE = "pipe ping-pong";

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
        progress.accept(String.format(
                Locale.ROOT,
                "floor-cost: %d rows, %d runs each, %,d + %,d calls (brokered %,d + %,d); child on CPU %d, "
                        + "supervisor on CPU %d",
                rows.size(),
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.counts().brokerWarmup(),
                o.counts().brokerCount(),
                o.cpu(),
                o.supervisorCpu()));
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
        List<FloorBench.Measured> measured = List.of();
        if (!session.stopRequested()) {
            try (SamplesFile samples = folder.createSamples()) {
                measured = FloorBench.run(rows, 0, o.counts(), o.cpu(), inDir, samples, loads, progress, session);
            }
        }
        // A signal that came after the last run stopped nothing: the run is complete.
        Optional<Interruption.Cause> cause =
                measured.isEmpty() || !complete(measured, o.counts().runs()) ? session.stopCause() : Optional.empty();
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
        for (FloorBench.Measured m : measured) {
            measuredRows.add(FloorSummary.of(m, o.counts().runs(), cause.isPresent()));
        }
        List<FloorCostRow> summary = addRatios(measuredRows);
        return ReproductionResult.of(
                ReproductionKind.of(FloorCostRow.class, FloorCostSettings.class),
                new Recorded<>(summary, FloorCostSettings.of(o, timer, loads), host, started, Instant.now()),
                cause);
    }

    /**
     * The cross-row figures of one row, null where they do not apply or lack a figure (see
     * {@link #addRatios} and {@link #addFloorRatios}).
     */
    private static final class Ratios {
        Double javaOverNative;
        Double vsDefaultPlacement;
        Double vsBestFloor;
        Double vsBestCallFloor;
        Long floorNs;
        Double roundTripVsFloor;
        Long bestFloorNs;
        Double roundTripVsBestFloor;
        Long callFloorNs;
        Double roundTripVsCallFloor;
        Long bestCallFloorNs;
        Double roundTripVsBestCallFloor;
        NotifyLoopFloor.Against loop = NotifyLoopFloor.Against.NONE;

        /** {@code r} with these figures as its ratios (and the loop's own figures it was measured with). */
        FloorCostRow on(FloorCostRow r) {
            return r.withRatios(new FloorCostRow.Ratios(
                    javaOverNative,
                    vsDefaultPlacement,
                    vsBestFloor,
                    vsBestCallFloor,
                    floorNs,
                    roundTripVsFloor,
                    bestFloorNs,
                    roundTripVsBestFloor,
                    callFloorNs,
                    roundTripVsCallFloor,
                    bestCallFloorNs,
                    roundTripVsBestCallFloor,
                    r.ratios().loopWallNs(),
                    r.ratios().loopMeanNs(),
                    loop.floorNs(),
                    loop.vsFloor()));
        }
    }

    /**
     * Ratios across rows: each Java supervisor row against its native twin, and each faster round
     * trip against the default placement (own CPU, no synchronous wake-up) of the same supervisor,
     * answer and floor; then {@link #addFloorRatios}'s. Returns the rows with them.
     */
    static List<FloorCostRow> addRatios(List<FloorCostRow> summary) {
        List<Ratios> ratios = new ArrayList<>();
        for (FloorCostRow r : summary) {
            Ratios x = new Ratios();
            ratios.add(x);
            if (r.supervisor() == null || r.medianNs() == null) {
                continue;
            }
            long median = r.medianNs();
            if (r.supervisor().equals("java")) {
                twin(summary, r, "native", r.placement(), r.syncWakeup())
                        .ifPresent(n -> x.javaOverNative = ratio(median, n));
            }
            boolean fast = !OWN_CPU.equals(r.placement()) || Boolean.TRUE.equals(r.syncWakeup());
            if (fast) {
                twin(summary, r, r.supervisor(), OWN_CPU, false)
                        .ifPresent(d -> x.vsDefaultPlacement = ratio(median, d));
            }
        }
        floorRatios(summary, ratios);
        List<FloorCostRow> out = new ArrayList<>();
        for (int i = 0; i < summary.size(); i++) {
            out.add(ratios.get(i).on(summary.get(i)));
        }
        return out;
    }

    /**
     * Each brokered row's round trip (its {@code added_ns}: the brokered call minus the same call
     * unbrokered) against the host's floor: the ping-pong reference in the same placement
     * ({@code round_trip_vs_floor}, like for like) and the best reference of any placement
     * ({@code round_trip_vs_best_floor}); each reference against the best one ({@code vs_best_floor}).
     * Then the same against the ping-pong-then-openat references, whose floor is their own
     * {@code added_ns} (the ping-pong and openat less the openat alone, the method of a brokered row's
     * {@code added}): {@code call_floor_ns}, {@code round_trip_vs_call_floor},
     * {@code round_trip_vs_best_call_floor}, and {@code vs_best_call_floor} on those references.
     * Returns the rows with them (and without {@link #addRatios}'s others).
     */
    static List<FloorCostRow> addFloorRatios(List<FloorCostRow> summary) {
        List<Ratios> ratios = summary.stream().map(r -> new Ratios()).toList();
        floorRatios(summary, ratios);
        List<FloorCostRow> out = new ArrayList<>();
        for (int i = 0; i < summary.size(); i++) {
            out.add(ratios.get(i).on(summary.get(i)));
        }
        return out;
    }

    /** {@link #addFloorRatios}' figures, into {@code ratios} (one per row of {@code summary}). */
    private static void floorRatios(List<FloorCostRow> summary, List<Ratios> ratios) {
        Map<String, Long> floor = floors(summary, true);
        Map<String, Long> callFloor = floors(summary, false);
        Long best = floor.values().stream().min(Long::compare).orElse(null);
        Long bestCall = callFloor.values().stream().min(Long::compare).orElse(null);
        List<NotifyLoopFloor.Against> loops = NotifyLoopFloor.against(summary);
        for (int i = 0; i < summary.size(); i++) {
            FloorCostRow r = summary.get(i);
            Ratios x = ratios.get(i);
            x.loop = loops.get(i);
            if (NotifyLoopFloor.isLoop(r)) {
                continue; // the loop is its own floor: against it, the brokered rows (Against)
            }
            if (r.isReference()) {
                boolean pure = PURE.equals(r.reference());
                Long f = pure ? r.medianNs() : r.addedNs();
                Long b = pure ? best : bestCall;
                if (f != null && b != null && b > 0) {
                    if (pure) {
                        x.vsBestFloor = ratio(f, b);
                    } else {
                        x.vsBestCallFloor = ratio(f, b);
                    }
                }
                continue;
            }
            if (r.supervisor() == null || r.addedNs() == null) {
                continue;
            }
            long added = r.addedNs();
            Long same = floor.get(r.placement());
            if (same != null) {
                x.floorNs = same;
                x.roundTripVsFloor = ratio(added, same);
            }
            if (best != null) {
                x.bestFloorNs = best;
                x.roundTripVsBestFloor = ratio(added, best);
            }
            if (!"openat".equals(r.call())) {
                continue; // the call floor is an openat's
            }
            Long sameCall = callFloor.get(r.placement());
            if (sameCall != null && sameCall > 0) {
                x.callFloorNs = sameCall;
                x.roundTripVsCallFloor = ratio(added, sameCall);
            }
            if (bestCall != null && bestCall > 0) {
                x.bestCallFloorNs = bestCall;
                x.roundTripVsBestCallFloor = ratio(added, bestCall);
            }
        }
    }

    /** Per placement, the bare ping-pong's median ({@code pure}) or the ping-pong-then-openat's added cost. */
    private static Map<String, Long> floors(List<FloorCostRow> summary, boolean pure) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (FloorCostRow r : summary) {
            Long m = pure ? r.medianNs() : r.addedNs();
            if (r.isReference() && !NotifyLoopFloor.isLoop(r) && PURE.equals(r.reference()) == pure && m != null) {
                out.putIfAbsent(r.placement(), m);
            }
        }
        return out;
    }

    private static Optional<Long> twin(
            List<FloorCostRow> summary, FloorCostRow r, String supervisor, String placement, Boolean sync) {
        return summary.stream()
                .filter(t -> t != r
                        && Objects.equals(t.what(), r.what())
                        && Objects.equals(t.answer(), r.answer())
                        && Objects.equals(t.supervisor(), supervisor)
                        && Objects.equals(t.placement(), placement)
                        && Objects.equals(t.syncWakeup(), sync)
                        && t.medianNs() != null)
                .map(FloorCostRow::medianNs)
                .findFirst();
    }

    /** A ratio as the table prints it, three decimals, or a dash when there is none. */
    private static String ratio3(Double x) {
        return x != null ? String.format(Locale.ROOT, "%.3f", x) : "—";
    }

    private static double ratio(long a, long b) {
        return Math.round(1000.0 * a / b) / 1000.0;
    }

    /** {@code table.md}: the published layout with our figures and the published ones side by side. */
    static String table(Recorded<FloorCostRow, FloorCostSettings> run) {
        List<FloorCostRow> summary = run.rows();
        Host host = run.host();
        FloorCostSettings o = run.settings();
        long timerNs = o.timerCostNs() == null ? -1 : o.timerCostNs().median();
        StringBuilder md = new StringBuilder();
        md.append("# floor-cost: what a call costs under the floor\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, clocksource %s; child on CPU %d, supervisor on CPU %d. "
                        + "%d runs a row, %,d warm-up and %,d measured calls (brokered: %,d and %,d). Timer cost "
                        + "(back-to-back reads): %d ns.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.clocksource(),
                o.cpu(),
                o.supervisorCpu(),
                o.counts().runs(),
                o.counts().warmup(),
                o.counts().count(),
                o.counts().brokerWarmup(),
                o.counts().brokerCount(),
                timerNs));
        md.append(LoadLine.of(host, summary)).append(' ');
        md.append("Published: 2026-11-08, oden (AMD Threadripper PRO 3975WX, kernel 7.0.0, load 52 to 83). ")
                .append(hostComparison(summary))
                .append("\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "what",
                "call",
                "BPF insns",
                "cache",
                "median, no filter",
                "median, filtered",
                RowIntervals.heading("median"),
                "added",
                RowIntervals.heading("added"),
                "p99, filtered",
                RowIntervals.heading("p99"),
                "spread",
                "published added",
                "added / published"));
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            String call = "`" + r.call() + "`";
            if (NotifyLoopFloor.isLoop(r)) {
                call += " (kernel notify loop" + placementText(r.placement())
                        + (Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "") + ")";
            } else if (r.isReference()) {
                call += " (partner "
                        + (CHILDS_CPU.equals(r.placement())
                                ? "on child's CPU"
                                : OWN_CPU.equals(r.placement()) ? "on own CPU" : r.placement())
                        + ")";
            } else if (r.answer() != null) {
                call += ", " + (r.answer().equals("continue") ? "CONTINUE" : "broker") + " (" + r.supervisor()
                        + placementText(r.placement())
                        + (Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "") + ")";
            }
            boolean failed = "failed".equals(r.status());
            t.row(List.of(
                    r.what(),
                    call,
                    String.valueOf(r.insns()),
                    r.cache() == null ? "—" : r.cache() ? "yes" : "no",
                    nsCell(r.medianNoneNs()),
                    failed ? "FAILED" : nsCell(r.medianNs()),
                    ci(r, RowIntervals::median),
                    r.addedNs() != null ? MarkdownTable.added(r.addedNs()) : "—",
                    ci(r, RowIntervals::added),
                    r.p99Ns() != null ? MarkdownTable.tail(r.p99Ns()) : "—",
                    ci(r, RowIntervals::p99),
                    r.spread() != null
                            ? String.format(
                                    Locale.ROOT,
                                    "%.0f%%%s",
                                    r.spread() * 100,
                                    Boolean.TRUE.equals(r.noisy()) ? " noisy" : "")
                            : "—",
                    p == null ? "—" : MarkdownTable.added(p.addedNs().doubleValue()),
                    r.addedVsPublished() != null ? String.format(Locale.ROOT, "%.2f×", r.addedVsPublished()) : "—"));
        }
        md.append(t.render()).append('\n');
        for (FloorCostRow r : summary) {
            if ("failed".equals(r.status())) {
                md.append("- FAILED: ")
                        .append(r.what())
                        .append(" · ")
                        .append(r.call())
                        .append(": ")
                        .append(r.failure())
                        .append('\n');
            }
            if ("interrupted".equals(r.status())) {
                md.append("- interrupted: ")
                        .append(r.what())
                        .append(" · ")
                        .append(r.call())
                        .append(": ")
                        .append(r.runsCompleted())
                        .append(" of ")
                        .append(r.runsAsked())
                        .append(" runs (")
                        .append(r.runs().runsNoneCompleted())
                        .append(" without the filter)\n");
            }
        }
        List<String> ratios = new ArrayList<>();
        for (FloorCostRow r : summary) {
            if (r.ratios().javaOverNative() != null) {
                ratios.add(String.format(
                        Locale.ROOT,
                        "- Java supervisor / native, %s, %s (%s%s): %.3f×",
                        r.what(),
                        r.answer(),
                        r.placement(),
                        Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "",
                        r.ratios().javaOverNative()));
            }
        }
        for (FloorCostRow r : summary) {
            if (r.ratios().vsDefaultPlacement() != null) {
                ratios.add(String.format(
                        Locale.ROOT,
                        "- %s supervisor on %s%s vs own CPU, %s, %s: %.3f× the median",
                        r.supervisor(),
                        r.placement(),
                        Boolean.TRUE.equals(r.syncWakeup()) ? " with sync wake-up" : "",
                        r.what(),
                        r.answer(),
                        r.ratios().vsDefaultPlacement()));
            }
        }
        if (!ratios.isEmpty()) {
            md.append("\nRatios (medians from this one run):\n\n");
            ratios.forEach(x -> md.append(x).append('\n'));
        }
        md.append(floorSection(summary));
        md.append(NotifyLoopFloor.section(summary));
        md.append("\n`added` is a row's median minus the median of the same call with no filter, both measured in this "
                + "run; "
                + "`spread` is (max − min) / median of the per-run medians, flagged noisy over 25%. "
                + "Intervals (ns) are distribution-free: order statistics over the runs' medians and p99s, "
                + "and for "
                + "`added` the Hodges–Lehmann shift of the run medians; where the runs are too few for 95% the "
                + "coverage they reach is given. "
                + "`added / published` compares our added cost with the published one.\n");
        return md.toString();
    }

    /**
     * How this host compares with the published one, computed from the rows: our native
     * {@code getppid} (no filter) against the published one, and the range of ours / published over
     * every row with both medians, unfiltered and filtered. Only a ratio the data holds is stated.
     */
    static String hostComparison(List<FloorCostRow> summary) {
        StringBuilder s = new StringBuilder();
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            if ("getppid".equals(r.call())
                    && p != null
                    && r.medianNoneNs() != null
                    && p.medianNoneNs() != null
                    && p.medianNoneNs() > 0) {
                long ours = r.medianNoneNs();
                long theirs = p.medianNoneNs();
                s.append(String.format(
                        Locale.ROOT,
                        "Here a native `getppid` (no filter) takes %d ns against the published %d ns (%.2f×). ",
                        ours,
                        theirs,
                        (double) ours / theirs));
                break;
            }
        }
        double[] none = ratioRange(summary, FloorCostRow::medianNoneNs, PublishedFloorRow::medianNoneNs);
        double[] filtered = ratioRange(summary, FloorCostRow::medianNs, PublishedFloorRow::medianNs);
        if (none == null && filtered == null) {
            return s.append("No row has both our median and the published one, so no ratio between the hosts is given.")
                    .toString();
        }
        s.append("Across the rows with a published twin, our medians are ");
        if (none != null) {
            s.append(String.format(
                    Locale.ROOT, "%s the published ones without the filter (%d rows)", range(none), (int) none[2]));
        }
        if (filtered != null) {
            s.append(none != null ? " and " : "")
                    .append(String.format(Locale.ROOT, "%s with it (%d rows)", range(filtered), (int) filtered[2]));
        }
        return s.append(". The hosts differ, so compare added costs and ratios, not absolute medians.")
                .toString();
    }

    /** {min, max, count} of our figure / the published one over rows with both; null when none has. */
    private static double[] ratioRange(
            List<FloorCostRow> summary, Function<FloorCostRow, Long> ours, Function<PublishedFloorRow, Long> theirs) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (FloorCostRow r : summary) {
            PublishedFloorRow p = r.published();
            Long a = ours.apply(r);
            Long b = p == null ? null : theirs.apply(p);
            if (a != null && b != null && b > 0) {
                double x = a.doubleValue() / b;
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
                n++;
            }
        }
        return n == 0 ? null : new double[] {lo, hi, n};
    }

    private static String range(double[] r) {
        String lo = String.format(Locale.ROOT, "%.2f", r[0]);
        String hi = String.format(Locale.ROOT, "%.2f", r[1]);
        return lo.equals(hi) ? lo + "×" : lo + "–" + hi + "×";
    }

    /** The call cell's placement words: none for the default, else where the supervisor runs. */
    private static String placementText(String placement) {
        if (OWN_CPU.equals(placement)) {
            return "";
        }
        return CHILDS_CPU.equals(placement) ? ", on child's CPU" : ", " + placement;
    }

    /**
     * The round trips against the host's floor: each reference (the bare ping-pong, and the ping-pong
     * then openat less the openat alone), then each brokered row's added cost over the references of
     * its placement and over the best ones, and the fastest configuration against each.
     */
    static String floorSection(List<FloorCostRow> summary) {
        List<FloorCostRow> refs = summary.stream()
                .filter(r -> PURE.equals(r.reference()) && r.medianNs() != null)
                .toList();
        List<FloorCostRow> callRefs = summary.stream()
                .filter(r -> r.isReference()
                        && !PURE.equals(r.reference())
                        && r.ratios().vsBestCallFloor() != null)
                .toList();
        if (refs.isEmpty() && callRefs.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder(
                "\nRound trips against the host's floor (a pipe ping-pong between the child and a thread in "
                        + "the supervisor's place, no seccomp; a brokered row's round trip is its `added`):\n\n");
        for (FloorCostRow r : refs) {
            md.append(String.format(
                    Locale.ROOT,
                    "- floor, partner %s: %s (%.3f× the best floor)%n",
                    r.placement(),
                    MarkdownTable.ns(r.medianNs()),
                    r.ratios().vsBestFloor()));
        }
        for (FloorCostRow r : callRefs) {
            md.append(String.format(
                    Locale.ROOT,
                    "- call floor, partner %s: ping-pong then `openat` %s, less `openat` alone %s = %s "
                            + "(%.3f× the best call floor)%n",
                    r.placement(),
                    MarkdownTable.ns(r.medianNs()),
                    MarkdownTable.ns(r.medianNoneNs()),
                    MarkdownTable.ns(r.addedNs()),
                    r.ratios().vsBestCallFloor()));
        }
        if (!callRefs.isEmpty()) {
            md.append("\nThe call floor is measured as a brokered row's `added` is (the call after a round trip, less "
                    + "the call "
                    + "alone): an `openat` made right after two context switches runs on caches the other "
                    + "side has used, and "
                    + "a brokered `openat` answered CONTINUE pays that too.\n\n");
        }
        FloorCostRow fastest = null;
        FloorCostRow fastestCall = null;
        for (FloorCostRow r : summary) {
            Double best = r.ratios().roundTripVsBestFloor();
            if (best == null) {
                continue;
            }
            if (fastest == null || best < fastest.ratios().roundTripVsBestFloor()) {
                fastest = r;
            }
            Double bestCall = r.ratios().roundTripVsBestCallFloor();
            if (bestCall != null
                    && (fastestCall == null || bestCall < fastestCall.ratios().roundTripVsBestCallFloor())) {
                fastestCall = r;
            }
            md.append(String.format(
                    Locale.ROOT,
                    "- %s: round trip %s = %s× its placement's floor, %.3f× the best floor",
                    configuration(r),
                    MarkdownTable.added(r.addedNs()),
                    ratio3(r.ratios().roundTripVsFloor()),
                    best));
            if (bestCall != null) {
                md.append(String.format(
                        Locale.ROOT,
                        "; %s× its placement's call floor, %.3f× the best call floor",
                        ratio3(r.ratios().roundTripVsCallFloor()),
                        bestCall));
            }
            md.append('\n');
        }
        if (fastest != null) {
            double best = fastest.ratios().roundTripVsBestFloor();
            md.append(String.format(
                    Locale.ROOT,
                    "%nFastest round trip: %s: %.3f× the best floor (goal: within 1.2×, %s).%n",
                    configuration(fastest),
                    best,
                    best <= 1.2 ? "met" : "not met"));
        }
        if (fastestCall != null) {
            double best = fastestCall.ratios().roundTripVsBestCallFloor();
            md.append(String.format(
                    Locale.ROOT,
                    "Fastest against the call floor (same method): %s: %.3f× the best call floor "
                            + "(within 1.2×: %s).%n",
                    configuration(fastestCall),
                    best,
                    best <= 1.2 ? "yes" : "no"));
        }
        return md.toString();
    }

    /**
     * A brokered row's configuration in words: {@code native supervisor, three answers, abcdf, continue (child's CPU)}.
     */
    private static String configuration(FloorCostRow r) {
        return String.format(
                Locale.ROOT,
                "%s supervisor, %s, %s (%s%s)",
                r.supervisor(),
                r.what(),
                r.answer(),
                r.placement(),
                Boolean.TRUE.equals(r.syncWakeup()) ? ", sync wake-up" : "");
    }

    /** A row's interval cell, in ns ({@link RowIntervals#cell}); {@code "—"} for a row without. */
    private static String ci(FloorCostRow r, Function<RowIntervals, RowIntervals.Ci> which) {
        return RowIntervals.cell(which.apply(r.intervals()));
    }

    private static String nsCell(Long v) {
        return v != null ? MarkdownTable.ns(v) : "—";
    }
}
