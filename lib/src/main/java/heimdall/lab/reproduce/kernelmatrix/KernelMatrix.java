package heimdall.lab.reproduce.kernelmatrix;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Program;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.features.Feature;
import heimdall.lab.features.FeatureProbes;
import heimdall.lab.features.FeatureRecord;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.reproduce.kernelbitmap.BitmapEstimates;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.KernelMatrixRow.Section;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.RunCounts;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code ./lab reproduce kernel-matrix}: for each named kernel, the running kernel's {@link Feature}s
 * predicted and observed, quick floor-cost rows (a bare allow, an argument rule, a brokered openat),
 * what kernel-bitmap expects there and quick follower-cost rows, each refusal said. The host's part
 * runs in this process ({@link #part}); another kernel's runs in a guest ({@link GuestPart}) as the
 * same reproduction with {@code --kernels host}, whose folder this one reads and keeps beneath
 * {@code kernels/}.
 */
public final class KernelMatrix {
    private KernelMatrix() {}

    /** The kernels a name may be: this machine's, or one of Debian's that {@code ./lab vm} fetches. */
    public static final List<String> KNOWN = List.of("host", "debian:5.10", "debian:6.1", "debian:6.12");

    /**
     * What to run.
     *
     * @param kernels the kernels, in order ({@code host} runs here)
     * @param quick whether the guests run {@code --quick} too (and the host's part uses the quick counts)
     * @param floor floor-cost's counts for the three rows
     * @param follower follower-cost's options
     * @param supervisorCpu the broker's CPU for the brokered openat
     * @param guestMinutes how long a guest's part may take before it is ended and refused
     */
    public record Options(
            List<String> kernels,
            boolean quick,
            FloorBench.Counts floor,
            FollowerCost.Options follower,
            int supervisorCpu,
            long guestMinutes) {
        public Options {
            kernels = List.copyOf(kernels);
        }
    }

    /** Parses {@code --kernels}: known names, comma-separated, each once; bad input naming the option otherwise. */
    public static List<String> parseKernels(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String k : text.split(",", -1)) {
            String name = k.strip();
            if (!KNOWN.contains(name)) {
                throw new BadInput("--kernels: unknown kernel \"" + name + "\"; one of " + String.join(", ", KNOWN));
            }
            if (!out.add(name)) {
                throw new BadInput("--kernels: \"" + name + "\" is named twice");
            }
        }
        return List.copyOf(out);
    }

    /**
     * Measures every kernel's part and writes {@code folder}, in a session of its own (a notebook's call:
     * Ctrl-C, SIGTERM or a notebook interrupt stops it), as {@code ./lab reproduce} does ({@link Kept}).
     */
    public static ReproductionResult run(Options o, ResultsFolder folder, Consumer<String> progress) {
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = run(o, session);
        }
        Path written = Kept.keep(folder, r, progress);
        return new ReproductionResult(written, r.summary(), r.interruption(), r.failures(), r.report());
    }

    /**
     * Measures every kernel's part (a guest's writes its own folder beneath the session's) and returns the
     * rows for the framework to write ({@link Kept}); a stop skips the kernels not reached, each given a
     * row saying so.
     */
    public static ReproductionResult run(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        Host host = Host.capture();
        Instant started = Instant.now();
        List<KernelMatrixRow> rows = new ArrayList<>();
        List<GuestPart.Guest> guests = new ArrayList<>();
        for (String kernel : o.kernels()) {
            if (session.stopRequested()) {
                rows.add(kernelRow(
                        kernel, "?", false, RowStatus.NOT_MEASURED, "the run was stopped before this kernel"));
                continue;
            }
            progress.accept("kernel-matrix: " + kernel);
            if (kernel.equals("host")) {
                rows.addAll(part(o, "host", false, session));
            } else {
                GuestPart.Outcome g = GuestPart.run(o, kernel, folder.path(), session);
                rows.addAll(g.rows());
                guests.add(g.settings());
            }
        }
        Optional<Interruption.Cause> cause = session.stopCause();
        return ReproductionResult.of(
                ReproductionKind.of(KernelMatrixRow.class, KernelMatrixSettings.class),
                new Recorded<>(rows, KernelMatrixSettings.of(o, guests), host, started, Instant.now()),
                cause);
    }

    /**
     * The per-kernel part on the running kernel, called {@code kernel} in the rows: the features, the
     * floor-cost rows, kernel-bitmap's expectations, the follower-cost rows.
     */
    static List<KernelMatrixRow> part(Options o, String kernel, boolean emulated, Session session) {
        Consumer<String> progress = session.progress();
        String release = System.getProperty("os.version");
        List<KernelMatrixRow> rows = new ArrayList<>();
        List<FeatureRecord> features = FeatureProbes.observeAll(progress);
        KernelMatrixRow.Kernel on = new KernelMatrixRow.Kernel(kernel, release, emulated);
        for (FeatureRecord f : features) {
            rows.add(new KernelMatrixRow(
                    on,
                    Section.FEATURE,
                    f.feature(),
                    f.observed() == null ? RowStatus.NOT_OBSERVABLE : RowStatus.OK,
                    null,
                    new KernelMatrixRow.Prediction(f.since(), f.predicted(), f.observed(), f.agrees()),
                    f.note(),
                    KernelMatrixRow.Figures.NONE,
                    RunCounts.NONE,
                    RowIntervals.NONE));
        }
        if (!session.stopRequested()) {
            boolean noSend = features.stream()
                    .anyMatch(f -> f.feature().equals(Feature.ADDFD_SEND.label()) && "no".equals(f.observed()));
            rows.addAll(floorRows(o, on, noSend, session));
        }
        rows.addAll(bitmapExpectations(on, features));
        if (!session.stopRequested()) {
            rows.addAll(followerRows(o, on, session));
        }
        return rows;
    }

    /**
     * floor-cost's rows 1 (getppid: a bare allow), 2 (mprotect: an argument rule) and a brokered openat (native, own
     * CPU).
     */
    static List<FloorRow> floorSubset(Options o, Path inDir) {
        FloorCost.Options fo = new FloorCost.Options(o.floor(), o.follower().cpu(), o.supervisorCpu(), true);
        List<FloorRow> all = FloorCost.rows(fo, inDir);
        List<FloorRow> out = new ArrayList<>(all.subList(0, 2));
        all.stream()
                .filter(r -> r.brokered()
                        && r.floor().name().equals("three answers, abcdf")
                        && r.broker().supervisor() == Supervisor.Kind.NATIVE
                        && r.broker().answer().equals(Answer.BROKER)
                        && r.broker().placement().equals(FloorCost.OWN_CPU)
                        && !r.broker().syncWakeUp())
                .findFirst()
                .ifPresent(out::add);
        return out;
    }

    /** Why a brokered row fails on a kernel without ADDFD's SEND flag: the broker has no other path. */
    static final String NO_SEND =
            "this kernel has no SECCOMP_ADDFD_FLAG_SEND (Linux 5.14): the broker installs the descriptor and "
                    + "answers the call in one SECCOMP_IOCTL_NOTIF_ADDFD with that flag, which the kernel refuses "
                    + "with EINVAL; the broker "
                    + "has no ADDFD-then-SEND path, so the call is answered with that error";

    private static List<KernelMatrixRow> floorRows(
            Options o, KernelMatrixRow.Kernel on, boolean noSend, Session session) {
        Consumer<String> progress = session.progress();
        List<KernelMatrixRow> rows = new ArrayList<>();
        try (Scratch job = Scratch.create(FloorCost.JOB_PREFIX)) {
            Path inDir = FloorCost.inDir(job);
            List<FloorRow> subset = floorSubset(o, inDir);
            List<FloorBench.Measured> measured;
            try (SamplesFile samples = SamplesFile.create(job.path().resolve("samples.arrow"))) {
                measured = FloorBench.run(
                        subset,
                        0,
                        o.floor(),
                        o.follower().cpu(),
                        inDir,
                        samples,
                        new Host.LoadSampler(),
                        progress,
                        session);
            }
            for (FloorBench.Measured m : measured) {
                FloorCostRow f = FloorSummary.of(m, o.floor().runs(), session.stopRequested());
                String what = f.what() + " · " + f.call()
                        + (f.supervisor() != null ? " · " + f.supervisor() + " " + f.answer() : "");
                boolean ok = f.failure() == null && f.addedNs() != null;
                String failure = f.failure() != null
                                && noSend
                                && f.supervisor() != null
                                && f.failure().contains("errno 22")
                        ? f.failure() + "; " + NO_SEND
                        : f.failure();
                rows.add(new KernelMatrixRow(
                        on,
                        Section.FLOOR_COST,
                        what,
                        ok ? RowStatus.OK : f.failure() != null ? RowStatus.REFUSED : RowStatus.NOT_MEASURED,
                        failure,
                        KernelMatrixRow.Prediction.NONE,
                        null,
                        new KernelMatrixRow.Figures(
                                f.medianNoneNs(),
                                f.medianNs(),
                                f.addedNs(),
                                ratio(f.addedNs(), f.medianNoneNs()),
                                f.noisy()),
                        new RunCounts(f.runsAsked(), f.runsCompleted(), f.interrupted()),
                        f.intervals()));
            }
        } catch (Refusal e) {
            rows.add(unmeasured(on, Section.FLOOR_COST, "floor-cost rows", RowStatus.REFUSED, e.getMessage()));
        }
        return rows;
    }

    /**
     * What kernel-bitmap expects on this kernel, per configuration: with an action cache (observed, or
     * predicted where it cannot be observed) a filter that allows getpid outright is answered from
     * the cache, so its call should cost about the native one; without it every filter runs.
     */
    static List<KernelMatrixRow> bitmapExpectations(KernelMatrixRow.Kernel on, List<FeatureRecord> features) {
        FeatureRecord cache = features.stream()
                .filter(f -> f.feature().equals(Feature.ACTION_CACHE.label()))
                .findFirst()
                .orElseThrow();
        boolean hasCache = "yes".equals(cache.observed() != null ? cache.observed() : cache.predicted());
        String basis = cache.observed() != null
                ? "the action cache observed"
                : "the action cache predicted from the version (not observable)";
        List<List<Program>> configs = KernelBitmap.configurations();
        List<KernelMatrixRow> rows = new ArrayList<>();
        for (int c = 1; c < configs.size(); c++) {
            boolean cacheable = CachePredictor.cacheable(configs.get(c), Call.GETPID.nr());
            String expected = !cacheable
                    ? "every filter runs (its answer depends on the call's arguments)"
                    : hasCache
                            ? "answered from the action cache: about the native call"
                            : "every filter runs: no action cache";
            rows.add(new KernelMatrixRow(
                    on,
                    Section.KERNEL_BITMAP,
                    BitmapEstimates.CONFIGURATIONS.get(c),
                    RowStatus.EXPECTED,
                    null,
                    new KernelMatrixRow.Prediction("5.11", expected, null, null),
                    basis + (hasCache ? ": yes" : ": no") + "; the filter " + (cacheable ? "is" : "is not")
                            + " cacheable (CachePredictor)",
                    KernelMatrixRow.Figures.NONE,
                    RunCounts.NONE,
                    RowIntervals.NONE));
        }
        return rows;
    }

    private static List<KernelMatrixRow> followerRows(Options o, KernelMatrixRow.Kernel on, Session session) {
        List<KernelMatrixRow> rows = new ArrayList<>();
        try (Scratch job = Scratch.create("heimdall-lab-kernel-matrix-")) {
            // follower-cost's samples go to a scratch folder of its own; its rows are this kernel's
            ResultsFolder sub = ResultsFolder.chosen(job.path().resolve("follower-cost"));
            FollowerCost.Measured r = FollowerCost.measure(o.follower(), session.in(sub));
            sub.abandon();
            for (FollowerCostRow f : r.rows()) {
                FollowerCostRow.Subject s = f.subject();
                String what = s.measure().label() + " · " + s.hook() + " · " + s.process()
                        + (f.isDivergence() ? "" : " · " + s.call());
                Long completed = f.divergence().callsCompletedFromDivergence();
                String note = f.isDivergence() && completed != null
                        ? "calls completed from the divergent call on: " + completed + " (goal: 1)"
                        : null;
                FollowerCostRow.Figures m = f.figures();
                rows.add(new KernelMatrixRow(
                        on,
                        Section.FOLLOWER_COST,
                        what,
                        f.outcome(),
                        f.reason(),
                        KernelMatrixRow.Prediction.NONE,
                        note,
                        new KernelMatrixRow.Figures(
                                m.medianWithoutNs(),
                                m.medianWithNs(),
                                m.addedNs(),
                                ratio(m.addedNs(), m.medianWithoutNs()),
                                m.noisy()),
                        f.runs(),
                        f.intervals()));
            }
        } catch (Refusal e) {
            rows.add(unmeasured(on, Section.FOLLOWER_COST, "follower-cost rows", RowStatus.REFUSED, e.getMessage()));
        } catch (RuntimeException e) {
            // follower-cost's own failure (not a refusal) has already made itself the run's stop (Session.stopOn):
            // the rows measured so far, this kernel's included, are written, marked, and the failure is raised after.
            session.stopOn(e);
            rows.add(unmeasured(
                    on,
                    Section.FOLLOWER_COST,
                    "follower-cost rows",
                    RowStatus.FAILED,
                    e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
        return rows;
    }

    /** A kernel's one row when its part did not run: the guest refused, failed or was not reached. */
    static KernelMatrixRow kernelRow(String kernel, String release, boolean emulated, RowStatus status, String reason) {
        return unmeasured(
                new KernelMatrixRow.Kernel(kernel, release, emulated),
                Section.KERNEL,
                "the kernel's part",
                status,
                reason);
    }

    /** A row with a status and its reason only: a section that was refused, failed or not reached. */
    private static KernelMatrixRow unmeasured(
            KernelMatrixRow.Kernel on, Section section, String what, RowStatus status, String reason) {
        return new KernelMatrixRow(
                on,
                section,
                what,
                status,
                reason,
                KernelMatrixRow.Prediction.NONE,
                null,
                KernelMatrixRow.Figures.NONE,
                RunCounts.NONE,
                RowIntervals.NONE);
    }

    static Double ratio(Long added, Long base) {
        return added == null || base == null || base <= 0 ? null : (double) added / base;
    }
}
