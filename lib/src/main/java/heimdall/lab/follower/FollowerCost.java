package heimdall.lab.follower;

import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
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
 * On t_follow rows each run also times the follower stopped after each part of its step ({@link FollowStep}:
 * the same object with a read-only knob set before load), so that its own work over t_hook is split by part
 * ({@link StepCosts}), and each part has a statistics run of its own (the kernel's count per part).
 *
 * <p>Samples (every timed call, {@code without} and {@code with} the follower, {@code hook} with the empty
 * program, {@code step-check}, {@code step-cursor}, {@code step-counters} on t_follow rows, per run) go to
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
                with[i] = FollowerRuns.withFollower(hook, true, spec, o, FollowStep.FULL, false)
                        .samples();
            } else {
                with[i] = FollowerRuns.withFollower(hook, true, spec, o, FollowStep.FULL, false)
                        .samples();
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
        // On a followed row, the follower stopped after each part of its step too (its own work split by part);
        // a variant refused refuses only its part, with its reason.
        List<FollowStep> steps = r.followed() ? FollowStep.PARTIAL : List.of();
        long[][][] stepped = new long[steps.size()][o.runs()][];
        String[] stepRefusals = new String[steps.size()];
        int variants = VARIANTS + steps.size();
        // A stop of the session (reproduce.Stoppable) ends the running child and leaves off before the
        // next run: the runs completed are kept, the one in progress is not.
        int done = 0;
        try {
            for (int i = 0; i < o.runs() && !session.stopRequested(); i++) {
                ChildSpec spec = spec(r, o, i);
                beforeRun.run();
                // The variants in a rotating order, so drift in the host's load spreads over all of them.
                long[][] got = new long[variants][];
                for (int k = 0; k < variants; k++) {
                    int v = (i + k) % variants;
                    switch (v) {
                        case 0 ->
                            got[v] = MeasuredChild.run(spec).requireCompleted().samples();
                        case 1 ->
                            got[v] = FollowerRuns.withFollower(r.hook(), r.followed(), spec, o, FollowStep.FULL, false)
                                    .samples();
                        case 2 -> {
                            if (hookRefusal == null) {
                                try {
                                    got[v] = FollowerRuns.withEmptyHook(r.hook(), spec);
                                } catch (Refusal e) {
                                    hookRefusal = e.getMessage();
                                }
                            }
                        }
                        default -> {
                            int s = v - VARIANTS;
                            if (stepRefusals[s] == null) {
                                try {
                                    got[v] = FollowerRuns.withFollower(r.hook(), true, spec, o, steps.get(s), false)
                                            .samples();
                                } catch (Refusal e) {
                                    stepRefusals[s] = e.getMessage();
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
                without[i] = got[0];
                with[i] = got[1];
                samples.append(index, WITHOUT, i, got[0]);
                samples.append(index, WITH, i, got[1]);
                if (got[2] != null) {
                    hooked[i] = got[2];
                    samples.append(index, HOOK, i, got[2]);
                }
                for (int s = 0; s < steps.size(); s++) {
                    if (got[VARIANTS + s] != null) {
                        stepped[s][i] = got[VARIANTS + s];
                        samples.append(index, steps.get(s).variant(), i, got[VARIANTS + s]);
                    }
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
        ChildSpec first = spec(r, o, 0);
        FollowerRuns.ProgramRun prog = session.stopRequested()
                ? FollowerRuns.STOPPED
                : FollowerRuns.programRun(r.hook(), r.followed(), first, o, FollowStep.FULL);
        // The empty program's statistics run, where its timed runs were made: the kernel's count of the hook alone.
        FollowerRuns.ProgramRun empty = session.stopRequested()
                ? FollowerRuns.STOPPED
                : Arrays.stream(hooked, 0, done).allMatch(Objects::isNull)
                        ? new FollowerRuns.ProgramRun(
                                "statistics run not made: the empty program was refused (hook_refusal)")
                        : FollowerRuns.emptyProgramRun(r.hook(), first);
        // Each step's variant's statistics run, where its timed runs were made: the kernel's count per part.
        List<FollowerRuns.ProgramRun> stepCounts = new ArrayList<>();
        for (int s = 0; s < steps.size(); s++) {
            stepCounts.add(
                    session.stopRequested()
                            ? FollowerRuns.STOPPED
                            : Arrays.stream(stepped[s], 0, done).allMatch(Objects::isNull)
                                    ? new FollowerRuns.ProgramRun("statistics run not made: the variant was refused")
                                    : FollowerRuns.programRun(r.hook(), true, first, o, steps.get(s)));
        }
        without = Arrays.copyOf(without, done);
        with = Arrays.copyOf(with, done);
        hooked = Arrays.copyOf(hooked, done);
        for (int s = 0; s < steps.size(); s++) {
            stepped[s] = Arrays.copyOf(stepped[s], done);
        }
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
                hookCost(r, without, with, hooked, hookRefusal),
                empty.cost(),
                steps.isEmpty()
                        ? FollowerCostRow.Steps.NONE
                        : StepCosts.of(hooked, stepped, with, stepRefusals, stepCounts),
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

    /**
     * Variants every run measures: without, with the follower, with the empty program; a followed row's runs
     * measure the follower stopped after each part of its step too ({@link FollowStep#PARTIAL}).
     */
    private static final int VARIANTS = 3;

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

    private static String callName(Call c) {
        return c.kind().name().toLowerCase(Locale.ROOT);
    }

    /** {@code table.md}'s body ({@link FollowerCostTable}). */
    public static String table(List<FollowerCostRow> summary) {
        return FollowerCostTable.of(summary);
    }
}
