package heimdall.lab.graph;

import static heimdall.lab.graph.FixtureGraphs.A_GETPPID;
import static heimdall.lab.graph.FixtureGraphs.B_GETUID;
import static heimdall.lab.graph.FixtureGraphs.C_GETGID;
import static heimdall.lab.graph.FixtureGraphs.D_GETEUID;
import static heimdall.lab.graph.FixtureGraphs.F_GETEGID;
import static heimdall.lab.graph.FixtureGraphs.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.DfaLayouts;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The abcdf program's decisions, spelled out, on every layout. */
class AbcdfFollowerTest {
    static final PreparedGraph P = PreparedGraph.prepare(FixtureGraphs.abcdf(), PreparedGraph.Options.defaults());
    static final int SIGUSR1 = 0;

    @ParameterizedTest
    @EnumSource(Layout.class)
    void mainProgramLoopsAndEnds(Layout layout) {
        Cursor c = P.layout(layout).cursor("main");
        assertFalse(c.step(B_GETUID), "B before A");
        assertTrue(c.step(A_GETPPID));
        int before = c.state();
        assertFalse(c.step(C_GETGID), "C right after A");
        assertEquals(before, c.state(), "a denial leaves the cursor where it was");
        for (int i = 0; i < 3; i++) {
            assertTrue(c.step(B_GETUID));
            assertTrue(c.step(C_GETGID));
            assertFalse(c.step(B_GETUID), "B after C");
            assertTrue(c.step(C_GETGID), "a repeated call with no again edge keeps the position");
            assertTrue(c.step(D_GETEUID));
        }
        assertTrue(c.step(F_GETEGID));
        assertFalse(c.step(A_GETPPID), "nothing follows F");
        assertFalse(c.step(Graph.RT_SIGRETURN), "rt_sigreturn outside a handler");
        assertFalse(c.step(9999));
        assertFalse(c.step(-5));
        c.reset();
        assertTrue(c.step(A_GETPPID));
        assertTrue(c.step(F_GETEGID), "zero iterations");
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void signalFramePushesAndRtSigreturnPops(Layout layout) {
        Cursor c = P.layout(layout).cursor("main", 2);
        assertTrue(c.step(A_GETPPID));
        assertTrue(c.step(B_GETUID));
        assertTrue(c.deliver(SIGUSR1));
        assertEquals(1, c.depth());
        assertFalse(c.step(C_GETGID), "the handler's frame does not allow the main program's calls");
        assertFalse(c.step(Graph.RT_SIGRETURN), "rt_sigreturn before the handler's write");
        assertTrue(c.step(WRITE));
        assertTrue(c.deliver(SIGUSR1), "nested delivery");
        assertFalse(c.deliver(SIGUSR1), "a third frame exceeds depth 2");
        assertEquals(2, c.depth());
        assertFalse(c.deliver(1), "no signal number 1");
        assertTrue(c.step(WRITE));
        assertTrue(c.step(Graph.RT_SIGRETURN));
        assertEquals(1, c.depth());
        assertTrue(c.step(WRITE), "the outer handler's repeated write is retained");
        assertTrue(c.step(Graph.RT_SIGRETURN));
        assertEquals(0, c.depth());
        assertTrue(c.step(C_GETGID), "main resumes where B left it");
        assertFalse(c.step(Graph.RT_SIGRETURN), "no frame to pop");
        assertTrue(c.deliver(SIGUSR1));
        c.reset();
        assertEquals(0, c.depth());
        assertTrue(c.step(A_GETPPID));
    }

    @Test
    void unidentifiedChildFollowsTheUnionAndSignalsAreNotThreadRoles() {
        for (Prepared p : P.layouts().values()) {
            Cursor c = p.unidentifiedCursor();
            assertTrue(c.step(A_GETPPID), p.layout().wire());
            assertThrows(BadInput.class, () -> p.cursor("signal:SIGUSR1"));
            assertThrows(BadInput.class, () -> p.cursor("nobody"));
        }
    }

    @Test
    void replayCountsDenialsAndRefusedDeliveriesWithResets() {
        int[] trace = {
            A_GETPPID,
            B_GETUID,
            C_GETGID,
            D_GETEUID,
            F_GETEGID,
            Trace.RESET,
            A_GETPPID,
            700,
            C_GETGID,
            Trace.signal(0),
            WRITE,
            Graph.RT_SIGRETURN,
            Graph.RT_SIGRETURN,
            Trace.signal(3),
            F_GETEGID
        };
        for (Prepared p : P.layouts().values()) {
            assertEquals(4, p.cursor("main").replay(trace), p.layout().wire());
        }
    }

    @Test
    void machineShapeAndStarts() {
        Machine m = P.machine();
        assertEquals(8, m.states(), "starts (main = union), A, B, C, D, F, handler start, write");
        assertEquals(m.start("main"), m.unionStart(), "one thread entry: its start is the union");
        int s = m.target(m.start("main"), A_GETPPID);
        assertEquals(A_GETPPID, m.lastCall(s));
        assertEquals(Machine.DENY, m.target(s, C_GETGID));
        int w = m.target(m.start("signal:SIGUSR1"), WRITE);
        assertEquals(Machine.POP, m.target(w, Graph.RT_SIGRETURN));
        assertTrue(m.terminal(m.target(s, F_GETEGID)));
        assertEquals(m.states(), P.minimized().states(), "abcdf is already minimal");
    }

    @Test
    void constructionBudgetRefusesWithTheFigureReached() {
        Refusal r = assertThrows(
                Refusal.class,
                () -> MachineCompiler.compile(
                        FixtureGraphs.abcdf(), CompileBudget.defaults().withMaxTransitions(5)));
        assertTrue(
                r.getMessage().startsWith("construction budget exceeded: 6 transitions reached (budget 5 transitions)"),
                r.getMessage());
        Refusal f = assertThrows(
                Refusal.class,
                () -> MachineCompiler.compile(
                        FixtureGraphs.abcdf(), CompileBudget.defaults().withMaxFrames(4)));
        assertTrue(
                f.getMessage().startsWith("frame budget exceeded: 5 frames reached (budget 4 frames)"), f.getMessage());
        assertEquals(
                8,
                MachineCompiler.compile(FixtureGraphs.abcdf(), new CompileBudget(15, 8))
                        .states(),
                "exactly at budget");
    }

    @Test
    void payloadBudgetRefusesOneLayoutWithItsFigure() {
        PreparedGraph p = PreparedGraph.prepare(
                FixtureGraphs.abcdf(), PreparedGraph.Options.defaults().withLimit(1000));
        assertEquals(3552, P.layout(Layout.DFA_WORDS).payloadBytes(), "8 states x 111 columns x 4 bytes");
        assertTrue(
                p.refusals()
                        .get(Layout.DFA_WORDS)
                        .contains("dfa-words needs 3,552 bytes for 8 states (budget 1,000 bytes)"),
                p.refusals().toString());
        assertTrue(p.layouts().containsKey(Layout.DFA_COMPACT), "compact fits in 1000 bytes");
        assertThrows(Refusal.class, () -> p.layout(Layout.DFA_OFFSETS));
        assertEquals(256L << 20, DfaLayouts.DEFAULT_LIMIT);
    }
}
