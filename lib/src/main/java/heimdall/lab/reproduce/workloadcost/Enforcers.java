package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.follower.Follower;
import heimdall.lab.follower.Hook;
import heimdall.lab.follower.KernelTables;
import heimdall.lab.graph.Graph;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
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
     * method, in the workload's folder), projected onto its graph, compiled, minimized and laid out. Refused
     * where the host cannot run the follower (not root, no BTF), where the traced run failed, and where the
     * program makes processes: the follower follows one process and its threads, so a program whose work is
     * done by the processes it starts ({@code make}'s rules, {@code gcc}'s {@code cc1} and {@code as}) would be
     * followed only in its first one: a row that says nothing of the rest, refused rather than shown.
     */
    FollowSetup follower(Workload w) throws IOException, InterruptedException {
        Follower.checkHost();
        Tracer.Run run =
                Tracer.withCallSites(GraphRecordCommand.DEFAULT_STACK_WORDS).run(w.command(), w.dir());
        if (run.status() != 0) {
            throw new Refusal("its graph could not be recorded: the traced run ended with status " + run.status());
        }
        Set<Integer> started = new HashSet<>();
        Set<String> programs = new TreeSet<>();
        for (TraceEvent e : run.events()) {
            if (e instanceof TraceEvent.Start s && s.kind().equals("process")) {
                started.add(s.pid());
            } else if (e instanceof TraceEvent.Exec x && started.contains(x.pid()) && x.exe() != null) {
                programs.add(String.valueOf(Path.of(x.exe()).getFileName()));
            }
        }
        if (!started.isEmpty()) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "the follower follows one process and its threads; this program started %d process(es) "
                            + "(%s) whose calls it would not follow, so a row would show only a part of the program",
                    started.size(),
                    programs.isEmpty() ? "none exec'd a program" : "running " + String.join(", ", programs)));
        }
        GraphRecorder.Recording rec = GraphRecorder.record(run.events(), Symbols.none());
        try {
            Graph g = Graph.of(
                    rec.sites(),
                    rec.edges(),
                    "recorded graph of " + w.name() + " (nodes)",
                    "recorded graph of " + w.name() + " (edges)");
            return new FollowSetup(KernelTables.of(g), rec.sites().size(), rec.calls());
        } catch (BadInput e) {
            throw new Refusal("its recorded graph cannot be followed: " + e.getMessage());
        }
    }
}
