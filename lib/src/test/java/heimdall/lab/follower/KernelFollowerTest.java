package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.FixtureGraphs;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.ReferenceFollower;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.probe.Tracer;
import heimdall.lab.sys.Signals;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kernel follower against the replay harness on real runs of the abcdf fixture: the recorded
 * run is never killed, a deviating run is killed at its first divergent call, and the ring-buffer
 * event names the call and the state the Java follower was in when it denied the same call.
 */
class KernelFollowerTest {
    static final int GETPGRP = 111;

    @BeforeEach
    void kernel() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
    }

    static Graph recorded() {
        Path dir = Fixtures.home().resolve("fixtures/graphs");
        return GraphFiles.readPinned(
                        dir.resolve("abcdf-recorded.exec.nodes.arrow"), dir.resolve("abcdf-recorded.exec.edges.arrow"))
                .graph();
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
        assertTrue(exec >= 0, "the traced run exec'd");
        List<Integer> calls = new ArrayList<>();
        for (TraceEvent.Syscall s : run.syscalls()) {
            if (s.seq() > exec && s.tid() == root) {
                calls.add(s.nr());
            }
        }
        return calls.stream().mapToInt(Integer::intValue).toArray();
    }

    static List<String> abcdf(String... args) {
        List<String> argv = new ArrayList<>(List.of(NativeExecutables.abcdf().toString()));
        argv.addAll(List.of(args));
        return argv;
    }

    @Test
    void theRecordedRunIsNeverKilledAndTheJavaFollowerAgrees() throws Exception {
        Requires.ptrace();
        Graph g = recorded();
        int[] calls = traced(abcdf("3"));
        Cursor ref = ReferenceFollower.of(g).cursor("main");
        for (int i = 0; i < calls.length; i++) {
            assertTrue(ref.step(calls[i]), "the reference follower allows call #" + (i + 1) + " (" + calls[i] + ")");
        }
        FollowedRun.Outcome o =
                FollowedRun.run(KernelTables.of(g), Hook.SYSCALL_TRACEPOINT, false, abcdf("3"), Duration.ofSeconds(30));
        assertEquals(List.of(), o.divergences(), "no false kill over the whole run");
        assertEquals(0, o.exitCode());
        assertFalse(o.killed());
        assertTrue(o.stats().armed());
        // exit_group is counted on entry like every call; the count equals the traced run's calls.
        assertEquals(calls.length, o.stats().calls(), "the kernel stepped every call of the run");
    }

    @Test
    void aDeviationIsKilledAtItsFirstDivergentCallNamingCallAndState() throws Exception {
        Requires.ptrace();
        Graph g = recorded();
        int[] calls = traced(abcdf("3", "--unobserved"));
        Machine min = Minimizer.minimize(MachineCompiler.compile(g, CompileBudget.defaults()));
        FollowerCheck.Denial denial = FollowerCheck.firstDenial(min, calls);
        int first = denial.index();
        int state = denial.state();
        assertTrue(first >= 0, "the Java follower denies a call of abcdf --unobserved");
        assertEquals(GETPGRP, calls[first], "the Java follower denies getpgrp first");

        FollowedRun.Outcome o = FollowedRun.run(
                KernelTables.of(min),
                Hook.SYSCALL_TRACEPOINT,
                false,
                abcdf("3", "--unobserved"),
                Duration.ofSeconds(30));
        assertTrue(o.killed());
        assertEquals(Signals.SIGKILL, o.signal(), "the follower's SIGKILL ended the child");
        assertEquals(1, o.divergences().size(), o.divergences().toString());
        Divergence d = o.divergences().get(0);
        assertEquals(Divergence.Kind.CALL, d.kind());
        assertEquals(GETPGRP, d.what(), "the event names the divergent call");
        assertEquals(state, d.state(), "the event names the state the Java follower denied it in");
        assertEquals(first + 1, d.calls(), "killed at the first divergent call, not later");
        assertEquals(o.pid(), d.tid(), "the main thread");
        assertEquals(0, o.stats().callsAfterKill(), "no call began after the divergent one");
    }

    @Test
    void theConstructedGraphKillsTheRealProgramAtItsFirstCall() {
        // The constructed abcdf graph starts at getppid; the real program starts with the loader's calls.
        KernelTables t = KernelTables.of(FixtureGraphs.abcdf());
        FollowedRun.Outcome o = FollowedRun.run(t, Hook.SYSCALL_TRACEPOINT, false, abcdf("0"), Duration.ofSeconds(30));
        assertTrue(o.killed());
        assertEquals(1, o.divergences().get(0).calls());
        assertEquals(Signals.SIGKILL, o.signal());
    }

    @Test
    void theSeccompHookFollowsAFlooredChildOrIsRefusedCleanly() throws Exception {
        Graph g = recorded();
        KernelTables t = KernelTables.of(g);
        List<Integer> before = Loaded.ours();
        try {
            FollowedRun.Outcome ok = FollowedRun.run(t, Hook.SECCOMP_FENTRY, true, abcdf("3"), Duration.ofSeconds(30));
            assertEquals(List.of(), ok.divergences());
            assertEquals(0, ok.exitCode());
            FollowedRun.Outcome bad =
                    FollowedRun.run(t, Hook.SECCOMP_FENTRY, true, abcdf("3", "--unobserved"), Duration.ofSeconds(30));
            assertEquals(GETPGRP, bad.divergences().get(0).what());
            assertEquals(Signals.SIGKILL, bad.signal());
        } catch (Refusal r) {
            // This kernel refuses trampolines: a refusal naming the hook and the kernel's answer, nothing left loaded.
            assertTrue(r.getMessage().contains("fentry/__secure_computing"), r.getMessage());
            assertTrue(r.getMessage().contains("not attachable"), r.getMessage());
            // programs of earlier tests, and the refusal's own hook probe, are freed after RCU: waited for
            assertEquals(List.of(), Loaded.newSince(before), "a refused load leaves no program of ours");
        }
    }

    @Test
    void badInputAndRefusalsNameTheirField() {
        KernelTables t = KernelTables.of(FixtureGraphs.abcdf());
        BadInput noPid = assertThrows(BadInput.class, () -> Follower.attach(t, 0x3fff_fff0, Hook.SYSCALL_TRACEPOINT));
        assertTrue(noPid.getMessage().startsWith("pid "), noPid.getMessage());
        BadInput noExe = assertThrows(
                BadInput.class,
                () -> FollowedRun.run(
                        t, Hook.SYSCALL_TRACEPOINT, false, List.of("/nonexistent/x"), Duration.ofSeconds(1)));
        assertTrue(noExe.getMessage().startsWith("argv[0]"), noExe.getMessage());
    }
}
