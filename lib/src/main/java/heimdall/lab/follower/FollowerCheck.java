package heimdall.lab.follower;

import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.DfaLayouts;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.ReferenceFollower;
import heimdall.lab.graph.record.GraphRecorder;
import heimdall.lab.graph.record.Symbols;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.probe.Tracer;
import heimdall.lab.sys.Signals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The kernel follower's decisions on one hook, checked against the Java reference on real runs, from
 * the built library alone (no test framework: {@code ./lab graph follow-check}, fast to start in a slow
 * guest kernel where design (b) loads). The checks are those of the follower's tests
 * (KernelFollowerTest, MultithreadedFollowerTest), run against the hook asked for:
 * <ul>
 *   <li>abcdf's recorded run is never killed, and the kernel steps as many calls as ptrace sees;
 *   <li>abcdf {@code --unobserved} is killed at the call, state and call count where the Java follower
 *       first denies, with no call begun after the kill;
 *   <li>follower-mt (threads, roles by creating site, handled signals), recorded here with ptrace: normal
 *       runs never killed with three frames pushed; {@code --swap-roles} killed at the swapped thread's
 *       first call in its creator's role (and let run by union tables), as the reference
 *       ({@link TraceFollower}) decides; {@code --unobserved} killed at the worker's getpgrp in the state
 *       and at the count the reference names; the divergent call itself completes.
 * </ul>
 * With {@link Hook#SECCOMP_FENTRY} every followed child gets the allow-everything floor (the hook is
 * reached only by filtered tasks). A hook the kernel refuses is a {@link Refusal} with the hook probe's
 * answers, before any check.
 */
public final class FollowerCheck {
    static final int GETPGRP = 111;
    static final int MKDIR = 83;
    static final int GETPPID = 110;
    static final int GETEGID = 108;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** One check's outcome: {@code ok} with what was seen, or the disagreement. */
    public record Check(String name, boolean ok, String detail) {
        @Override
        public String toString() {
            return (ok ? "ok    " : "FAIL  ") + name + ": " + detail;
        }
    }

    /** A disagreement inside one check (the check's own assertion). */
    static final class Disagreement extends RuntimeException {
        Disagreement(String message) {
            super(message);
        }
    }

    private final Hook hook;
    private final boolean floor;

    private FollowerCheck(Hook hook) {
        this.hook = hook;
        this.floor = hook == Hook.SECCOMP_FENTRY;
    }

    /**
     * Runs every check on {@code hook}, reporting each as it ends.
     *
     * @throws Refusal not root, no BTF, or the hook cannot be attached on this kernel (the probe's
     *     answers in the message)
     */
    public static List<Check> run(Hook hook, Consumer<Check> progress) {
        Follower.checkHost();
        HookProbe.Point point = hook == Hook.SECCOMP_FENTRY
                ? HookProbe.Point.FENTRY_SECURE_COMPUTING
                : HookProbe.Point.TP_BTF_SYS_ENTER;
        HookProbe.Result probe = HookProbe.probe(point);
        if (!probe.usable()) {
            throw new Refusal("hook " + hook.section() + " not attachable: " + probe.outcome()
                    + (hook == Hook.SECCOMP_FENTRY ? "\n" + HookProbe.whyNoSeccompOnlyHook() : ""));
        }
        FollowerCheck c = new FollowerCheck(hook);
        List<Check> out = new ArrayList<>();
        check(out, progress, "hook probe", () -> point.section() + ": " + probe.outcome());
        check(out, progress, "abcdf recorded run", c::recordedRun);
        check(out, progress, "abcdf --unobserved", c::unobserved);
        MtFixture mt;
        try {
            mt = MtFixture.record();
        } catch (RuntimeException e) {
            Check failed = new Check("follower-mt recorded", false, message(e));
            out.add(failed);
            progress.accept(failed);
            return out;
        }
        check(out, progress, "follower-mt normal runs", () -> c.mtNormal(mt));
        check(out, progress, "follower-mt --swap-roles", () -> c.mtSwap(mt));
        check(out, progress, "follower-mt --unobserved", () -> c.mtUnobserved(mt));
        check(out, progress, "follower-mt divergent mkdir completes", () -> c.mtMkdir(mt));
        return out;
    }

    /** A check's body: what it saw when it agrees; it throws on a disagreement. */
    interface Body {
        String run() throws Exception;
    }

    /**
     * Runs one check: its result is added to {@code out} and reported. A refusal (the hook itself, a kernel
     * fact) ends every check; any other failure is that check's disagreement, never a pass.
     */
    static void check(List<Check> out, Consumer<Check> progress, String name, Body body) {
        Check r;
        try {
            r = new Check(name, true, body.run());
        } catch (Refusal e) {
            throw e; // the hook itself refused (a kernel fact), not a disagreement
        } catch (Exception | AssertionError e) {
            r = new Check(name, false, message(e));
        }
        out.add(r);
        progress.accept(r);
    }

    private static String message(Throwable e) {
        return e instanceof Disagreement ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void expect(boolean holds, String what) {
        if (!holds) {
            throw new Disagreement(what);
        }
    }

    private static void expectEqual(Object want, Object got, String what) {
        expect(want.equals(got), what + ": expected " + want + ", got " + got);
    }

    private FollowedRun.Outcome follow(KernelTables t, List<String> argv) {
        return FollowedRun.run(t, hook, floor, argv, TIMEOUT);
    }

    static Graph abcdfRecorded() {
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        return GraphFiles.readPinned(
                        dir.resolve("abcdf-recorded.exec.nodes.arrow"), dir.resolve("abcdf-recorded.exec.edges.arrow"))
                .graph();
    }

    static List<String> abcdf(String... args) {
        List<String> argv = new ArrayList<>(List.of(NativeExecutables.abcdf().toString()));
        argv.addAll(List.of(args));
        return argv;
    }

    /** The main thread's calls after exec, as ptrace sees them. */
    static int[] traced(List<String> argv) throws Exception {
        Tracer.Run run = Tracer.standard().run(argv);
        int root = -1;
        long exec = -1;
        for (TraceEvent e : run.events()) {
            if (e instanceof TraceEvent.Exec x && exec < 0) {
                exec = x.seq();
                root = x.pid();
            }
        }
        expect(exec >= 0, "the traced run of " + argv + " never exec'd");
        List<Integer> calls = new ArrayList<>();
        for (TraceEvent.Syscall s : run.syscalls()) {
            if (s.seq() > exec && s.tid() == root) {
                calls.add(s.nr());
            }
        }
        return calls.stream().mapToInt(Integer::intValue).toArray();
    }

    private String recordedRun() throws Exception {
        Graph g = abcdfRecorded();
        int[] calls = traced(abcdf("3"));
        Cursor ref = ReferenceFollower.of(g).cursor("main");
        for (int i = 0; i < calls.length; i++) {
            expect(
                    ref.step(calls[i]),
                    "the Java reference denies call #" + (i + 1) + " (" + calls[i] + ") of the recorded run");
        }
        FollowedRun.Outcome o = follow(KernelTables.of(g), abcdf("3"));
        expectEqual(List.of(), o.divergences(), "divergences of the recorded run");
        expectEqual(0, o.exitCode(), "abcdf 3's exit status");
        expect(!o.killed() && o.stats().armed(), "followed from its exec and not killed: " + o.stats());
        expectEqual((long) calls.length, o.stats().calls(), "calls stepped (ptrace saw the same run)");
        return o.stats().calls() + " calls stepped, as ptrace saw; not killed";
    }

    private String unobserved() throws Exception {
        Graph g = abcdfRecorded();
        int[] calls = traced(abcdf("3", "--unobserved"));
        Machine min = Minimizer.minimize(MachineCompiler.compile(g, CompileBudget.defaults()));
        Denial denial = firstDenial(min, calls);
        int first = denial.index();
        int state = denial.state();
        expect(first >= 0, "the Java reference denies no call of abcdf --unobserved");
        expectEqual(GETPGRP, calls[first], "the Java reference's first denial");
        FollowedRun.Outcome o = follow(KernelTables.of(min), abcdf("3", "--unobserved"));
        expect(
                o.killed() && o.signal() == Signals.SIGKILL,
                "killed by SIGKILL: exit " + o.exitCode() + ", signal " + o.signal());
        expectEqual(1, o.divergences().size(), "divergences reported " + o.divergences());
        Divergence d = o.divergences().get(0);
        expectEqual(Divergence.Kind.CALL, d.kind(), "kind");
        expectEqual(GETPGRP, d.what(), "the divergent call");
        expectEqual(state, d.state(), "the state the Java follower denied it in");
        expectEqual((long) first + 1, d.calls(), "the call count at the kill");
        expectEqual(o.pid(), d.tid(), "the thread (main)");
        expectEqual(0L, o.stats().callsAfterKill(), "calls begun after the kill");
        return "killed at " + d + ", as the Java reference; 0 calls begun after the kill";
    }

    /** The Java reference's first denial of a run: the call's index and the state it was denied in (-1, -1: none). */
    record Denial(int index, int state) {}

    /** Where the Java reference (dfa-min-offsets, entry {@code main}) first denies {@code calls}. */
    static Denial firstDenial(Machine min, int[] calls) {
        Prepared offsets = DfaLayouts.prepare(Layout.DFA_MIN_OFFSETS, min, DfaLayouts.DEFAULT_LIMIT);
        Cursor ref = offsets.cursor("main");
        for (int i = 0; i < calls.length; i++) {
            int before = ref.state();
            if (!ref.step(calls[i])) {
                return new Denial(i, before);
            }
        }
        return new Denial(-1, -1);
    }

    /** follower-mt recorded with ptrace on this kernel, compiled, and its roles. */
    record MtFixture(Graph graph, Machine machine, KernelTables tables, ThreadRoles roles) {
        static String program() {
            return NativeExecutables.find("fixtures/follower-mt").toString();
        }

        static MtFixture record() {
            try {
                Tracer.Run run = Tracer.withCallSites(64).run(List.of(program()));
                expectEqual(
                        0,
                        run.status(),
                        "follower-mt's traced exit status (" + run.stderr().strip() + ")");
                GraphRecorder.Recording rec = GraphRecorder.record(run.events(), Symbols.none());
                Graph g = Graph.of(rec.sites(), rec.edges(), "follower-mt (recorded)", "follower-mt (recorded)");
                Machine m = Minimizer.minimize(MachineCompiler.compile(g, CompileBudget.defaults()));
                return new MtFixture(g, m, KernelTables.of(g, m), ThreadRoles.of(g, m));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        /** The Java reference's verdict on a traced run with {@code args}. */
        TraceFollower.Verdict reference(String... args) throws Exception {
            List<String> argv = new ArrayList<>(List.of(program()));
            argv.addAll(List.of(args));
            Tracer.Run run = Tracer.standard().run(argv);
            Prepared offsets = DfaLayouts.prepare(Layout.DFA_MIN_OFFSETS, machine, DfaLayouts.DEFAULT_LIMIT);
            return TraceFollower.follow(machine, offsets, roles, run.events());
        }

        /** The role whose first call is {@code nr}. */
        String roleStartingWith(int nr) {
            List<String> found = graph.threadEntries().stream()
                    .filter(r ->
                            Arrays.stream(graph.firsts(graph.entryIndex(r))).anyMatch(s -> graph.syscall(s) == nr))
                    .toList();
            expectEqual(1, found.size(), "roles starting with call " + nr + " " + found);
            return found.get(0);
        }

        List<String> argv(String... args) {
            List<String> argv = new ArrayList<>(List.of(program()));
            argv.addAll(List.of(args));
            return argv;
        }
    }

    private String mtNormal(MtFixture mt) throws Exception {
        TraceFollower.Verdict ref = mt.reference();
        expectEqual(Optional.empty(), ref.divergence(), "the Java reference's verdict on a normal run");
        int runs = 3;
        for (int i = 0; i < runs; i++) {
            FollowedRun.Outcome o = follow(mt.tables(), mt.argv());
            expectEqual(List.of(), o.divergences(), "run " + i + "'s divergences");
            expectEqual(0, o.exitCode(), "run " + i + "'s exit status");
            expectEqual(3L, o.stats().signals(), "run " + i + ": frames pushed (main and two workers)");
            expectEqual(0L, o.stats().callsAfterKill(), "run " + i + ": calls after a kill");
        }
        return runs + " runs, none killed, 3 signal frames each; the reference allows the run too";
    }

    private String mtSwap(MtFixture mt) throws Exception {
        Divergence r = mt.reference("--swap-roles")
                .divergence()
                .orElseThrow(() -> new Disagreement("the Java reference does not deny a swapped thread"));
        FollowedRun.Outcome o = follow(mt.tables(), mt.argv("--swap-roles"));
        expect(o.signal() == Signals.SIGKILL, "--swap-roles killed: signal " + o.signal() + ", " + o.divergences());
        expectEqual(1, o.divergences().size(), "divergences " + o.divergences());
        Divergence d = o.divergences().get(0);
        for (Divergence x : List.of(r, d)) {
            // Which swapped thread calls first is scheduling: each is denied at its first call in its creator's role.
            String who = x == r ? "the reference: " : "the kernel: ";
            expect(x.what() == GETEGID || x.what() == GETPPID, who + x + " is not a swapped role's first call");
            String creatorRole = mt.roleStartingWith(x.what() == GETEGID ? GETPPID : GETEGID);
            expectEqual(mt.machine().start(creatorRole), x.state(), who + x + " denied in " + creatorRole + "'s start");
            expectEqual(1L, x.calls(), who + "the swapped thread's call count");
            expectEqual(0, x.depth(), who + "open frames");
            expect(x.tgid() != x.tid(), who + x + " is main, not a created thread");
        }
        FollowedRun.Outcome union = follow(KernelTables.of(mt.machine()), mt.argv("--swap-roles"));
        expectEqual(List.of(), union.divergences(), "with new threads at the union, the swap's divergences");
        expectEqual(0, union.exitCode(), "with new threads at the union, the exit status");
        return "killed at " + d + " (reference: " + r + "); union tables let it run";
    }

    private String mtUnobserved(MtFixture mt) throws Exception {
        Divergence ref = mt.reference("--unobserved")
                .divergence()
                .orElseThrow(() -> new Disagreement("the Java reference does not deny the worker's getpgrp"));
        expectEqual(GETPGRP, ref.what(), "the Java reference's first denial");
        FollowedRun.Outcome o = follow(mt.tables(), mt.argv("--unobserved"));
        expect(o.signal() == Signals.SIGKILL, "--unobserved killed: signal " + o.signal());
        expectEqual(1, o.divergences().size(), "divergences " + o.divergences());
        Divergence d = o.divergences().get(0);
        expectEqual(GETPGRP, d.what(), "the divergent call");
        expect(d.tid() != o.pid() && d.tgid() == o.pid(), d + " is not a worker of " + o.pid());
        expectEqual(0, d.depth(), "open frames");
        expectEqual(ref.state(), d.state(), "the state the Java follower denied it in");
        expectEqual(ref.calls(), d.calls(), "the worker's call count at its divergent call");
        return "killed at " + d + ", as the reference; calls begun after the kill (a race): "
                + o.stats().callsAfterKill();
    }

    private String mtMkdir(MtFixture mt) throws IOException {
        Path dir = Files.createTempDirectory("heimdall-follow-check-");
        Path made = dir.resolve("made-by-the-divergent-call");
        try {
            FollowedRun.Outcome o = follow(mt.tables(), mt.argv("--unobserved-mkdir", made.toString()));
            expect(o.signal() == Signals.SIGKILL, "--unobserved-mkdir killed: signal " + o.signal());
            expectEqual(MKDIR, o.divergences().get(0).what(), "the divergent call");
            expect(Files.isDirectory(made), "the denied mkdir did not complete before the kill landed");
            return "mkdir denied, the process killed, the directory made (the divergent call completes)";
        } finally {
            Files.deleteIfExists(made);
            Files.deleteIfExists(dir);
        }
    }
}
