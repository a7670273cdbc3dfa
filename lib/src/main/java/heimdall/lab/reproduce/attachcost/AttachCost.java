package heimdall.lab.reproduce.attachcost;

import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Emulator;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.child.AttachBudget;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.LoadLine;
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
import java.util.function.Function;
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

    /** The profile behind a floor, for timing the compiler (null for the hand-written filter). */
    static Profile profileOf(Floor f) {
        if (f.source().startsWith("fixtures/profiles/")) {
            return Fixtures.profile(f.source().split("/")[2]);
        }
        if (f.source().startsWith("/")) {
            return ProfileJson.load(Path.of(f.source())).profile();
        }
        return null;
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
        Consumer<String> progress = session.progress();
        List<FloorFigures> figures = new ArrayList<>();
        int row = 0;
        for (Floor f : floors) {
            int budget = AttachBudget.maxFilters(f.loopProgram().toBytes());
            int k = Math.min(o.attaches(), budget);
            Runs runs = new Runs();
            String failure = null;
            for (int run = 0; run < o.runs() && failure == null && !session.stopRequested(); run++) {
                try {
                    measureRun(f, row, run, k, o, samples, runs, progress);
                } catch (RuntimeException e) {
                    if (session.stopRequested()) {
                        break; // the stop ended the child: its run is not kept, and it is not the floor's failure
                    }
                    if (!(e instanceof Refusal)) {
                        if (!session.stopOn(e)) {
                            throw e;
                        }
                        break; // a failure, not the floor's refusal: the runs before it are kept
                    }
                    failure = e.getMessage();
                    progress.accept("run " + (run + 1) + " · " + f.name() + ": FAILED: " + failure);
                }
            }
            long[] compile = session.stopRequested() ? new long[0] : timeCompile(f, o, progress);
            figures.add(new FloorFigures(
                    f,
                    k,
                    budget,
                    List.copyOf(runs.attach),
                    List.copyOf(runs.attachLoop),
                    List.copyOf(runs.fork),
                    List.copyOf(runs.forkLoop),
                    compile,
                    failure));
            row++;
        }
        List<long[]> forkRuns = new ArrayList<>();
        List<Long> forkLoop = new ArrayList<>();
        for (int run = 0; run < o.runs() && !session.stopRequested(); run++) {
            ChildSpec fork = ChildSpec.of(Call.FORK, o.forkWarmup(), o.forks()).withCpu(o.cpu());
            long[] s;
            long total;
            try {
                s = MeasuredChild.run(fork).requireCompleted().samples();
                total = MeasuredChild.run(fork.withMode(ChildSpec.Mode.BATCH))
                        .requireCompleted()
                        .batchTotalNs();
            } catch (RuntimeException e) {
                if (session.stopRequested() || session.stopOn(e)) {
                    break; // the stop ended the child, or this failure is the stop: its run is not kept
                }
                throw e;
            }
            forkRuns.add(s);
            forkLoop.add(total);
            if (samples != null) {
                samples.append(row, "fork", run, s);
            }
            progress.accept(String.format(
                    Locale.ROOT,
                    "run %d · fork alone: median %,d ns",
                    run + 1,
                    Stats.of(s).median()));
        }
        return new Measurement(o, List.copyOf(figures), List.copyOf(forkRuns), List.copyOf(forkLoop));
    }

    /** One floor's runs as they come. */
    private static final class Runs {
        final List<long[]> attach = new ArrayList<>();
        final List<Long> attachLoop = new ArrayList<>();
        final List<long[]> fork = new ArrayList<>();
        final List<Long> forkLoop = new ArrayList<>();
    }

    /** One run of each variant of one floor: attaches timed inside and outside, fork+attach likewise. */
    private static void measureRun(
            Floor f, int row, int run, int k, Options o, SamplesFile samples, Runs runs, Consumer<String> progress) {
        ChildSpec attach = ChildSpec.attaching(Call.ATTACH, f.loopProgram().toBytes(), 0, k)
                .withCpu(o.cpu());
        long[] s = MeasuredChild.run(attach).requireCompleted().samples();
        long loop = MeasuredChild.run(attach.withMode(ChildSpec.Mode.BATCH))
                .requireCompleted()
                .batchTotalNs();
        ChildSpec fork = ChildSpec.attaching(Call.FORK_ATTACH, f.program().toBytes(), o.forkWarmup(), o.forks())
                .withCpu(o.cpu());
        long[] fs = MeasuredChild.run(fork).requireCompleted().samples();
        long forkLoop = MeasuredChild.run(fork.withMode(ChildSpec.Mode.BATCH))
                .requireCompleted()
                .batchTotalNs();
        runs.attach.add(s);
        runs.attachLoop.add(loop);
        runs.fork.add(fs);
        runs.forkLoop.add(forkLoop);
        if (samples != null) {
            samples.append(row, "attach", run, s);
            samples.append(row, "fork+attach", run, fs);
        }
        progress.accept(String.format(
                Locale.ROOT,
                "run %d · %s (%d insns): attach median %,d ns (loop %,d ns/attach, %d attaches); fork+attach median "
                        + "%,d ns",
                run + 1,
                f.name(),
                f.insns(),
                Stats.of(s).median(),
                loop / k,
                k,
                Stats.of(fs).median()));
    }

    /** Compile times in this JVM after a warm-up, each compile timed alone. */
    static long[] timeCompile(Floor f, Options o, Consumer<String> progress) {
        Profile p = profileOf(f);
        if (p == null) {
            return new long[0];
        }
        long sink = 0;
        for (int i = 0; i < o.compileWarmup(); i++) {
            sink += Compiler.compile(p).length();
        }
        long[] ns = new long[o.compiles()];
        for (int i = 0; i < ns.length; i++) {
            long a = System.nanoTime();
            sink += Compiler.compile(p).length();
            ns[i] = System.nanoTime() - a;
        }
        if (sink == 42) {
            progress.accept(""); // keeps the compiles observable to the JIT
        }
        progress.accept(String.format(
                Locale.ROOT, "%s: compile median %,d ns", f.name(), Stats.of(ns).median()));
        return ns;
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
     * {@code table.md}'s body for a recorded run: {@link #table(List, Options, Host)} of its rows, options and
     * host.
     */
    static String table(Recorded<AttachCostRow, AttachCostSettings> run) {
        return table(run.rows(), run.settings().options(), run.host());
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

    /**
     * table.md's body, from the summary rows alone ({@link #summary}), the options and the host: a line
     * per measured floor, the fork-alone baseline, then the floors that failed or a stop cut short.
     */
    static String table(List<AttachCostRow> rows, Options o, Host host) {
        StringBuilder md = new StringBuilder("# attach-cost: what installing a filter costs\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, BPF JIT %s; CPU %d. %d runs per floor and variant; "
                        + "in-process: up to %,d attaches a run (the kernel's budget: 32772 / (E + 4) copies per "
                        + "process of a filter that is E instructions "
                        + "once the kernel has converted it to eBPF); "
                        + "fork: %,d warm-up + %,d forks a run. Compile: %,d warm-up + %,d timed compiles in this "
                        + "JVM. ",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.bpfJit().get("net.core.bpf_jit_enable"),
                o.cpu(),
                o.runs(),
                o.attaches(),
                o.forkWarmup(),
                o.forks(),
                o.compileWarmup(),
                o.compiles()));
        // this host's load beside the published host's (the seed does not give it)
        md.append(LoadLine.of(host, List.of()))
                .append(" The published host's load is not recorded (seed 004: a qemu-kvm guest).\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "floor",
                "insns",
                "compile (Java)",
                "attaches a run (budget)",
                "attach: inside, median",
                RowIntervals.heading("attach median"),
                "p99",
                RowIntervals.heading("attach p99"),
                "first",
                "attach: outside",
                "fork+attach: inside",
                RowIntervals.heading("fork+attach median"),
                "p99",
                RowIntervals.heading("fork+attach p99"),
                "fork+attach: outside",
                "attach within fork (− fork alone)",
                RowIntervals.heading("added")));
        List<AttachCostRow> measured = rows.stream()
                .filter(r -> !r.forkAlone() && r.outcome() == RowStatus.OK)
                .toList();
        for (AttachCostRow r : measured) {
            AttachCostRow.Subject s = r.subject();
            t.row(List.of(
                    s.what(),
                    s.insns() + (Boolean.TRUE.equals(s.loopAddsSeccomp()) ? " (loop: " + s.loopInsns() + ")" : ""),
                    r.compile().medianNs() == null
                            ? "—"
                            : MarkdownTable.tail(r.compile().medianNs()),
                    r.loop().attachesPerRun() + " (" + r.loop().budget() + ")",
                    MarkdownTable.tail(r.attach().medianNs()),
                    ci(r.attachIntervals(), RowIntervals::median),
                    MarkdownTable.tail(r.attach().p99Ns()),
                    ci(r.attachIntervals(), RowIntervals::p99),
                    MarkdownTable.tail(r.attach().firstNs()),
                    MarkdownTable.tail(r.attach().outsideNsPerCall()),
                    MarkdownTable.tail(r.forkAttach().medianNs()),
                    ci(r.intervals(), RowIntervals::median),
                    MarkdownTable.tail(r.forkAttach().p99Ns()),
                    ci(r.intervals(), RowIntervals::p99),
                    MarkdownTable.tail(r.forkAttach().outsideNsPerCall()),
                    r.attachInForkAddedNs() == null ? "—" : MarkdownTable.added(r.attachInForkAddedNs()),
                    ci(r.intervals(), RowIntervals::added)));
        }
        AttachCostRow forkAlone =
                rows.stream().filter(AttachCostRow::forkAlone).findFirst().orElse(null);
        if (forkAlone != null && forkAlone.outcome() == RowStatus.OK) {
            AttachCostRow.Timing fork = forkAlone.fork();
            t.row(List.of(
                    "fork alone (baseline)",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    MarkdownTable.tail(fork.medianNs()),
                    ci(forkAlone.intervals(), RowIntervals::median),
                    MarkdownTable.tail(fork.p99Ns()),
                    ci(forkAlone.intervals(), RowIntervals::p99),
                    MarkdownTable.tail(fork.outsideNsPerCall()),
                    "—",
                    "—"));
        }
        md.append(t.render()).append('\n');
        for (AttachCostRow r : rows) {
            AttachCostRow.Runs runs = r.runs();
            String done = runs.runsCompleted() + " of " + runs.runsAsked() + " runs";
            if (r.outcome() == RowStatus.FAILED) {
                md.append("- FAILED: ")
                        .append(r.what())
                        .append(" (")
                        .append(r.subject().insns())
                        .append(" insns): ")
                        .append(r.failure())
                        .append('\n');
            } else if (r.forkAlone() && Boolean.TRUE.equals(runs.interrupted())) {
                md.append("- interrupted: fork alone (baseline): ")
                        .append(
                                r.outcome() == RowStatus.OK
                                        ? done
                                        : "not measured (no attach within fork − fork alone)")
                        .append('\n');
            } else if (Boolean.TRUE.equals(runs.interrupted())) {
                md.append("- interrupted: ")
                        .append(r.what())
                        .append(": ")
                        .append(r.outcome() == RowStatus.OK ? done : "not measured")
                        .append('\n');
            }
        }
        PublishedAttachCost pub = published();
        if (pub != null) {
            md.append("Published (seed 004, ").append(pub.sourceShort()).append("):\n\n");
            for (PublishedAttachCost.Row r : pub.rows()) {
                md.append(String.format(Locale.ROOT, "- %s: %,d ns (%s)%n", r.what(), r.ns(), r.printed()));
            }
            md.append('\n');
        }
        md.append("A floor that does not allow seccomp(2) would kill the in-process loop at its second attach: the "
                + "loop attaches it "
                + "compiled with one more rule allowing seccomp in front (`loop:` gives its length); the "
                + "fork variant attaches the floor as it is. ");
        md.append("`inside`: each attach (or fork, attach in the child, wait) timed alone; `outside`: the loop timed "
                + "as a whole with no "
                + "clock read in it, divided by its calls. The in-process loop attaches the same program "
                + "again and again, so a run's later "
                + "attaches happen under more filters (samples.arrow keeps the order). `first`: the median "
                + "over runs of each process's "
                + "first attach. ");
        md.append(
                "Intervals (ns) are distribution-free, over the runs: order statistics over the runs' medians and p99s "
                        + "(the in-process attach's, and the fork+attach's or the fork alone's), and for the attach "
                        + "within "
                        + "fork the Hodges–Lehmann shift of the fork+attach run medians from the fork-alone ones, "
                        + "with its "
                        + "Mann–Whitney interval; where the runs are too few for 95% the coverage they reach is "
                        + "given.\n");
        return md.toString();
    }

    /** A row's interval cell, in ns ({@link RowIntervals#cell}); {@code "—"} for a row without. */
    private static String ci(RowIntervals intervals, Function<RowIntervals, RowIntervals.Ci> which) {
        return intervals == null ? "—" : RowIntervals.cell(which.apply(intervals));
    }

    /** The seed's figures as data ({@code results/published/attach-cost.json}), or null if absent. */
    public static PublishedAttachCost published() {
        Path file = Fixtures.resultsRoot().resolve("published/attach-cost.json");
        return Files.isRegularFile(file) ? PublishedAttachCost.read(file) : null;
    }
}
