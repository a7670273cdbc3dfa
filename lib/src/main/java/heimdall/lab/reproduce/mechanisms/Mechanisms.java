package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.landlock.LandlockAbi;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.MechanismsRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which mechanism for the policy "read beneath {@code in/}": Landlock beside the broker on the same calls, in
 * one run. Rows: {@code openat} of an admitted name at depths 1, 10 and 30, of a refused name at depths 3, 10
 * and 30, and {@code stat}, under Landlock, the static floor, the floor with Landlock, the broker (native and
 * Java supervisors, CONTINUE and BROKER), the floor over the broker (native, BROKER), and the broker with
 * Landlock (native, CONTINUE); each against
 * the same call with nothing. Then the two policies' decisions on a grid of names ({@link DecisionGrid}).
 */
public final class Mechanisms {
    private Mechanisms() {}

    /**
     * What to run.
     *
     * @param counts runs and calls (brokered calls have their own counts)
     * @param cpu the child's CPU
     * @param supervisorCpu the supervisor's CPU
     */
    public record Options(FloorBench.Counts counts, int cpu, int supervisorCpu) {}

    static final String LANDLOCK = "landlock";
    static final String FLOOR = "floor";
    static final String FLOOR_LANDLOCK = "floor + landlock";
    static final String BROKER = "broker";
    static final String FLOOR_BROKER = "floor + broker";
    static final String BROKER_LANDLOCK = "broker + landlock";

    /** The job folder's prefix under {@code java.io.tmpdir} (a random suffix follows). */
    static final String JOB_PREFIX = "heimdall-lab-mechanisms-";

    /** The rows, in table order, for the job's {@code in/}. */
    static List<MechanismRow> rows(Options o, Path in) {
        Floor none = new Floor("no filter", List.of(), -1);
        Floor floor = Floors.staticFloor("static floor, abcdf", Fixtures.profile("abcdf"));
        Floor broker = new Floor("broker floor", List.of(Compiler.compile(Floors.brokerFloor())), 0);
        Floor floorBroker =
                Floors.overBrokerFloor("static floor over the broker floor, abcdf", Fixtures.profile("abcdf"));
        Landlock ll = Landlock.create().readBeneath(in);

        List<Named> calls = new ArrayList<>();
        for (int d : JobTree.ADMITTED_DEPTHS) {
            calls.add(new Named(Call.openatFrom(in, JobTree.admitted(d)), JobTree.admitted(d), d, true));
        }
        for (int d : JobTree.REFUSED_DEPTHS) {
            calls.add(new Named(Call.openatFrom(in, JobTree.refused(d)), JobTree.refused(d), d, false));
        }
        calls.add(new Named(Call.statFrom(in, JobTree.admitted(1)), JobTree.admitted(1), 1, true));
        calls.add(new Named(Call.statFrom(in, JobTree.refused(3)), JobTree.refused(3), 3, false));

        List<MechanismRow> rows = new ArrayList<>();
        for (Named c : calls) {
            rows.add(c.row(LANDLOCK, none, ll, null));
            rows.add(c.row(FLOOR, floor, null, null));
            rows.add(c.row(FLOOR_LANDLOCK, floor, ll, null));
        }
        for (Named c : calls) {
            if (c.call.kind() != Call.Kind.OPENAT) {
                continue; // the broker sees no stat: nothing to answer
            }
            for (Answer a : List.of(Answer.CONTINUE, Answer.BROKER)) {
                for (Supervisor.Kind k : Supervisor.Kind.values()) {
                    rows.add(c.row(BROKER, broker, null, brokering(k, a, o)));
                }
            }
            // The floor over the broker: the sandbox a brokered job wants, with the broker's policy (BROKER).
            rows.add(c.row(FLOOR_BROKER, floorBroker, null, brokering(Supervisor.Kind.NATIVE, Answer.BROKER, o)));
            // Landlock under a CONTINUE answer: the kernel makes the call as the child's, so Landlock decides it
            // (with BROKER the supervisor opens, which Landlock does not confine: the same as the broker alone).
            // Fewer combinations than could be made: distributions.json must stay small enough for git.
            rows.add(c.row(BROKER_LANDLOCK, broker, ll, brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, o)));
        }
        return rows;
    }

    private static FloorRow.Brokering brokering(Supervisor.Kind k, Answer a, Options o) {
        return new FloorRow.Brokering(k, a, "own CPU", o.supervisorCpu(), false);
    }

    private record Named(Call call, String name, int depth, boolean admitted) {
        MechanismRow row(String mechanism, Floor floor, Landlock landlock, FloorRow.Brokering broker) {
            return MechanismRow.of(mechanism, floor, landlock, call, broker, name, depth, admitted);
        }
    }

    /**
     * Measures every row and asks the grid, stopping before the next child once the session is asked to;
     * returns what was measured for the framework to write.
     */
    public static ReproductionResult run(Options o, Session session) {
        try (Scratch job = Scratch.create(JOB_PREFIX)) {
            return run(o, session, job);
        }
    }

    private static ReproductionResult run(Options o, Session session, Scratch job) {
        JobTree tree = JobTree.make(job);
        List<MechanismRow> rows = rows(o, tree.in);
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        int abi = Landlock.kernelAbi();
        Optional<Integer> predicted = LandlockAbi.predicted(host.kernelRelease());
        String plan = plan(rows, abi);
        session.progress()
                .accept(String.format(
                        Locale.ROOT,
                        "mechanisms: %d rows, %d runs each; child on CPU %d, supervisor on CPU %d; Landlock ABI %d "
                                + "(predicted from %s: %s); %s",
                        rows.size(),
                        o.counts().runs(),
                        o.cpu(),
                        o.supervisorCpu(),
                        abi,
                        host.kernelRelease(),
                        predicted.map(String::valueOf).orElse("unknown"),
                        plan));
        Instant started = Instant.now();
        List<MechanismsBench.Measured> measured = List.of();
        ResultsFolder folder = session.folder();
        if (!session.stopRequested()) {
            try (SamplesFile samples = folder.createSamples()) {
                measured = MechanismsBench.run(
                        rows,
                        o.counts(),
                        o.cpu(),
                        o.supervisorCpu(),
                        tree.in,
                        samples,
                        loads,
                        session,
                        refusal(rows, abi));
            }
        }
        List<DecisionGrid.Outcome> grid = List.of();
        if (!session.stopRequested()) {
            session.progress().accept("mechanisms: the decision grid (" + DecisionGrid.CASES.size() + " names)");
            boolean root = root();
            Path gridIn = DecisionGrid.make(job.newDirectory("grid"), root);
            grid = DecisionGrid.decide(gridIn, brokerFloor(), o.cpu(), o.supervisorCpu(), root, refusal(rows, abi));
        }
        boolean complete = measured.size() == rows.size()
                && measured.stream()
                        .allMatch(m -> m.measured().failure() != null
                                || m.measured().runs().size() >= o.counts().runs());
        Optional<Interruption.Cause> cause = complete && !grid.isEmpty() ? Optional.empty() : session.stopCause();
        if (cause.isPresent()
                && measured.stream().allMatch(m -> m.measured().runs().isEmpty())) {
            session.progress()
                    .accept("mechanisms: " + cause.get().said() + " before any run completed; nothing written");
            return ReproductionResult.nothing(cause);
        }
        List<MechanismsRow> summary = new ArrayList<>();
        for (int i = 0; i < measured.size(); i++) {
            MechanismsBench.Measured m = measured.get(i);
            MechanismRow row = rows.get(i);
            var f = FloorSummary.of(m.measured(), o.counts().runs(), cause.isPresent());
            summary.add(new MechanismsRow(
                    row.mechanism(),
                    row.landlock() != null,
                    row.name(),
                    (long) row.depth(),
                    row.admitted() ? "admit" : "refuse",
                    m.result(),
                    row.landlock() != null && m.landlockAbi() > 0 ? (long) m.landlockAbi() : null,
                    f.withIntervals(null),
                    f.intervals()));
        }
        MechanismsSettings settings = new MechanismsSettings(
                o.cpu(),
                o.supervisorCpu(),
                o.counts(),
                CODE_PLACEMENT,
                "Lab.landlock().readBeneath(in/): read_file and read_dir beneath in/, every other file-system right "
                        + "(" + Landlock.DEFAULT_HANDLED.size() + ", up to ABI 5) handled, so denied everywhere",
                abi,
                predicted.orElse(null),
                plan,
                grid,
                ResultsFolder.javaVm());
        return ReproductionResult.of(
                ReproductionKind.of(MechanismsRow.class, MechanismsSettings.class),
                new Recorded<>(summary, settings, host, started, Instant.now()),
                cause);
    }

    static final String CODE_PLACEMENT =
            "run i of every row and of its baseline times its calls with the runner's copy i mod 4 of the loop "
                    + "(16-byte steps within a 64-byte code line); floor-cost's method";

    /** Whether we run as root (the owner of /proc/self is our effective uid): the grid's root-only names. */
    static boolean root() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Why this kernel refuses the Landlock rows' ruleset, or null where it takes it. */
    static String refusal(List<MechanismRow> rows, int abi) {
        for (MechanismRow r : rows) {
            if (r.landlock() != null) {
                try {
                    r.landlock().plan(abi);
                } catch (Refusal e) {
                    return e.getMessage();
                }
            }
        }
        return null;
    }

    static Floor brokerFloor() {
        return new Floor("broker floor", List.of(Compiler.compile(Floors.brokerFloor())), 0);
    }

    /** The ruleset on this kernel in words: {@code enforced (ABI 7)}, or the refusal (its rows then fail with it). */
    static String plan(List<MechanismRow> rows, int abi) {
        Landlock ll = rows.stream()
                .map(MechanismRow::landlock)
                .filter(x -> x != null)
                .findFirst()
                .orElse(null);
        if (ll == null) {
            return "no Landlock row";
        }
        try {
            ll.plan(abi);
            return "Landlock enforced (ABI " + abi + ")";
        } catch (Refusal e) {
            return e.getMessage();
        }
    }
}
