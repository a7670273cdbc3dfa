package heimdall.lab.follower;

import com.sun.jna.StringArray;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.RunningChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.FollowerCostRow.Measure;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.RunCounts;
import heimdall.lab.stats.Intervals;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code ./lab reproduce follower-cost}: what the kernel follower costs, by the floor-cost method
 * (fresh measured children, each call timed, medians over runs), for each {@link Hook}.
 *
 * <ul>
 *   <li><b>t_follow</b>: the followed child's calls (getppid, mprotect, openat) under the abcdf static
 *       floor, without and with the follower following it: the difference is what a followed call
 *       pays for the step.
 *   <li><b>t_idle</b>: an unrelated process's getppid, with no floor and with the floor, without and
 *       with the follower attached (following another process, held idle at its exec gate).
 *   <li><b>divergence</b>: the recorded abcdf graph followed while abcdf makes a call its graph lacks
 *       ({@code --unobserved}): the calls the process completes from its divergent call on (the goal is
 *       one: the divergent call completes, as the kill lands on its return; any more began after the
 *       kill was sent), per run.
 * </ul>
 *
 * Samples (every timed call, {@code without} and {@code with} the follower, per run) go to
 * samples.arrow; the reproduction framework then writes distributions.json and the plots
 * ({@link heimdall.lab.analysis.Plots}: ECDFs per hook, added cost per row).
 *
 * <p>The follower's tables allow every call in one state ({@link KernelTables#allowingEverything()}):
 * a step is one cell load in any state, and the measured child's own calls are not a graph's. The
 * follower is attached first and pointed at the child as soon as its pid is known; a run whose
 * follower did not step every timed call is refused, never a figure. A hook the
 * kernel refuses gives rows marked refused, with the reason.
 */
public final class FollowerCost {
    private FollowerCost() {}

    /**
     * What to run.
     *
     * @param runs fresh children per variant of a row
     * @param warmup calls before timing; also the time the follower has to be pointed at the running
     *     child (it must follow before half of them are made), so it is kept long enough (tens of
     *     milliseconds) that a busy host does not make a run refuse
     * @param count timed calls per run
     * @param cpu the measured child's CPU
     */
    public record Options(int runs, long warmup, long count, int cpu) {
        /**
         * The least warm-up a run is given: about 17 ms of getppid here, so half of it outlasts an attach on a busy
         * host.
         */
        public static final long MIN_WARMUP = 100_000;

        /** The default, floor-cost's run count: 7 runs of 200,000 + 500,000 calls. */
        public static Options standard(int cpu) {
            return new Options(7, 200_000, 500_000, cpu);
        }

        /** Seconds: 3 runs of 100,000 + 50,000 calls. */
        public static Options quick(int cpu) {
            return new Options(3, MIN_WARMUP, 50_000, cpu);
        }
    }

    /**
     * What a run wrote (the notebook's and the tests' entry point, {@link #run(Options, ResultsFolder, Consumer)}).
     *
     * @param interruption the stop that cut the runs short, if one did; with an empty {@code summary}
     *     nothing was measured and nothing written (the caller removes the folder)
     */
    public record Result(Path folder, List<FollowerCostRow> summary, Optional<Interruption.Cause> interruption) {
        public Result(Path folder, List<FollowerCostRow> summary) {
            this(folder, summary, Optional.empty());
        }
    }

    /**
     * What a run measured, for the framework to write ({@code reproduce.followercost.FollowerCostRun}): the rows, the
     * settings {@code environment.json} is written from (they hold the host's facts and the times
     * themselves) and the stop that cut the runs short, if one did. Only {@code samples.arrow} is in the
     * session's folder so far.
     *
     * @param rows the summary rows; empty when a stop came before any run completed (nothing to keep)
     */
    public record Measured(
            List<FollowerCostRow> rows, FollowerCostSettings settings, Optional<Interruption.Cause> interruption) {
        public Measured {
            rows = List.copyOf(rows);
            Objects.requireNonNull(interruption, "interruption");
        }

        /** Whether nothing was measured to keep. */
        public boolean nothing() {
            return rows.isEmpty();
        }
    }

    private record Row(Measure measure, Hook hook, String process, Call call, Floor floor, boolean followed) {
        String floorName() {
            return floor == null ? "none" : floor.name();
        }

        FollowerCostRow.Subject subject() {
            return new FollowerCostRow.Subject(
                    measure.label() + " · " + hook.wire() + " · " + process,
                    measure,
                    hook.wire(),
                    process,
                    floorName(),
                    callName(call));
        }

        /** This row's identity with only a status (and reason) and its runs: refused or not measured. */
        FollowerCostRow bare(RowStatus status, String reason, RunCounts runs) {
            return bare(status, reason, runs, null);
        }

        FollowerCostRow bare(RowStatus status, String reason, RunCounts runs, FollowerCostRow.HookCost hookCost) {
            return new FollowerCostRow(
                    subject(), status, reason, null, null, null, null, runs, hookCost, null, RowIntervals.NONE);
        }
    }

    /** A cost row's published figure: the seeds have none. */
    private static final String NOT_PUBLISHED =
            "not measured (seed 000: the follower is not built; seed 002: kernel follower cost unmeasured)";

    /** Variant names in samples.arrow. */
    public static final String WITHOUT = "without";

    public static final String WITH = "with";

    /** The variant with an empty program alone on the row's hook (t_hook). */
    public static final String HOOK = "hook";

    /**
     * Called after the session's stop check and before a run's children start (tests stop a run there:
     * the race the after-run check below closes).
     */
    static volatile Runnable beforeRun = () -> {};

    /**
     * {@code m} as the framework writes it: its environment holds the host's facts and the times itself, so
     * the record has no host of its own.
     */
    public static Recorded<FollowerCostRow, FollowerCostSettings> recorded(Measured m) {
        return new Recorded<>(m.rows(), m.settings(), null, null, null);
    }

    /**
     * Measures every row, leaving off when the session is asked to stop, and returns what was measured
     * for the framework to write; only the samples go into the session's folder.
     */
    public static Measured measure(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        Follower.checkHost();
        Host host = Host.capture();
        Instant started = Instant.now();
        // a private, marked scratch folder: removed at the end, by the shutdown hook, or by the next run after a
        // SIGKILL
        Scratch scratch = Scratch.create("heimdall-follower-cost-");
        List<FollowerCostRow> summary = new ArrayList<>();
        try {
            Path data = scratch.path().resolve("data.txt");
            SafeFiles.writeNew(
                    data, "heimdall-lab: the file a measured openat opens\n".getBytes(StandardCharsets.UTF_8));
            Floor floor = Floors.staticFloor("static floor, abcdf", Fixtures.profile("abcdf"));
            List<Row> rows = new ArrayList<>();
            for (Hook hook : Hook.values()) {
                for (Call c : List.of(Call.GETPPID, Call.MPROTECT, Call.openat(data))) {
                    rows.add(new Row(Measure.T_FOLLOW, hook, "followed child", c, floor, true));
                }
                rows.add(new Row(Measure.T_IDLE, hook, "unrelated, no floor", Call.GETPPID, null, false));
                rows.add(new Row(Measure.T_IDLE, hook, "unrelated, floor", Call.GETPPID, floor, false));
            }
            progress.accept(String.format(
                    Locale.ROOT,
                    "follower-cost: %d rows, %d runs a variant, %,d + %,d calls; CPU %d",
                    rows.size(),
                    o.runs(),
                    o.warmup(),
                    o.count(),
                    o.cpu()));
            try (SamplesFile samples = folder.createSamples()) {
                for (Row r : rows) {
                    FollowerCostRow m = measureRow(r, o, samples, summary.size(), session);
                    summary.add(m);
                    if (m.outcome() == RowStatus.NOT_MEASURED) {
                        continue;
                    }
                    progress.accept(String.format(
                            Locale.ROOT,
                            "%-8s %-18s %-20s %-28s %s",
                            r.measure().label(),
                            r.hook().wire(),
                            r.process(),
                            callName(r.call()),
                            m.figures().addedNs() != null
                                    ? "added " + m.figures().addedNs() + " ns"
                                    : m.status()));
                }
            }
            for (Hook hook : Hook.values()) {
                FollowerCostRow m = divergence(hook, o, session);
                summary.add(m);
                if (m.outcome() != RowStatus.NOT_MEASURED) {
                    progress.accept(String.format(
                            Locale.ROOT,
                            "%-8s %-18s calls completed from the divergent call on: %s",
                            "diverge",
                            hook.wire(),
                            m.divergence().callsCompletedFromDivergence() != null
                                    ? m.divergence().callsCompletedFromDivergence()
                                    : m.status()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            scratch.close();
        }
        Optional<Interruption.Cause> cause =
                summary.stream().anyMatch(m -> Boolean.TRUE.equals(m.runs().interrupted()))
                        ? session.stopCause()
                        : Optional.empty();
        if (cause.isPresent() && summary.stream().allMatch(m -> m.runs().runsCompleted() == 0)) {
            // Stopped before any run completed: nothing to keep (the framework, Stoppable, clears the folder).
            return new Measured(List.of(), FollowerCostSettings.of(started, Instant.now(), host, o), cause);
        }
        cause.ifPresent(c ->
                progress.accept("follower-cost: " + c.said() + "; writing what was measured to " + folder.target()));
        return new Measured(summary, FollowerCostSettings.of(started, Instant.now(), host, o), cause);
    }

    /**
     * t_follow for another reproduction's prediction (workload-cost's follower rows): a getppid's added time,
     * no floor, when the follower on {@code hook} follows the child, over the same child alone; {@code o.runs()}
     * fresh children each way, in alternating order; the median of all timed calls with, less the median without.
     *
     * @throws Refusal as {@link Follower#attach}, or a follower pointed at a child too late
     */
    public static double followedGetppidAddedNs(Hook hook, Options o) {
        Row r = new Row(Measure.T_FOLLOW, hook, "followed child", Call.GETPPID, null, true);
        long[][] without = new long[o.runs()][];
        long[][] with = new long[o.runs()][];
        for (int i = 0; i < o.runs(); i++) {
            ChildSpec spec = spec(r, o, i);
            if (i % 2 == 0) {
                without[i] = MeasuredChild.run(spec).requireCompleted().samples();
                with[i] = withFollower(r, spec, o, false).samples();
            } else {
                with[i] = withFollower(r, spec, o, false).samples();
                without[i] = MeasuredChild.run(spec).requireCompleted().samples();
            }
        }
        return Stats.ofAll(with).median() - Stats.ofAll(without).median();
    }

    /** What {@code table.md} says falls short after a stop. */
    public static final String SHORTFALL = "fewer runs than asked (runs_completed in summary.json)";

    /** A row's measured child for run {@code i}: its call, CPU and code placement, under its floor if it has one. */
    private static ChildSpec spec(Row r, Options o, int i) {
        ChildSpec spec =
                ChildSpec.of(r.call(), o.warmup(), o.count()).withCpu(o.cpu()).withPlacementForRun(i);
        return r.floor() == null ? spec : spec.withPrograms(r.floor().bytes());
    }

    private static FollowerCostRow measureRow(Row r, Options o, SamplesFile samples, int index, Session session) {
        long[][] without = new long[o.runs()][];
        long[][] with = new long[o.runs()][];
        long[][] hooked = new long[o.runs()][];
        // The empty program on the same hook (t_hook) in every run; a kernel that refuses it refuses
        // only that part of the row, with its reason (the follower's own figures still stand).
        String hookRefusal = null;
        // A stop of the session (reproduce.Stoppable) ends the running child and leaves off before the
        // next run: the runs completed are kept, the one in progress is not.
        int done = 0;
        try {
            for (int i = 0; i < o.runs() && !session.stopRequested(); i++) {
                ChildSpec spec = spec(r, o, i);
                beforeRun.run();
                // The variants in a rotating order, so drift in the host's load spreads over all three.
                long[] a = null;
                long[] b = null;
                long[] c = null;
                for (int k = 0; k < VARIANTS; k++) {
                    switch ((i + k) % VARIANTS) {
                        case 0 -> a = MeasuredChild.run(spec).requireCompleted().samples();
                        case 1 -> b = withFollower(r, spec, o, false).samples();
                        default -> {
                            if (hookRefusal == null) {
                                try {
                                    c = withEmptyHook(r, spec);
                                } catch (Refusal e) {
                                    hookRefusal = e.getMessage();
                                }
                            }
                        }
                    }
                }
                if (session.stopRequested()) {
                    // The stop came while this run was under way: it may have come before a child started,
                    // too late to end it, so the run finished. It is not kept (nor would a run the stop ended
                    // be): a stopped row never looks whole.
                    break;
                }
                without[i] = a;
                with[i] = b;
                samples.append(index, WITHOUT, i, a);
                samples.append(index, WITH, i, b);
                if (c != null) {
                    hooked[i] = c;
                    samples.append(index, HOOK, i, c);
                }
                done = i + 1;
            }
        } catch (RuntimeException e) {
            if (!(e instanceof Refusal) && !session.stopRequested()) {
                session.stopOn(e); // a failure, not the hook's refusal: a stop that keeps the runs before it
            }
            if (!session.stopRequested()) {
                if (!(e instanceof Refusal)) {
                    throw e;
                }
                return r.bare(
                        RowStatus.REFUSED, e.getMessage(), RunCounts.of(o.runs(), done, false), emptyAlone(r.hook()));
            }
            // the stop ended the child: its run is not kept, and it is not a refusal of the hook
        }
        if (done == 0) {
            return r.bare(RowStatus.NOT_MEASURED, null, RunCounts.of(o.runs(), 0, true));
        }
        ProgramRun prog = session.stopRequested() ? STOPPED : programRun(r, spec(r, o, 0), o);
        // The empty program's statistics run, where its timed runs were made: the kernel's count of the hook alone.
        ProgramRun empty = session.stopRequested()
                ? STOPPED
                : Arrays.stream(hooked, 0, done).allMatch(Objects::isNull)
                        ? new ProgramRun(null, "statistics run not made: the empty program was refused (hook_refusal)")
                        : emptyProgramRun(r, spec(r, o, 0));
        without = Arrays.copyOf(without, done);
        with = Arrays.copyOf(with, done);
        Stats.Summary a = Stats.ofAll(without);
        Stats.Summary b = Stats.ofAll(with);
        long[] medWithout = Stats.runMedians(without);
        long[] medWith = Stats.runMedians(with);
        double spreadWithout = Stats.spread(medWithout);
        double spreadWith = Stats.spread(medWith);
        RunCounts runs = RunCounts.of(o.runs(), done, done < o.runs());
        FollowerCostRow.Figures figures = new FollowerCostRow.Figures(
                a.median(),
                b.median(),
                b.median() - a.median(),
                a.p99(),
                b.p99(),
                boxed(medWithout),
                boxed(medWith),
                spreadWithout,
                spreadWith,
                Math.max(spreadWithout, spreadWith) > Stats.NOISY_SPREAD);
        return new FollowerCostRow(
                r.subject(),
                RowStatus.OK,
                null,
                figures,
                FollowerCostRow.Divergence.NONE,
                NOT_PUBLISHED,
                prog.cost(),
                runs,
                hookCost(r, without, with, Arrays.copyOf(hooked, done), hookRefusal),
                empty.cost(),
                FloorSummary.intervals(Arrays.asList(with), Arrays.asList(without))); // with the hook, over without
    }

    /** The empty program of a row's hook, as {@code empty_program} names it. */
    static String emptyProgram(Hook hook) {
        return hook.section() + ", returns 0";
    }

    /**
     * t_hook and the follower's own work over it, from the runs without anything, with the follower and
     * with the empty program (null entries where a run's empty program was not measured); refused with the
     * reason when the kernel refused the empty program before any run had it.
     */
    static FollowerCostRow.HookCost hookCost(Row r, long[][] without, long[][] with, long[][] hooked, String refusal) {
        long[][] h = Arrays.stream(hooked).filter(Objects::nonNull).toArray(long[][]::new);
        if (h.length == 0) {
            return refusal == null
                    ? FollowerCostRow.HookCost.NONE
                    : FollowerCostRow.HookCost.refused(emptyProgram(r.hook()), refusal);
        }
        Stats.Summary hs = Stats.ofAll(h);
        long[] med = Stats.runMedians(h);
        long medWithout = Stats.ofAll(without).median();
        long medWith = Stats.ofAll(with).median();
        return new FollowerCostRow.HookCost(
                emptyProgram(r.hook()),
                hs.median(),
                hs.p99(),
                boxed(med),
                Math.round(Stats.spread(med) * 1000) / 1000.0,
                hs.median() - medWithout,
                RowIntervals.Ci.of(Intervals.added(h, without, Intervals.LEVEL), Math.min(h.length, without.length)),
                medWith - hs.median(),
                RowIntervals.Ci.of(Intervals.added(with, h, Intervals.LEVEL), Math.min(h.length, with.length)),
                refusal);
    }

    /**
     * For a row the follower was refused on: whether the empty program alone is refused on the same hook
     * too (its reason, a kernel fact), or not (then nothing: the row has no follower figures to set it against).
     */
    private static FollowerCostRow.HookCost emptyAlone(Hook hook) {
        try (EmptyHook h = EmptyHook.attach(hook)) {
            return FollowerCostRow.HookCost.NONE;
        } catch (Refusal e) {
            return FollowerCostRow.HookCost.refused(emptyProgram(hook), e.getMessage());
        }
    }

    /** Variants a run measures: without, with the follower, with the empty program. */
    private static final int VARIANTS = 3;

    /** One run with only the empty program on the row's hook: the child's samples. */
    private static long[] withEmptyHook(Row r, ChildSpec spec) {
        try (EmptyHook hook = EmptyHook.attach(r.hook())) {
            return MeasuredChild.run(spec).requireCompleted().samples();
        }
    }

    /**
     * The divergence row of one hook: runs of abcdf {@code --unobserved} (a getpgrp its recorded graph
     * lacks) followed from its exec. Per run, the calls the process completed from its divergent call
     * on: that call (which completes: the kill lands on its return) plus any call that began after the
     * kill was sent.
     */
    private static FollowerCostRow divergence(Hook hook, Options o, Session session) {
        String process = "abcdf --unobserved (followed from exec)";
        String floor = hook == Hook.SECCOMP_FENTRY ? "allow-everything" : "none";
        FollowerCostRow.Subject subject = new FollowerCostRow.Subject(
                "divergence · " + hook.wire() + " · abcdf --unobserved",
                Measure.DIVERGENCE,
                hook.wire(),
                process,
                floor,
                "getpgrp");
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        KernelTables t = KernelTables.of(GraphFiles.readPinned(
                        dir.resolve("abcdf-recorded.exec.nodes.arrow"), dir.resolve("abcdf-recorded.exec.edges.arrow"))
                .graph());
        List<String> argv = List.of(NativeExecutables.abcdf().toString(), "3", "--unobserved");
        List<Long> after = new ArrayList<>();
        List<Long> at = new ArrayList<>();
        int done = 0;
        try {
            for (int i = 0; i < o.runs() && !session.stopRequested(); i++) {
                beforeRun.run();
                FollowedRun.Outcome out =
                        FollowedRun.run(t, hook, hook == Hook.SECCOMP_FENTRY, argv, Duration.ofSeconds(30));
                if (session.stopRequested()) {
                    break;
                }
                if (!out.killed() || out.divergences().size() != 1) {
                    throw new IllegalStateException("abcdf --unobserved was not killed at one divergence: "
                            + out.divergences() + ", exit " + out.exitCode() + ", signal " + out.signal());
                }
                at.add(out.divergences().get(0).calls());
                after.add(out.stats().callsAfterKill());
                done = i + 1;
            }
        } catch (Refusal e) {
            return divergenceRow(
                    subject,
                    RowStatus.REFUSED,
                    e.getMessage(),
                    FollowerCostRow.Divergence.NONE,
                    null,
                    RunCounts.of(o.runs(), done, false));
        }
        if (done == 0) {
            return divergenceRow(
                    subject,
                    RowStatus.NOT_MEASURED,
                    null,
                    FollowerCostRow.Divergence.NONE,
                    null,
                    RunCounts.of(o.runs(), 0, true));
        }
        long worst = after.stream().mapToLong(Long::longValue).max().orElse(0);
        // The divergent call itself always completes (MultithreadedFollowerTest sees its mkdir land).
        return divergenceRow(
                subject,
                RowStatus.OK,
                null,
                new FollowerCostRow.Divergence(List.copyOf(at), List.copyOf(after), 1 + worst),
                "not measured",
                RunCounts.of(o.runs(), done, done < o.runs()));
    }

    private static FollowerCostRow divergenceRow(
            FollowerCostRow.Subject subject,
            RowStatus status,
            String reason,
            FollowerCostRow.Divergence divergence,
            String published,
            RunCounts runs) {
        return new FollowerCostRow(
                subject,
                status,
                reason,
                FollowerCostRow.Figures.NONE,
                divergence,
                published,
                FollowerCostRow.ProgramCost.NONE,
                runs,
                FollowerCostRow.HookCost.NONE,
                FollowerCostRow.ProgramCost.NONE,
                RowIntervals.NONE);
    }

    private static List<Long> boxed(long[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    /** A run with the follower attached: the child's samples, and the program's statistics when they were on. */
    private record WithRun(long[] samples, Follower.ProgramStats program, long stepped) {}

    /** A program's own cost over a row's statistics run, or why there is none. */
    private record ProgramRun(Follower.ProgramStats stats, String note) {
        FollowerCostRow.ProgramCost cost() {
            return stats == null
                    ? new FollowerCostRow.ProgramCost(null, null, null, note)
                    : new FollowerCostRow.ProgramCost(stats.runCount(), stats.runTimeNs(), stats.nsPerRun(), note);
        }
    }

    private static final ProgramRun STOPPED = new ProgramRun(null, "statistics run not made: stopped");

    /**
     * One more run of the row with BPF run-time statistics on (apart from the timed runs: statistics add
     * two clock reads to every program run). On the tracepoint the program runs for every call of every task
     * on the host (the unfollowed ones only test their process id); on fentry for every call of every
     * filtered task: the note says how many of the runs were the followed child's stepped calls.
     */
    private static ProgramRun programRun(Row r, ChildSpec spec, Options o) {
        WithRun w;
        try {
            w = withFollower(r, spec, o, true);
        } catch (Refusal e) {
            return new ProgramRun(null, "statistics run refused: " + e.getMessage());
        }
        Follower.ProgramStats p = w.program();
        String who = runsOf(r.hook());
        String note = String.format(
                Locale.ROOT,
                "one run with BPF_ENABLE_STATS: the program ran %,d times (%s), %,d of them "
                        + "the followed child's stepped calls",
                p.runCount(),
                who,
                w.stepped());
        if (statsAlreadyOn()) {
            note += "; kernel.bpf_stats_enabled was already 1: the timed runs include the statistics' own cost";
        }
        return new ProgramRun(p, note);
    }

    /**
     * The same statistics run as {@link #programRun}'s, with the empty program alone on the row's hook: what the
     * kernel counts for the hook's entry into a program that does nothing, against which the follower's count is
     * its own work (both carry the statistics' two clock reads a run).
     */
    private static ProgramRun emptyProgramRun(Row r, ChildSpec spec) {
        try (Follower.RunTimeStats on = Follower.RunTimeStats.enable();
                EmptyHook hook = EmptyHook.attach(r.hook())) {
            MeasuredChild.run(spec).requireCompleted();
            Follower.ProgramStats p = hook.programStats();
            return new ProgramRun(
                    p,
                    String.format(
                            Locale.ROOT,
                            "one run with BPF_ENABLE_STATS and the empty program alone: it ran %,d times (%s)",
                            p.runCount(),
                            runsOf(r.hook())));
        } catch (Refusal e) {
            return new ProgramRun(null, "statistics run refused: " + e.getMessage());
        }
    }

    /** Which calls run a program on {@code hook}. */
    private static String runsOf(Hook hook) {
        return hook == Hook.SECCOMP_FENTRY ? "every call of every filtered task" : "every call of every task";
    }

    private static boolean statsAlreadyOn() {
        try {
            return "1"
                    .equals(Files.readString(Path.of("/proc/sys/kernel/bpf_stats_enabled"))
                            .strip());
        } catch (IOException e) {
            return false;
        }
    }

    /** One run with the follower attached: following the child itself, or an idle bystander. */
    private static WithRun withFollower(Row r, ChildSpec spec, Options o, boolean programStats) {
        int[] gate = new int[1];
        int idle = FollowerNative.hf_spawn("/bin/true", new StringArray(new String[] {"/bin/true"}), 0, gate);
        if (idle < 0) {
            throw new IllegalStateException("cannot fork the idle bystander: errno " + -idle);
        }
        try (Follower.RunTimeStats on = programStats ? Follower.RunTimeStats.enable() : null;
                Follower f = Follower.attachArmed(KernelTables.allowingEverything(), idle, r.hook())) {
            ChildResult res;
            try (RunningChild child = MeasuredChild.start(spec)) {
                if (r.followed()) {
                    f.follow(child.pid());
                }
                res = child.await().requireCompleted();
            }
            Follower.ProgramStats prog = programStats ? f.programStats() : null;
            Follower.Stats s = f.stats();
            // The follower is pointed at the child once its pid is known, while the child already runs:
            // it must have been following before the second half of the warm-up, so that every timed
            // call (the last ones the child makes, bar its exit) was stepped.
            long expected = o.count() + o.warmup() / 2;
            if (r.followed() && s.calls() < expected) {
                throw new Refusal("the follower was pointed at the child too late: it stepped " + s.calls()
                        + " calls, fewer than the " + o.count() + " timed calls and half the " + o.warmup()
                        + " warm-up calls (a busy host: raise the warm-up)");
            }
            if (!r.followed() && s.calls() != 0) {
                throw new IllegalStateException("the follower stepped " + s.calls() + " calls of the idle bystander");
            }
            return new WithRun(res.samples(), prog, s.calls());
        } finally {
            FollowerNative.hf_close_gate(gate[0]);
            int[] st = new int[1];
            FollowerNative.hf_kill(idle);
            FollowerNative.hf_wait(idle, -1, st);
        }
    }

    private static String callName(Call c) {
        return c.kind().name().toLowerCase(Locale.ROOT);
    }

    /** {@code table.md}'s body ({@link FollowerCostTable}). */
    public static String table(List<FollowerCostRow> summary) {
        return FollowerCostTable.of(summary);
    }
}
