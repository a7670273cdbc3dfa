package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.floor.Floor;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.List;

/**
 * What to measure, set step by step: {@code Lab.measure("getppid").under(floor).cpu(1).runs(7).run()}.
 * Each setter checks its value at once (a {@link BadInput} naming the field); {@link #run()} then
 * times the call exactly as {@code ./lab reproduce floor-cost} times a row: every run a fresh
 * {@code heimdall-runner} child (no JVM in it) pinned to the CPU, installing the floors' programs,
 * making the warm-up calls and then the timed ones, each timed alone; a plain call's runs rotate
 * through the runner's four code placements of the timed loop unless one is fixed.
 *
 * <p>Not thread-safe: a builder for one caller. Each setter returns this builder.
 */
public final class Measure {
    /** The most runs one measurement asks for (each run is a process with its samples kept). */
    public static final int MAX_RUNS = 10_000;

    private final Call call;
    private final List<Floor> floors = new ArrayList<>();
    private int cpu = -2;
    private int runs = 3;
    private long warmup = 10_000;
    private long calls = 50_000;
    private Integer placement;

    Measure(Call call) {
        this.call = call;
    }

    /** Installs {@code floor}'s programs (after any given before): a stack of floors, oldest first. */
    public Measure under(FloorView... floors) {
        for (FloorView f : floors) {
            if (f == null) {
                throw bad("under", "a floor is null");
            }
            this.floors.add(f.floor());
        }
        int programs = this.floors.stream().mapToInt(f -> f.programs().size()).sum();
        if (programs > ChildSpec.MAX_PROGRAMS) {
            throw bad("under", programs + " programs, more than the runner's " + ChildSpec.MAX_PROGRAMS);
        }
        return this;
    }

    /** Installs a floor built with {@link heimdall.lab.floor.Floors}. */
    public Measure under(Floor floor) {
        if (floor == null) {
            throw bad("under", "the floor is null");
        }
        floors.add(floor);
        return this;
    }

    /** The CPU the child pins itself to; one of {@link Cpus#allowed()} (default {@link Cpus#measuring()}). */
    public Measure cpu(int cpu) {
        List<Integer> allowed = Cpus.allowed();
        if (!allowed.contains(cpu)) {
            throw bad("cpu", "CPU " + cpu + " is not one this process may use " + allowed);
        }
        this.cpu = cpu;
        return this;
    }

    /** Fresh children, one a run (1..{@value #MAX_RUNS}; default 3). */
    public Measure runs(int runs) {
        if (runs < 1 || runs > MAX_RUNS) {
            throw bad("runs", "must be 1.." + MAX_RUNS + ", got " + runs);
        }
        this.runs = runs;
        return this;
    }

    /** Untimed calls before the timed ones in each run (default 10,000). */
    public Measure warmup(long warmup) {
        if (warmup < 0 || warmup > ChildSpec.MAX_WARMUP) {
            throw bad("warmup", "must be 0.." + ChildSpec.MAX_WARMUP + ", got " + warmup);
        }
        this.warmup = warmup;
        return this;
    }

    /** Timed calls a run, each timed alone (default 50,000). */
    public Measure calls(long calls) {
        if (calls < 1 || calls > ChildSpec.MAX_COUNT) {
            throw bad("calls", "must be 1.." + ChildSpec.MAX_COUNT + ", got " + calls);
        }
        this.calls = calls;
        return this;
    }

    /**
     * Every run with the runner's timed loop at one code placement (0..3) instead of rotating
     * through them; see {@link ChildSpec#placement()}.
     */
    public Measure placement(int placement) {
        if (placement < 0 || placement >= ChildSpec.PLACEMENTS) {
            throw bad("placement", "must be 0.." + (ChildSpec.PLACEMENTS - 1) + ", got " + placement);
        }
        if (placement != 0 && !ChildSpec.placeable(call)) {
            throw bad("placement", call.label() + " has one copy of its loop: placement must be 0, got " + placement);
        }
        this.placement = placement;
        return this;
    }

    /** The child's spec for run {@code run} (0-based), as floor-cost builds a row's. */
    ChildSpec spec(int run) {
        List<byte[]> programs = new ArrayList<>();
        floors.forEach(f -> programs.addAll(f.bytes()));
        ChildSpec s = ChildSpec.of(call, warmup, calls)
                .withCpu(cpu == -2 ? Cpus.measuring() : cpu)
                .withPrograms(programs);
        return placement == null ? s.withPlacementForRun(run) : s.withPlacement(placement);
    }

    /**
     * Runs the measurement: {@code runs} fresh children one after another.
     *
     * <p>Ctrl-C, SIGTERM or a notebook interrupt ends the running child; the runs completed before it
     * are returned, marked {@link Measurement#interrupted()}; with none completed,
     * {@link Interruption.Stopped} is thrown. Any other failure ends the child too (none is left).
     *
     * @throws Refusal when a child does not complete (killed by its floor, the call not allowed)
     */
    public Measurement run() {
        Measurement m = runUnrecorded();
        Session.current().record(m, call, floors);
        return m;
    }

    /** The call measured. */
    Call call() {
        return call;
    }

    /** The floors it runs under, oldest first. */
    List<Floor> floors() {
        return List.copyOf(floors);
    }

    /** The runs asked ({@link #runs(int)}). */
    int runsAsked() {
        return runs;
    }

    /** A copy of this builder set to one run: a member of {@link Interleaved}'s turns, the caller's left as it is. */
    Measure oneRun() {
        Measure m = new Measure(call);
        m.floors.addAll(floors);
        m.cpu = cpu;
        m.runs = 1;
        m.warmup = warmup;
        m.calls = calls;
        m.placement = placement;
        return m;
    }

    /** {@link #run()} without recording the measurement in the session. */
    Measurement runUnrecorded() {
        return runUnrecorded(0);
    }

    /**
     * {@link #runUnrecorded()} with its runs numbered from {@code firstRun}: turn {@code t} of
     * {@link Interleaved} is run {@code t}, so its code placement rotates turn by turn as a plain
     * measurement's does run by run.
     */
    Measurement runUnrecorded(int firstRun) {
        spec(firstRun); // checks the whole spec before any child runs
        List<long[]> got = new ArrayList<>();
        List<Integer> placements = new ArrayList<>();
        int granted = -1;
        try (Interruption stop = Interruption.catchSignals()) {
            for (int run = 0; run < runs; run++) {
                if (stop.requested()) {
                    break;
                }
                ChildSpec spec = spec(firstRun + run);
                ChildResult r;
                try {
                    r = MeasuredChild.run(spec).requireCompleted();
                } catch (Refusal e) {
                    if (stop.requested()) {
                        break; // the stop ended this child; the run does not count
                    }
                    throw new Refusal(label() + ": run " + (run + 1) + ": " + e.getMessage(), e);
                }
                got.add(r.samples());
                placements.add(spec.placement());
                granted = r.cpuGranted();
            }
            if (got.isEmpty() && stop.requested()) {
                throw new Interruption.Stopped(stop.cause().orElseThrow());
            }
            return Measurement.of(
                    label(),
                    floors.stream().map(Floor::name).toList(),
                    granted,
                    placements,
                    got,
                    runs,
                    got.size() < runs);
        }
    }

    /** {@code getppid under static floor, abcdf}. */
    String label() {
        return call.label()
                + (floors.isEmpty()
                        ? ""
                        : " under "
                                + String.join(
                                        " + ", floors.stream().map(Floor::name).toList()));
    }

    private static BadInput bad(String field, String reason) {
        return BadInput.at("measure", field, reason);
    }
}
