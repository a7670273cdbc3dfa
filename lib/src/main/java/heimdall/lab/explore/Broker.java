package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.JavaSupervisor;
import heimdall.lab.broker.Policy;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.broker.SupervisorOptions;
import heimdall.lab.broker.SupervisorStats;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.RunningChild;
import heimdall.lab.profile.Action;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.NativeLib;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A brokered round trip, set step by step: a measured child ({@code heimdall-runner}, no JVM) calls
 * {@code openat} on one file again and again under a floor that notifies a supervisor for it, and the
 * supervisor answers each call: continue, deny with an errno, open the file itself beneath a folder
 * and inject the descriptor, or return a value.
 *
 * <pre>{@code
 * Lab.broker(n -> n.readPath(1) > 0 && n.pathContains("secret".getBytes()) ? Answer.error(13) : Answer.BROKER)
 *    .javaSupervisor().open("data.txt").runs(3).roundTrip();
 * }</pre>
 *
 * <p>Without {@link #under} the child runs under {@link Lab#brokerFloor()}: every open by name brokered,
 * the opens without a name killed, the rest allowed; {@link #toString()} and the result's floors say
 * which floor ran. Without {@link #beneath(Path)} the file lives in a private scratch folder made for the round trip
 * and removed after it. Not thread-safe: a builder for one caller.
 */
public final class Broker {
    private final Policy policy;
    private final Answer fixed;
    private Supervisor.Kind kind;
    private Path beneath;
    private String open = "data.txt";
    private FloorView floor;
    private int cpu = -2;
    private int supervisorCpu = -2;
    private int runs = 3;
    private long warmup = 500;
    private long calls = 2_000;

    Broker(Policy policy, Answer fixed) {
        this.policy = policy;
        this.fixed = fixed;
        this.kind = fixed != null ? Supervisor.Kind.NATIVE : Supervisor.Kind.JAVA;
    }

    /** The native supervisor (a C thread); it gives one fixed answer, so needs {@link Lab#broker(Answer)}. */
    public Broker nativeSupervisor() {
        if (fixed == null) {
            throw bad(
                    "supervisor",
                    "the native supervisor gives one fixed answer; a Java policy runs in javaSupervisor() "
                            + "(or give Lab.broker(Answer) a fixed answer)");
        }
        kind = Supervisor.Kind.NATIVE;
        return this;
    }

    /** The Java supervisor, which asks the policy for each call. */
    public Broker javaSupervisor() {
        kind = Supervisor.Kind.JAVA;
        return this;
    }

    /**
     * The folder the child's file is in, and beneath which a {@link Answer#BROKER} answer opens it;
     * an existing directory, not a symbolic link.
     */
    public Broker beneath(Path folder) {
        if (folder == null || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            throw bad("beneath", folder + " is not a directory (a symbolic link is not taken)");
        }
        this.beneath = folder.toAbsolutePath();
        return this;
    }

    /** The file the child opens: one plain name in the folder (default {@code data.txt}). */
    public Broker open(String name) {
        if (name == null
                || name.isEmpty()
                || name.contains("/")
                || name.equals(".")
                || name.equals("..")
                || name.indexOf('\0') >= 0
                || name.getBytes(StandardCharsets.UTF_8).length > 255) {
            throw bad("open", "'" + name + "' is not one plain file name");
        }
        this.open = name;
        return this;
    }

    /**
     * The floor the child installs; it must notify for {@code openat} (default: {@link Lab#brokerFloor()},
     * the broker filter alone, which is a broker, not a sandbox; a static floor stacked on a broker
     * filter, {@link FloorView#stacked}, is the sandbox).
     */
    public Broker under(FloorView floor) {
        if (floor == null || !floor.brokered()) {
            throw bad(
                    "under",
                    (floor == null ? "no floor" : floor.name()) + ": the floor notifies no supervisor "
                            + "(FloorView.threeAnswers(\"openat\") or .stacked(\"openat\") make one)");
        }
        if (floor.verdict(Call.openat(Path.of("/dev/null/x"))).actionOnly() != Action.Kind.NOTIFY.base) {
            throw bad(
                    "under",
                    floor.name() + ": openat is not notified under this floor, so no supervisor would answer it");
        }
        this.floor = floor;
        return this;
    }

    /** The floor the child runs under: the one given to {@link #under}, else {@link Lab#brokerFloor()}. */
    public FloorView floorView() {
        return floor != null ? floor : Lab.brokerFloor();
    }

    /** What runs: the call, the supervisor, its answer and the floor (the broker filter alone, or the given one). */
    @Override
    public String toString() {
        return "broker round trip: openat " + open + " via " + kind.label() + " supervisor ("
                + (fixed != null ? fixed.label() : "policy") + "), under "
                + floorView().name();
    }

    /** The child's CPU; one of {@link Cpus#allowed()} (default {@link Cpus#measuring()}). */
    public Broker cpu(int cpu) {
        this.cpu = allowed("cpu", cpu);
        return this;
    }

    /** The supervisor's CPU; one of {@link Cpus#allowed()} (default {@link Cpus#supervisor()}). */
    public Broker supervisorCpu(int cpu) {
        this.supervisorCpu = allowed("supervisorCpu", cpu);
        return this;
    }

    /** Fresh children (1..{@value Measure#MAX_RUNS}; default 3). */
    public Broker runs(int runs) {
        if (runs < 1 || runs > Measure.MAX_RUNS) {
            throw bad("runs", "must be 1.." + Measure.MAX_RUNS + ", got " + runs);
        }
        this.runs = runs;
        return this;
    }

    /** Untimed round trips before the timed ones (default 500). */
    public Broker warmup(long warmup) {
        if (warmup < 0 || warmup > ChildSpec.MAX_WARMUP) {
            throw bad("warmup", "must be 0.." + ChildSpec.MAX_WARMUP + ", got " + warmup);
        }
        this.warmup = warmup;
        return this;
    }

    /** Timed round trips a run (default 2,000). */
    public Broker calls(long calls) {
        if (calls < 1 || calls > ChildSpec.MAX_COUNT) {
            throw bad("calls", "must be 1.." + ChildSpec.MAX_COUNT + ", got " + calls);
        }
        this.calls = calls;
        return this;
    }

    /**
     * Measures the round trips: each run a fresh child whose listener goes to a fresh supervisor.
     * Ctrl-C or a notebook interrupt ends the running child (its supervisor stopped with it) and
     * returns the runs completed, marked interrupted ({@link Interruption.Stopped} with none).
     *
     * @throws Refusal when user notification is unavailable, a CPU cannot be granted, or a child
     *     does not complete
     */
    public RoundTrip roundTrip() {
        String why = Supervisor.unsupportedReason();
        if (why != null) {
            throw new Refusal(why);
        }
        FloorView f = floorView();
        int childCpu = cpu == -2 ? Cpus.measuring() : cpu;
        int supCpu = supervisorCpu == -2 ? Cpus.supervisor() : supervisorCpu;
        Scratch scratch = beneath == null ? Scratch.create("heimdall-lab-explore-") : null;
        try {
            Path dir = beneath != null ? beneath : scratchFile(scratch);
            return measure(f, dir, childCpu, supCpu);
        } finally {
            if (scratch != null) {
                scratch.close();
            }
        }
    }

    private Path scratchFile(Scratch scratch) {
        Path dir = scratch.newDirectory("in");
        try {
            SafeFiles.writeNew(
                    dir.resolve(open),
                    "heimdall-lab: the file a brokered openat opens\n".getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(open), e);
        }
        return dir;
    }

    private RoundTrip measure(FloorView f, Path dir, int childCpu, int supCpu) {
        Call call = Call.openat(dir.resolve(open));
        SupervisorOptions options = new SupervisorOptions(supCpu, dir, false);
        List<long[]> got = new ArrayList<>();
        List<Integer> placements = new ArrayList<>();
        List<SupervisorStats> stats = new ArrayList<>();
        String outcome = null;
        String policyFailure = null;
        try (Interruption stop = Interruption.catchSignals()) {
            for (int run = 0; run < runs; run++) {
                if (stop.requested()) {
                    break;
                }
                ChildSpec spec = ChildSpec.of(call, warmup, calls)
                        .withCpu(childCpu)
                        .withPrograms(f.floor().bytes())
                        .withPlacementForRun(run)
                        .withNewListener(
                                ChildSpec.ListenerTransfer.PIDFD_GETFD,
                                f.floor().listenerProgram());
                try (RunningChild child = MeasuredChild.start(spec)) {
                    int listener = Supervisor.duplicate(child.listenerFd());
                    Supervisor sup;
                    try {
                        sup = kind == Supervisor.Kind.NATIVE
                                ? Supervisor.start(kind, listener, options, fixed)
                                : Supervisor.start(listener, options, policy);
                    } catch (RuntimeException e) {
                        NativeLib.hl_close(listener);
                        throw e;
                    }
                    try (sup) {
                        ChildResult r = child.await().requireCompleted();
                        stats.add(sup.stop());
                        if (sup instanceof JavaSupervisor js && js.policyFailure() != null && policyFailure == null) {
                            policyFailure = String.valueOf(js.policyFailure());
                        }
                        got.add(r.samples());
                        placements.add(spec.placement());
                        outcome = r.lastOutcome();
                    }
                } catch (Refusal e) {
                    if (stop.requested()) {
                        break;
                    }
                    throw new Refusal("broker round trip: run " + (run + 1) + ": " + e.getMessage(), e);
                }
            }
            if (got.isEmpty() && stop.requested()) {
                throw new Interruption.Stopped(stop.cause().orElseThrow());
            }
        }
        String label = "openat " + open + " via " + kind.label() + " supervisor"
                + (fixed != null ? " (" + fixed.label() + ")" : " (policy)");
        Measurement m = Measurement.of(label, List.of(f.name()), childCpu, placements, got, runs, got.size() < runs);
        return new RoundTrip(kind.label(), fixed != null ? fixed.label() : "policy", m, stats, outcome, policyFailure);
    }

    private static int allowed(String field, int cpu) {
        List<Integer> allowed = Cpus.allowed();
        if (!allowed.contains(cpu)) {
            throw bad(field, "CPU " + cpu + " is not one this process may use " + allowed);
        }
        return cpu;
    }

    private static BadInput bad(String field, String reason) {
        return BadInput.at("broker", field, reason);
    }
}
