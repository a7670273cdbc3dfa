package heimdall.lab.reproduce.workloadcost;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.follower.Follower;
import heimdall.lab.follower.Hook;
import heimdall.lab.follower.KernelTables;
import heimdall.lab.graph.Edge;
import heimdall.lab.graph.EdgeKind;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.record.GraphRecordCommand;
import heimdall.lab.graph.record.GraphRecorder;
import heimdall.lab.graph.record.Symbols;
import heimdall.lab.landlock.Landlock;
import heimdall.lab.landlock.LandlockRight;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.probe.Tracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the mechanisms that are not a seccomp filter need for one workload: the Landlock ruleset the child
 * enforces on itself, and the kernel follower's tables from the program's recorded graph. Either is a
 * {@link Refusal} naming the reason where the kernel or the program cannot have it; never a stand-in.
 */
final class Enforcers {
    /**
     * The follower's hook: design (a), the syscall-entry tracepoint ({@code tp_btf/sys_enter}), the design that
     * attaches on the host; design (b) ({@code fentry/__secure_computing}) runs in a guest (follower-cost).
     */
    static final Hook HOOK = Hook.SYSCALL_TRACEPOINT;

    /** The newest ABI whose file-system rights the ruleset handles (5: ioctl on devices); later ABIs add none. */
    static final int HANDLED_UP_TO_ABI = 5;

    private final Path dir;
    private final Path tmp;
    private int written;

    /**
     * @param dir our scratch folder for the rulesets' descriptions
     * @param tmp the runs' {@code TMPDIR}, a folder of ours (every mechanism's runs get it, so that the compiler's
     *     temporary files land beneath a folder Landlock lets the program write)
     */
    Enforcers(Path dir, Path tmp) {
        this.dir = dir;
        this.tmp = tmp;
    }

    /** A workload's Landlock ruleset, as the child reads it, the ruleset and the kernel's ABI. */
    record LandlockSetup(Path file, Landlock ruleset, int abi) {}

    /** A workload's follower tables and how its graph was recorded. */
    record FollowSetup(KernelTables tables, int sites, int recordedCalls) {}

    /**
     * The ruleset of {@link Mechanism#LANDLOCK}: every file-system right the kernel's ABI knows (up to
     * {@link #HANDLED_UP_TO_ABI}) handled, so denied but where a rule allows it:
     *
     * <ul>
     *   <li>read files, list folders and execute beneath {@code /}: a program, its loader, libraries, modules,
     *       headers and inputs are wherever its package put them, and the default suite reads all over
     *       {@code /usr} and {@code /etc} ({@code gcc}'s headers, {@code python3}'s modules); what the broker
     *       keeps beneath {@code in/} is a read policy of another scale, measured by the broker rows;
     *   <li>every right beneath the workload's working folder (its inputs and outputs; for the default suite a
     *       folder of this run's private scratch folder) and beneath the runs' {@code TMPDIR} (ours too:
     *       {@code gcc}'s assembler file, {@code cc1}'s output);
     *   <li>read, write, truncate and device ioctl on {@code /dev/null} alone ({@code gcc -o /dev/null}, a
     *       shell's {@code >/dev/null}).
     * </ul>
     *
     * So every default workload runs whole, and a write anywhere else (a user's home, {@code /etc}, {@code /tmp}
     * itself) is refused with {@code EACCES}. Not confined by any ABI: {@code stat}, {@code access} and lookups
     * (see {@link Landlock}); the ruleset handles exactly what this kernel knows (never a right dropped with a
     * warning, never silently widened: a right the ABI lacks is one this kernel cannot confine, and the row
     * says the ABI).
     */
    static Landlock ruleset(Path workDir, Path tmp, int abi) {
        Set<LandlockRight> handled = EnumSet.noneOf(LandlockRight.class);
        for (LandlockRight r : LandlockRight.knownBy(Math.min(abi, HANDLED_UP_TO_ABI))) {
            if (r.kind() == LandlockRight.Kind.FS) {
                handled.add(r);
            }
        }
        List<Landlock.Rule> rules = new ArrayList<>();
        rules.add(rule(Path.of("/"), handled, LandlockRight.READ_FILE, LandlockRight.READ_DIR, LandlockRight.EXECUTE));
        rules.add(rule(
                Path.of("/dev/null"),
                handled,
                LandlockRight.READ_FILE,
                LandlockRight.WRITE_FILE,
                LandlockRight.TRUNCATE,
                LandlockRight.IOCTL_DEV));
        rules.add(new Landlock.Rule(workDir, handled));
        if (!tmp.startsWith(workDir)) {
            rules.add(new Landlock.Rule(tmp, handled));
        }
        return new Landlock(handled, rules, false);
    }

    private static Landlock.Rule rule(Path dir, Set<LandlockRight> handled, LandlockRight... rights) {
        Set<LandlockRight> allowed = EnumSet.noneOf(LandlockRight.class);
        for (LandlockRight r : rights) {
            if (handled.contains(r)) {
                allowed.add(r);
            }
        }
        return new Landlock.Rule(dir, allowed);
    }

    /** {@link Mechanism#LANDLOCK}'s ruleset for {@code w}, written for the child; refused without Landlock. */
    LandlockSetup landlock(Workload w) throws IOException {
        int abi = Landlock.kernelAbi();
        if (abi <= 0) {
            throw new Refusal("this kernel has no Landlock: landlock_create_ruleset(NULL, 0, VERSION) answers no ABI "
                    + "(Linux 5.13 or later, CONFIG_SECURITY_LANDLOCK=y, landlock among the active LSMs)");
        }
        Landlock ruleset = ruleset(w.dir().toAbsolutePath(), tmp, abi);
        Path file = dir.resolve(String.format(Locale.ROOT, "%02d-landlock-%s.ll", written++, w.name()));
        Files.write(file, ruleset.encode(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new LandlockSetup(file, ruleset, abi);
    }

    /**
     * {@link Mechanism#FOLLOWER}'s tables for {@code w}: one run traced with call sites ({@code graph record}'s
     * method), projected onto its graph, compiled, minimized and laid out. The traced run is launched as every
     * measured run is, by {@code heimdall-workload} ({@link OneRun#launcher}) with the runs' environment
     * ({@link OneRun#environment}): stdin {@code /dev/null}, stdout and stderr pipes, the workload's folder, no
     * other descriptor. A program follows other paths under other conditions ({@code cat} copies a file into a
     * regular file with {@code copy_file_range} but into a pipe maps a buffer and reads and writes), and the
     * follower kills every path its graph lacks: recorded elsewhere, a deterministic program would be refused for a
     * fault of the method. Only the program's process is recorded, from its exec, as a root's is
     * ({@link GraphRecorder#record(List, int, java.util.function.Function)}), never the launcher's calls; its
     * repetitions of a site are {@code next} self-edges ({@link #selfSuccessionsAsNext}).
     *
     * <p>Refused where the host cannot run the follower (not root, no BTF), where the traced run failed, and
     * where the program makes processes: the follower follows one process and its threads, so a program whose
     * work is done by the processes it starts ({@code make}'s rules, {@code gcc}'s {@code cc1} and {@code as})
     * would be followed only in its first one: a row that says nothing of the rest, refused rather than shown.
     */
    FollowSetup follower(Workload w) throws IOException, InterruptedException {
        Follower.checkHost();
        OneRun.Extra runs = new OneRun.Extra(tmp, null, null);
        Tracer.Run run = Tracer.withCallSites(GraphRecordCommand.DEFAULT_STACK_WORDS)
                .run(OneRun.launcher(w, Mechanism.NONE, null, runs), null, OneRun.environment(runs));
        JsonNode report = OneRun.report(run.stdout());
        if (run.status() != 0 || report == null) {
            throw new Refusal("its graph could not be recorded: heimdall-workload under the tracer ended with status "
                    + run.status()
                    + (run.stderr().isBlank() ? "" : ": " + run.stderr().strip()));
        }
        if (!report.path("exit").isInt() || report.get("exit").asInt() != 0) {
            throw new Refusal("its graph could not be recorded: the traced run ended with "
                    + (report.path("signal").isInt()
                            ? "signal " + report.get("signal").asInt()
                            : report.path("exec_errno").isInt()
                                    ? "exec errno " + report.get("exec_errno").asInt()
                                    : "status " + report.path("exit").asText()));
        }
        int program = launched(run.events());
        Set<Integer> started = new HashSet<>(Set.of(program));
        Set<String> programs = new TreeSet<>();
        int processes = 0;
        Map<Integer, Integer> processOf = new HashMap<>();
        for (TraceEvent e : run.events()) {
            if (e instanceof TraceEvent.Start s) {
                processOf.put(s.tid(), s.pid());
                if (s.kind().equals("process") && started.contains(processOf.getOrDefault(s.parent(), -1))) {
                    started.add(s.pid());
                    processes++;
                }
            } else if (e instanceof TraceEvent.Exec x
                    && x.pid() != program
                    && started.contains(x.pid())
                    && x.exe() != null) {
                programs.add(String.valueOf(Path.of(x.exe()).getFileName()));
            }
        }
        if (processes > 0) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "the follower follows one process and its threads; this program started %d process(es) "
                            + "(%s) whose calls it would not follow, so a row would show only a part of the program",
                    processes,
                    programs.isEmpty() ? "none exec'd a program" : "running " + String.join(", ", programs)));
        }
        GraphRecorder.Recording rec = GraphRecorder.record(run.events(), program, Symbols.none());
        try {
            Graph g = Graph.of(
                    rec.sites(),
                    selfSuccessionsAsNext(rec.edges()),
                    "recorded graph of " + w.name() + " (nodes)",
                    "recorded graph of " + w.name() + " (edges)");
            return new FollowSetup(KernelTables.of(g), rec.sites().size(), rec.calls());
        } catch (BadInput e) {
            throw new Refusal("its recorded graph cannot be followed: " + e.getMessage());
        }
    }

    /**
     * The recording's edges with each {@code again} self-edge (a site followed by itself) written as a {@code next}
     * self-edge: the same succession, so no call and no succession the run did not make.
     *
     * <p>Why: a cursor takes a position's {@code again} successors only when no position has a {@code next}
     * successor labelled with the call (DESIGN.md "Prepared graphs"). A site that repeats and also has a
     * {@code next} successor making the same call loses its position on every repetition: {@code find} stats each
     * file of a folder from one site ({@code find+0xceb2}, an {@code again} self-edge), which elsewhere in the run
     * is followed by a {@code newfstatat} from libc; the cursor steps to that libc site on each second stat of
     * the folder, and after an even count of files the folder's {@code close} leads it off the run's path: the
     * follower killed {@code find} at an {@code fcntl} its own recorded run made there. With {@code next} self-edges
     * the cursor keeps every position the run may be at, so the recorded run's path stays open to it, and a
     * call no path of the graph makes is still denied.
     */
    static List<Edge> selfSuccessionsAsNext(List<Edge> edges) {
        List<Edge> out = new ArrayList<>(edges.size());
        for (Edge e : edges) {
            out.add(e.kind() == EdgeKind.AGAIN && e.src() == e.dst() ? new Edge(e.src(), e.dst(), EdgeKind.NEXT) : e);
        }
        return out;
    }

    /**
     * The calls {@code t} allows a thread in {@code state} (a machine state, as a {@link
     * heimdall.lab.follower.Divergence} names it), in number order; empty for a state the tables do not have.
     * What a refusal sets beside the call the program made there: the path its recorded run took instead.
     */
    static List<Integer> allowedIn(KernelTables t, int state) {
        List<Integer> out = new ArrayList<>();
        if (state < 0 || state >= t.states()) {
            return out;
        }
        for (int nr = 0; nr < t.columns(); nr++) {
            if (t.cells()[state * t.columns() + nr] != Machine.DENY) {
                out.add(nr);
            }
        }
        return out;
    }

    /**
     * The program's process in a trace of {@code heimdall-workload}: the one process the launcher (the trace's
     * root) forks, which execs the program. Refused when there is not exactly one.
     */
    static int launched(List<TraceEvent> events) {
        int root = -1;
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.Start s && s.kind().equals("root")) {
                root = s.pid();
            }
        }
        List<Integer> children = new ArrayList<>();
        for (TraceEvent e : events) {
            if (e instanceof TraceEvent.Start s && s.kind().equals("process") && s.parent() == root) {
                children.add(s.pid());
            }
        }
        if (root < 0 || children.size() != 1) {
            throw new Refusal("its graph could not be recorded: the trace of heimdall-workload shows " + children.size()
                    + " program process(es), not one");
        }
        return children.get(0);
    }
}
