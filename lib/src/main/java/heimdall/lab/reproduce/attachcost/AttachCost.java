package heimdall.lab.reproduce.attachcost;

import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Emulator;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.child.AttachBudget;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.PublishedAttachCost;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What installing a filter costs (seed {@code 004}): for floors of growing size, the
 * {@code seccomp(SECCOMP_SET_MODE_FILTER)} call itself in a loop that attaches the same program again
 * and again, each attach timed ("inside") and the whole loop timed with no clock read in it
 * ("outside", the point Kees Cook makes in the seed); the same with a fork (fork a child that
 * attaches once and exits, wait for it), beside a fork whose child only exits; and the time this
 * library takes to compile the floor from its profile (Java, JIT warmed up).
 *
 * <p>The in-process loop is bounded by the kernel's instruction budget per process
 * ({@link AttachBudget}): a floor of L instructions can be attached at most 32772 / (L + 4) times.
 *
 * <p>This class holds the floors, the model, the summary rows and the entry points; the runs of children are
 * {@link AttachCostMeasuring}'s and {@code table.md} {@link AttachCostTable}'s.
 */
public final class AttachCost {
    private AttachCost() {}

    /**
     * A floor to attach: its name, where it came from, the program, and the program the in-process
     * loop attaches. Each attach in the loop is made under the filters attached before it, so a floor
     * that does not allow {@code seccomp(2)} would kill the loop at its second attach: the loop then
     * attaches the floor compiled with one more rule, allowing {@code seccomp}, in front (a few
     * instructions more); the fork variant always attaches the floor as it is.
     */
    public record Floor(String name, String source, Program program, Program loopProgram) {
        public Floor(String name, String source, Program program) {
            this(name, source, program, program);
        }

        public int insns() {
            return program.length();
        }

        /** Whether the loop attaches a program other than the floor itself. */
        public boolean loopAddsSeccomp() {
            return loopProgram != program;
        }
    }

    /** The syscall number of {@code seccomp} on x86_64, and {@code SECCOMP_SET_MODE_FILTER}. */
    static final int NR_SECCOMP = 317;

    static final int SECCOMP_SET_MODE_FILTER = 1;

    /** Whether {@code p} lets a process attach one more filter (allows {@code seccomp(SET_MODE_FILTER, 0, …)}). */
    static boolean allowsAttach(Program p) {
        int action = Emulator.run(p, SeccompData.x86_64(NR_SECCOMP, SECCOMP_SET_MODE_FILTER, 0, 0x1000))
                .action();
        return (action & 0xffff0000) == KernelBitmap.RET_ALLOW;
    }

    /** The floor compiled from {@code profile}, with the loop's variant where the floor forbids the next attach. */
    static Floor fromProfile(String name, String source, Profile profile) {
        Program p = Compiler.compile(profile);
        if (allowsAttach(p)) {
            return new Floor(name, source, p);
        }
        List<SyscallRule> rules = new ArrayList<>();
        rules.add(new SyscallRule(List.of("seccomp"), Action.ALLOW, List.of(), "the attach loop's next attach"));
        rules.addAll(profile.syscalls());
        Program loop = Compiler.compile(new Profile(profile.defaultAction(), profile.architectures(), rules));
        return new Floor(name, source, p, loop);
    }

    /**
     * What to run.
     *
     * @param runs fresh children per floor and variant
     * @param attaches attaches per in-process run (fewer where the budget allows fewer)
     * @param forkWarmup forks before each fork run's measured ones
     * @param forks measured forks per run
     * @param compileWarmup compiles before timing (JIT warm-up)
     * @param compiles timed compiles per floor
     * @param cpu the measuring CPU
     */
    public record Options(int runs, int attaches, int forkWarmup, int forks, int compileWarmup, int compiles, int cpu) {
        public static Options full() {
            return new Options(7, 1000, 100, 2000, 2000, 1000, Cpus.measuring());
        }

        public static Options quick() {
            return new Options(3, 200, 20, 200, 300, 200, Cpus.measuring());
        }
    }

    /** The default podman profile, where podman is installed. */
    public static final Path PODMAN_PROFILE = Path.of("/usr/share/containers/seccomp.json");

    /**
     * The floors, smallest first: a 2-instruction filter, every fixture's {@code x86_64-glibc.json}
     * compiled by {@link Compiler}, and Podman's default profile when {@code podman} is not null and exists.
     */
    public static List<Floor> floors(Path podman, Consumer<String> progress) {
        List<Floor> out = new ArrayList<>();
        out.add(new Floor("2-instruction filter", "load nr, RET ALLOW", KernelBitmap.BITMAP_FILTER));
        Path dir = Fixtures.home().resolve("fixtures/profiles");
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.sorted().toList()) {
                if (Files.isRegularFile(p.resolve("x86_64-glibc.json"))) {
                    String name = p.getFileName().toString();
                    out.add(fromProfile(
                            "static floor, " + name,
                            "fixtures/profiles/" + name + "/x86_64-glibc.json",
                            Fixtures.profile(name)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        if (podman != null && Files.isRegularFile(podman)) {
            ProfileJson.Loaded loaded = ProfileJson.load(podman);
            progress.accept("attach-cost: " + podman + " loaded with "
                    + loaded.warnings().size()
                    + " warnings (other architectures and unknown names left out; see ./lab bpf stats)");
            out.add(fromProfile("podman default", podman.toString(), loaded.profile()));
        } else if (podman != null) {
            progress.accept("attach-cost: " + podman + " is absent: no container profile row");
        }
        out.sort(Comparator.comparingInt(Floor::insns));
        return List.copyOf(out);
    }

    /**
     * One floor's figures.
     *
     * @param attachesPerRun K, the attaches of each in-process run
     * @param budget the most attaches the kernel allows this floor in one process
     * @param attachRuns each in-process run's per-attach samples, ns (in attach order)
     * @param attachLoopNs each in-process run's whole loop with no clock read inside, ns
     * @param forkAttachRuns each fork run's per-call samples (fork, attach in the child, wait), ns
     * @param forkAttachLoopNs each fork run's whole loop, ns
     * @param compileNs the library's compile times, ns (empty for the hand-written filter)
     * @param failure why a run of this floor failed (its child's fate), or null; the lists then hold
     *     what was measured before it
     */
    public record FloorFigures(
            Floor floor,
            int attachesPerRun,
            int budget,
            List<long[]> attachRuns,
            List<Long> attachLoopNs,
            List<long[]> forkAttachRuns,
            List<Long> forkAttachLoopNs,
            long[] compileNs,
            String failure) {
        public boolean ok() {
            return failure == null;
        }

        /** The runs this floor completed (fewer than asked when it failed or a stop came first). */
        public int runsCompleted() {
            return attachRuns.size();
        }

        /** Whether at least one run completed: a stop before the floor's first run leaves it not measured. */
        public boolean measured() {
            return !attachRuns.isEmpty();
        }

        public Stats.Summary attach() {
            return Stats.ofAll(attachRuns.toArray(long[][]::new));
        }

        /** The loop timed outside: the median over runs of total / attaches. */
        public long attachOutsidePerCall() {
            return medianPerCall(attachLoopNs, attachesPerRun);
        }

        /** The median over runs of each run's first attach (the process's first filter). */
        public long firstAttach() {
            return Stats.of(attachRuns.stream().mapToLong(r -> r[0]).toArray()).median();
        }

        public Stats.Summary forkAttach() {
            return Stats.ofAll(forkAttachRuns.toArray(long[][]::new));
        }

        public long forkAttachOutsidePerCall(int forks) {
            return medianPerCall(forkAttachLoopNs, forks);
        }

        public Stats.Summary compile() {
            return compileNs.length == 0 ? null : Stats.of(compileNs);
        }
    }

    static long medianPerCall(List<Long> totals, long calls) {
        return Stats.of(totals.stream().mapToLong(t -> t / calls).toArray()).median();
    }

    /** Everything one invocation measured; {@code forkRuns} and {@code forkLoopNs} are the fork-alone baseline. */
    public record Measurement(
            Options options, List<FloorFigures> floors, List<long[]> forkRuns, List<Long> forkLoopNs) {
        public Stats.Summary fork() {
            return Stats.ofAll(forkRuns.toArray(long[][]::new));
        }

        public long forkOutsidePerCall() {
            return medianPerCall(forkLoopNs, options.forks());
        }

        /** Whether the fork-alone baseline has a run (a stop before it leaves it not measured). */
        public boolean forkMeasured() {
            return !forkRuns.isEmpty();
        }

        /** Whether every floor (but a failed one) and the baseline have every run asked: false only after a stop. */
        public boolean complete() {
            return forkRuns.size() == options.runs()
                    && floors.stream().allMatch(f -> !f.ok() || f.runsCompleted() == options.runs());
        }

        /** Whether any run at all completed. */
        public boolean anyMeasured() {
            return forkMeasured() || floors.stream().anyMatch(FloorFigures::measured);
        }
    }

    /**
     * Measures every floor, outside the framework (a notebook's, a test's call: {@link Session#join}).
     */
    public static Measurement measure(Options o, List<Floor> floors, SamplesFile samples, Consumer<String> progress) {
        return measure(o, floors, samples, Session.join(progress));
    }

    /**
     * Measures every floor. A stop of the session (Stoppable) ends the running child and leaves off
     * before the next run: the run in progress is not kept, the floors and baseline runs completed are,
     * and what was not reached has no runs ({@link Measurement#complete()} then says so).
     */
    public static Measurement measure(Options o, List<Floor> floors, SamplesFile samples, Session session) {
        return AttachCostMeasuring.measure(o, floors, samples, session);
    }

    /**
     * Measures and writes the results folder (a call outside the framework, a notebook's: see
     * {@link Session#join}), as {@code ./lab reproduce} does ({@link Kept#keep}); the result names the
     * folder written (when nothing was measured: where it would have been, with no summary in it).
     */
    public static ReproductionResult run(Options o, ResultsFolder folder, Path podman, Consumer<String> progress) {
        ReproductionResult r;
        try (Session session = Session.join(folder, progress)) {
            r = run(o, session, podman);
        }
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return new ReproductionResult(folder.target(), r.summary(), r.interruption());
        }
        Path written = Kept.keep(folder, r, progress);
        return new ReproductionResult(written, r.summary(), r.interruption(), r.failures(), r.report());
    }

    /**
     * Measures every floor and the fork-alone baseline, leaving off when the session is asked to stop,
     * and returns what was measured for the framework to write ({@link Kept}): its rows, the settings
     * the table is made from, the host; {@link ReproductionResult#nothing} when no run had completed.
     */
    public static ReproductionResult run(Options o, Session session, Path podman) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        Host host = Host.capture();
        Instant started = Instant.now();
        List<Floor> floors = floors(podman, progress);
        progress.accept(String.format(
                Locale.ROOT,
                "attach-cost: %d floors × %d runs; up to %d attaches a run, %d + %d forks a run; CPU %d",
                floors.size(),
                o.runs(),
                o.attaches(),
                o.forkWarmup(),
                o.forks(),
                o.cpu()));
        Measurement m;
        try (SamplesFile samples = folder.createSamples()) {
            m = measure(o, floors, samples, session);
        }
        Optional<Interruption.Cause> cause = m.complete() ? Optional.empty() : session.stopCause();
        if (cause.isPresent() && !m.anyMeasured()) {
            // Stopped before any run completed: nothing to keep (the framework clears the folder).
            return ReproductionResult.nothing(cause);
        }
        cause.ifPresent(
                c -> progress.accept("attach-cost: " + c.said() + "; writing what was measured to " + folder.target()));
        return ReproductionResult.of(
                ReproductionKind.of(AttachCostRow.class, AttachCostSettings.class),
                new Recorded<>(summary(m), AttachCostSettings.of(o), host, started, Instant.now()),
                cause);
    }

    /**
     * The summary rows: every floor, then the fork-alone baseline. Each row says the runs asked and
     * completed and whether a stop cut it short ({@code interrupted}); a floor or baseline a stop came
     * before has {@code status: "not measured"} and no figures. A measured row has its intervals
     * ({@link #intervals}).
     */
    public static List<AttachCostRow> summary(Measurement m) {
        List<AttachCostRow> out = new ArrayList<>();
        Stats.Summary fork = m.forkMeasured() ? m.fork() : null;
        long asked = m.options().runs();
        for (int i = 0; i < m.floors().size(); i++) {
            FloorFigures f = m.floors().get(i);
            long completed = f.runsCompleted();
            AttachCostRow.Subject floor = new AttachCostRow.Subject(
                    f.floor().name(),
                    null,
                    f.floor().source(),
                    (long) f.floor().insns(),
                    (long) f.floor().loopProgram().length(),
                    f.floor().loopAddsSeccomp(),
                    (long) AttachBudget.kernelLength(f.floor().loopProgram().toBytes()));
            if (!f.ok() || !f.measured()) {
                out.add(new AttachCostRow(
                        new AttachCostRow.Subject(
                                floor.what(), "attach", floor.source(), floor.insns(), null, null, null),
                        (long) i,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        f.ok() ? RowStatus.NOT_MEASURED : RowStatus.FAILED,
                        f.ok() ? null : f.failure(),
                        new AttachCostRow.Runs(asked, completed, f.ok() && completed < asked),
                        null,
                        null));
                continue;
            }
            Stats.Summary a = f.attach();
            Stats.Summary fa = f.forkAttach();
            Stats.Summary c = f.compile();
            out.add(new AttachCostRow(
                    floor,
                    (long) i,
                    new AttachCostRow.Loop((long) f.attachesPerRun(), (long) f.budget()),
                    new AttachCostRow.Timing(
                            a.median(),
                            a.p99(),
                            f.firstAttach(),
                            boxed(Stats.runMedians(f.attachRuns().toArray(long[][]::new))),
                            f.attachOutsidePerCall(),
                            f.attachLoopNs()),
                    new AttachCostRow.Timing(
                            fa.median(),
                            fa.p99(),
                            null,
                            boxed(Stats.runMedians(f.forkAttachRuns().toArray(long[][]::new))),
                            f.forkAttachOutsidePerCall(m.options().forks()),
                            f.forkAttachLoopNs()),
                    fork == null ? null : fa.median() - fork.median(),
                    new AttachCostRow.Compile(
                            c == null ? null : c.median(), c == null ? null : c.p99(), (long) f.compileNs().length),
                    null,
                    RowStatus.OK,
                    null,
                    new AttachCostRow.Runs(asked, completed, completed < asked),
                    intervals(f.forkAttachRuns(), m.forkRuns()),
                    intervals(f.attachRuns(), List.of())));
        }
        long forkRuns = m.forkRuns().size();
        out.add(new AttachCostRow(
                new AttachCostRow.Subject(AttachCostRow.FORK_ALONE, null, null, null, null, null, null),
                (long) m.floors().size(),
                null,
                null,
                null,
                null,
                null,
                fork == null
                        ? null
                        : new AttachCostRow.Timing(
                                fork.median(),
                                fork.p99(),
                                null,
                                boxed(Stats.runMedians(m.forkRuns().toArray(long[][]::new))),
                                m.forkOutsidePerCall(),
                                m.forkLoopNs()),
                fork != null ? RowStatus.OK : RowStatus.NOT_MEASURED,
                null,
                new AttachCostRow.Runs(asked, forkRuns, forkRuns < asked),
                intervals(m.forkRuns(), List.of()),
                null));
        return out;
    }

    /**
     * The intervals of a variant's median and p99 over its runs, and of what it adds over the
     * {@code baseline}'s runs where there are any: {@link FloorSummary#intervals}, the one method
     * floor-cost uses (order statistics over the runs' medians and p99s; the Hodges–Lehmann shift of
     * the run medians, with its Mann–Whitney interval, for the added cost). Null without runs.
     */
    static RowIntervals intervals(List<long[]> runs, List<long[]> baseline) {
        return FloorSummary.intervals(runs, baseline);
    }

    private static List<Long> boxed(long[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    /** The seed's figures as data ({@code results/published/attach-cost.json}), or null if absent. */
    public static PublishedAttachCost published() {
        Path file = Fixtures.resultsRoot().resolve("published/attach-cost.json");
        return Files.isRegularFile(file) ? PublishedAttachCost.read(file) : null;
    }
}
