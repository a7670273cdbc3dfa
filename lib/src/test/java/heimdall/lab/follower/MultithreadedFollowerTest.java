package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.DfaLayouts;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.record.GraphRecorder;
import heimdall.lab.graph.record.Symbols;
import heimdall.lab.probe.NativeExecutables;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.probe.Tracer;
import heimdall.lab.sys.Signals;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A multithreaded program with handled signals (native/fixtures/follower-mt.c), recorded at test
 * time with ptrace and followed in the kernel: threads take their entries, each handled delivery
 * pushes a frame on its own thread and rt_sigreturn pops it; a worker's deviation kills the process
 * and names that worker, its call and the state the Java follower denied the same call in.
 */
class MultithreadedFollowerTest {
    static final int GETPGRP = 111;
    static final int SIGUSR1 = 10;
    static final int MKDIR = 83;
    static Graph graph;
    static Machine machine;

    @BeforeAll
    static void record() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf(), KernelFacts.kernelAtLeast(6, 9)); // PIDFD_THREAD
        Requires.ptrace();
        Tracer.Run run = Tracer.withCallSites(64).run(List.of(program()));
        assertEquals(0, run.status(), run.stderr());
        GraphRecorder.Recording rec = GraphRecorder.record(run.events(), Symbols.none());
        graph = Graph.of(rec.sites(), rec.edges(), "follower-mt (recorded)", "follower-mt (recorded)");
        machine = Minimizer.minimize(MachineCompiler.compile(graph, CompileBudget.defaults()));
    }

    static String program() {
        return NativeExecutables.find("fixtures/follower-mt").toString();
    }

    @Test
    void theRecordedShapeHasThreadRolesAndASignalEntry() {
        assertTrue(graph.entries().contains("main"), graph.entries().toString());
        assertEquals(2, graph.threadEntries().size(), "main and the workers' role: " + graph.threadEntries());
        assertEquals(List.of("signal:SIGUSR1"), graph.signalEntries());
    }

    @Test
    void runsOfTheRecordedProgramAreNeverKilled() {
        KernelTables t = KernelTables.of(machine);
        for (int i = 0; i < 5; i++) {
            FollowedRun.Outcome o = FollowedRun.run(t, Hook.SYSCALL_TRACEPOINT, false, List.of(program()), Duration.ofSeconds(30));
            assertEquals(List.of(), o.divergences(), "run " + i);
            assertEquals(0, o.exitCode(), "run " + i);
            assertEquals(3, o.stats().signals(), "three handled deliveries pushed frames (main and two workers)");
        }
    }

    /** The kill lands as the divergent call returns: that call has completed (its directory exists). */
    @Test
    void theDivergentCallItselfCompletes(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) {
        java.nio.file.Path made = tmp.resolve("made-by-the-divergent-call");
        FollowedRun.Outcome o = FollowedRun.run(KernelTables.of(machine), Hook.SYSCALL_TRACEPOINT, false,
                List.of(program(), "--unobserved-mkdir", made.toString()), Duration.ofSeconds(30));
        assertEquals(Signals.SIGKILL, o.signal());
        assertEquals(MKDIR, o.divergences().get(0).what());
        assertTrue(java.nio.file.Files.isDirectory(made), "the denied mkdir ran to completion before the kill landed");
    }

    @Test
    void aWorkersDeviationKillsTheProcessAndNamesTheWorker() throws Exception {
        Prepared offsets = DfaLayouts.prepare(Layout.DFA_MIN_OFFSETS, machine, DfaLayouts.DEFAULT_LIMIT);
        // The Java follower on a worker of a traced deviating run: where does it deny, and in which state?
        Tracer.Run run = Tracer.standard().run(List.of(program(), "--unobserved"));
        int root = run.events().stream().filter(e -> e instanceof TraceEvent.Exec).findFirst().orElseThrow().pid();
        long exec = run.events().stream().filter(e -> e instanceof TraceEvent.Exec).findFirst().orElseThrow().seq();
        int worker = run.syscalls().stream().filter(s -> s.tid() != root).findFirst().orElseThrow().tid();
        Cursor c = offsets.unidentifiedCursor();
        int sig = offsets.signals().indexOf("signal:SIGUSR1");
        long calls = 0;
        int deniedState = -1;
        for (TraceEvent e : run.events()) {
            if (e.seq() <= exec) {
                continue;
            }
            if (e instanceof TraceEvent.Syscall s && s.tid() == worker) {
                calls++;
                int before = c.state();
                if (!c.step(s.nr())) {
                    assertEquals(GETPGRP, s.nr(), "the Java follower's first denial");
                    deniedState = before;
                    break;
                }
            } else if (e instanceof TraceEvent.Signal g && g.tid() == worker && g.signal() == SIGUSR1) {
                assertTrue(c.deliver(sig));
            }
        }
        assertTrue(deniedState >= 0, "the Java follower denies the worker's getpgrp");

        FollowedRun.Outcome o = FollowedRun.run(KernelTables.of(machine), Hook.SYSCALL_TRACEPOINT, false,
                List.of(program(), "--unobserved"), Duration.ofSeconds(30));
        assertEquals(Signals.SIGKILL, o.signal());
        assertEquals(1, o.divergences().size(), o.divergences().toString());
        Divergence d = o.divergences().get(0);
        assertEquals(GETPGRP, d.what());
        assertNotEquals(o.pid(), d.tid(), "a worker, not the main thread");
        assertEquals(o.pid(), d.tgid());
        assertEquals(0, d.depth());
        assertEquals(deniedState, d.state(), "the state the Java follower denied it in");
        assertEquals(calls, d.calls(), "the worker's call count at its first divergent call");
        // The other worker runs on another CPU until the kill reaches it: its calls in that window are
        // counted, not judged (a race, so reported rather than asserted).
        System.err.println("follower-mt --unobserved: calls begun after the kill: " + o.stats().callsAfterKill());
    }
}
