package heimdall.lab.bench;

import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.broker.SupervisorOptions;
import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.RunningChild;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.NativeLib;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Times floor rows the published way: every run is a fresh child that installs the row's programs
 * and then makes only the measured call, W warm-up calls and N timed ones; every row has R runs; the
 * same call with no filter is measured in the same invocation as the baseline.
 *
 * <p>Runs are interleaved (run 1 of every row, then run 2, ...) with the order rotated each round,
 * so that a drift or a burst of host load spreads over all rows instead of landing on one. Nothing
 * is dropped: a run that met a burst stays in the statistics and shows in the run medians.
 */
public final class FloorBench {
    private FloorBench() {}

    /**
     * How much to measure.
     *
     * @param runs fresh children per row
     * @param warmup untimed calls before measuring, for a fast call
     * @param count timed calls per run, for a fast call
     * @param brokerWarmup warm-up for a brokered call (each is a round trip to the supervisor)
     * @param brokerCount timed brokered calls per run
     */
    public record Counts(int runs, long warmup, long count, long brokerWarmup, long brokerCount) {
        /** The published method: 7 runs; 100,000 + 1,000,000 calls; brokered 2,000 + 20,000. */
        public static Counts published() {
            return new Counts(7, 100_000, 1_000_000, 2_000, 20_000);
        }

        /** About a minute for the whole table on a 2-core VM: for trying things, not for quoting. */
        public static Counts quick() {
            return new Counts(3, 10_000, 50_000, 500, 2_000);
        }

        long warmupFor(FloorRow row) {
            return row.brokered() ? brokerWarmup : warmup;
        }

        long countFor(FloorRow row) {
            return row.brokered() ? brokerCount : count;
        }
    }

    /**
     * One row's measurement.
     *
     * @param runs each run's samples, in run order (fewer than asked when the row failed)
     * @param baseline the same call with no filter, each run's samples
     * @param baselineRow the index of the row under which the baseline's samples were written
     * @param loadPerRun the 1-minute load average around each run (mean of before and after)
     * @param failure why the row failed (the child's fate, with its signal and call), or null
     * @param supervisor the supervisor's final counters for each run of a brokered row
     * @param loopWallNs for the kernel's notify loop ({@link FloorRow#notifyLoop()}), each run's figure as the
     *     kernel's benchmark times it: the loop's own clock over the timed calls, per call; empty otherwise
     */
    public record Measured(
            FloorRow row,
            List<long[]> runs,
            List<long[]> baseline,
            int baselineRow,
            List<Double> loadPerRun,
            String failure,
            int cpuGranted,
            List<SupervisorStats> supervisor,
            List<Double> loopWallNs) {
        public Measured {
            loopWallNs = List.copyOf(loopWallNs);
        }

        /** A row other than the notify loop's. */
        public Measured(
                FloorRow row,
                List<long[]> runs,
                List<long[]> baseline,
                int baselineRow,
                List<Double> loadPerRun,
                String failure,
                int cpuGranted,
                List<SupervisorStats> supervisor) {
            this(row, runs, baseline, baselineRow, loadPerRun, failure, cpuGranted, supervisor, List.of());
        }
    }

    /**
     * Measures {@code rows} on {@code cpu}, appending every sample to {@code samples} as it comes
     * (row index = position in {@code rows}; a baseline's samples go under the first row that uses it).
     */
    public static List<Measured> run(
            List<FloorRow> rows,
            Counts counts,
            int cpu,
            Path inDir,
            SamplesFile samples,
            Host.LoadSampler loads,
            Consumer<String> progress) {
        return run(rows, 0, counts, cpu, inDir, samples, loads, progress, () -> false, e -> false);
    }

    /**
     * Measures {@code rows}, their indices in {@code samples} (and {@link Measured#baselineRow()})
     * starting at {@code rowBase} — for measuring the same rows again into the same samples file (idle,
     * then under load) — and stopping before the next child once {@code session} is asked to (Ctrl-C):
     * what was measured is returned, and the run that was cut short is not counted. A run that throws
     * is the session's stop ({@link Session#stopOn}): the runs before it are returned. Progress lines go
     * to {@code progress} (the session's, or a prefixed one).
     */
    public static List<Measured> run(
            List<FloorRow> rows,
            int rowBase,
            Counts counts,
            int cpu,
            Path inDir,
            SamplesFile samples,
            Host.LoadSampler loads,
            Consumer<String> progress,
            Session session) {
        return run(
                rows, rowBase, counts, cpu, inDir, samples, loads, progress, session::stopRequested, session::stopOn);
    }

    private static List<Measured> run(
            List<FloorRow> rows,
            int rowBase,
            Counts counts,
            int cpu,
            Path inDir,
            SamplesFile samples,
            Host.LoadSampler loads,
            Consumer<String> progress,
            BooleanSupplier stop,
            Predicate<RuntimeException> stopOn) {
        // One baseline per distinct (call, counts): rows 2, 6 and 7 share mprotect's, for instance.
        Map<String, Integer> baselineOwner = new LinkedHashMap<>();
        int[] baselineOf = new int[rows.size()];
        List<Variant> variants = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            FloorRow row = rows.get(i);
            if (row.baselineCall() == null) {
                baselineOf[i] = -1; // a ping-pong has no unfiltered twin: it is itself the floor
                continue;
            }
            // A ping-pong then openat shares the brokered openat rows' baseline: the openat alone.
            String key = row.baselineCall() + "/" + counts.warmupFor(row) + "/" + counts.countFor(row);
            Integer owner = baselineOwner.get(key);
            if (owner == null) {
                owner = i;
                baselineOwner.put(key, i);
                variants.add(new Variant(i, true, row, new State()));
            }
            baselineOf[i] = owner;
        }
        State[] baselineState = new State[rows.size()];
        for (Variant v : variants) {
            baselineState[v.row] = v.state;
        }
        for (int i = 0; i < rows.size(); i++) {
            variants.add(new Variant(i, false, rows.get(i), new State()));
        }

        int total = counts.runs() * variants.size();
        int done = 0;
        measuring:
        for (int run = 0; run < counts.runs(); run++) {
            for (int k = 0; k < variants.size(); k++) {
                if (stop.getAsBoolean()) {
                    break measuring;
                }
                Variant v = variants.get((k + run) % variants.size());
                done++;
                if (v.state.failure != null) {
                    continue;
                }
                String label = v.source.label() + (v.baseline ? " (no filter)" : "");
                double before = loads.sample().one();
                try {
                    long[] got = v.baseline
                            ? measureBaseline(v.source, counts, cpu, run)
                            : measure(v.source, counts, cpu, run, inDir, v.state);
                    v.state.runs.add(got);
                    v.state.loads.add((before + loads.sample().one()) / 2);
                    samples.append(rowBase + v.row, v.baseline ? "none" : "filtered", run, got);
                    progress.accept(String.format(
                            Locale.ROOT,
                            "[%d/%d] run %d · %s: median %,d ns",
                            done,
                            total,
                            run + 1,
                            label,
                            Stats.of(got).median()));
                } catch (Refusal e) {
                    if (stop.getAsBoolean()) {
                        break measuring; // the child was ended by Ctrl-C, not by its floor
                    }
                    v.state.failure = e.getMessage();
                    progress.accept(String.format(
                            Locale.ROOT,
                            "[%d/%d] run %d · %s: FAILED: %s",
                            done,
                            total,
                            run + 1,
                            label,
                            e.getMessage()));
                } catch (RuntimeException e) {
                    if (!stopOn.test(e)) {
                        throw e;
                    }
                    break measuring; // the runs before this one are kept (Session.stopOn)
                }
            }
        }

        List<Measured> out = new ArrayList<>();
        for (Variant v : variants) {
            if (v.baseline) {
                continue;
            }
            State s = v.state;
            if (baselineOf[v.row] < 0) {
                out.add(new Measured(
                        v.source,
                        List.copyOf(s.runs),
                        List.of(),
                        -1,
                        List.copyOf(s.loads),
                        s.failure,
                        s.cpuGranted,
                        List.of()));
                continue;
            }
            State b = baselineState[baselineOf[v.row]];
            String failure = s.failure != null ? s.failure : b.failure != null ? "baseline: " + b.failure : null;
            out.add(new Measured(
                    v.source,
                    List.copyOf(s.runs),
                    List.copyOf(b.runs),
                    rowBase + baselineOf[v.row],
                    List.copyOf(s.loads),
                    failure,
                    s.cpuGranted,
                    List.copyOf(s.supervisor),
                    s.loopWall));
        }
        return out;
    }

    private record Variant(int row, boolean baseline, FloorRow source, State state) {}

    private static final class State {
        final List<long[]> runs = new ArrayList<>();
        final List<Double> loads = new ArrayList<>();
        final List<SupervisorStats> supervisor = new ArrayList<>();
        final List<Double> loopWall = new ArrayList<>();
        String failure;
        int cpuGranted = -1;
    }

    /**
     * The same call, same counts, no program. Run {@code run} of every variant uses the same code
     * placement of the runner's timed loop ({@link ChildSpec#placementForRun}), so a row and its
     * baseline are measured over the same placements.
     */
    private static long[] measureBaseline(FloorRow row, Counts counts, int cpu, int run) {
        ChildSpec spec = ChildSpec.of(row.baselineCall(), counts.warmupFor(row), counts.countFor(row))
                .withCpu(cpu)
                .withPlacementForRun(run);
        return MeasuredChild.run(spec).requireCompleted().samples();
    }

    /**
     * A reference row: a fresh ping-pong child, its partner thread placed where the supervisor would
     * be (same CPU or set), no seccomp; the same counts and per-call timing as a brokered row.
     */
    private static long[] measureReference(FloorRow row, ChildSpec spec, FloorRow.Brokering b, State s) {
        try (RunningChild child = MeasuredChild.start(spec)) {
            try {
                child.startPartner(b.supervisorCpu(), b.cpuSet());
            } catch (IllegalStateException e) {
                throw new Refusal(row.label() + ": " + e.getMessage());
            }
            ChildResult r = child.await().requireCompleted();
            s.cpuGranted = r.cpuGranted();
            return r.samples();
        }
    }

    /**
     * The kernel's notify loop: a fresh child whose trapped calls {@link NotifyLoop} answers, placed where
     * the supervisor would be; the child's per-call samples, and the loop's own figure into {@code s}.
     */
    private static long[] measureLoop(FloorRow row, ChildSpec spec, FloorRow.Brokering b, Counts counts, State s) {
        spec = spec.withNewListener(
                ChildSpec.ListenerTransfer.PIDFD_GETFD, row.floor().listenerProgram());
        try (RunningChild child = MeasuredChild.start(spec)) {
            int listener = Supervisor.duplicate(child.listenerFd());
            NotifyLoop loop;
            try {
                loop = NotifyLoop.start(
                        listener,
                        b.supervisorCpu(),
                        b.cpuSet(),
                        b.syncWakeUp(),
                        counts.warmupFor(row),
                        counts.countFor(row));
            } catch (RuntimeException e) {
                NativeLib.hl_close(listener);
                throw e;
            }
            try (loop) {
                ChildResult r = child.await().requireCompleted();
                s.cpuGranted = r.cpuGranted();
                NotifyLoop.Result done = loop.stop();
                if (done.wallNsPerCall() < 0) {
                    throw new Refusal(row.label() + ": the loop answered " + done.iterations() + " calls, not every "
                            + "timed one");
                }
                s.loopWall.add(done.wallNsPerCall());
                return r.samples();
            }
        }
    }

    /** One fresh child under the row's floor; a brokered row's calls answered by its supervisor. */
    private static long[] measure(FloorRow row, Counts counts, int cpu, int run, Path inDir, State s) {
        ChildSpec spec = ChildSpec.of(row.call(), counts.warmupFor(row), counts.countFor(row))
                .withCpu(cpu)
                .withPrograms(row.floor().bytes())
                .withPlacementForRun(run);
        if (!row.brokered()) {
            ChildResult r = MeasuredChild.run(spec).requireCompleted();
            s.cpuGranted = r.cpuGranted();
            return r.samples();
        }
        FloorRow.Brokering b = row.broker();
        if (b.cpuSet() != 0) {
            spec = spec.withCpuSet(b.cpuSet()); // the child free on the set too, as the supervisor is
        }
        if (row.notifyLoop()) {
            return measureLoop(row, spec, b, counts, s);
        }
        if (row.reference()) {
            return measureReference(row, spec, b, s);
        }
        // pidfd_getfd hand-over: the floor then needs to allow only close(2) after installing.
        spec = spec.withNewListener(
                ChildSpec.ListenerTransfer.PIDFD_GETFD, row.floor().listenerProgram());
        SupervisorOptions options = new SupervisorOptions(b.supervisorCpu(), b.cpuSet(), inDir, b.syncWakeUp());
        try (RunningChild child = MeasuredChild.start(spec)) {
            // The child keeps its descriptor (closed with it); the supervisor owns a duplicate.
            int listener = Supervisor.duplicate(child.listenerFd());
            Supervisor supervisor;
            try {
                supervisor = Supervisor.start(b.supervisor(), listener, options, b.answer());
            } catch (RuntimeException e) {
                NativeLib.hl_close(listener);
                throw e;
            }
            try (supervisor) {
                ChildResult r = child.await().requireCompleted();
                s.cpuGranted = r.cpuGranted();
                if (r.lastErrno() != 0) {
                    throw new Refusal(row.label() + ": the brokered call failed with errno " + r.lastErrno() + " ("
                            + Errno.name(r.lastErrno()) + ")");
                }
                s.supervisor.add(supervisor.stop());
                return r.samples();
            }
        }
    }
}
