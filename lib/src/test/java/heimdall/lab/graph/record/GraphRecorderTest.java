package heimdall.lab.graph.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.graph.Edge;
import heimdall.lab.graph.EdgeKind;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Site;
import heimdall.lab.probe.TraceEvent;
import heimdall.lab.probe.TraceReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The projection's rules on hand-written traces (no ptrace needed). */
class GraphRecorderTest {
    @TempDir
    Path tmp;

    private static final long BASE = 0x5000_0000L;
    private int seq;
    private final List<String> lines = new ArrayList<>();

    private void line(String json) {
        lines.add(json.replace("SEQ", String.valueOf(seq++)));
    }

    /** A call at offset {@code off} of /fake/prog (not a system object, so the call site is the ip). */
    private void call(int tid, int nr, long off) {
        line("{\"seq\":SEQ,\"ev\":\"syscall\",\"tid\":" + tid + ",\"pid\":100,\"nr\":" + nr
                + ",\"args\":[0,0,0,0,0,0],\"ip\":" + (BASE + off) + ",\"sp\":0,\"stack\":[],\"ret\":0}");
    }

    private List<TraceEvent> events() {
        return TraceReader.parse(String.join("\n", lines), "test");
    }

    private void prologue() {
        line("{\"seq\":SEQ,\"ev\":\"start\",\"tid\":100,\"pid\":100,\"kind\":\"root\",\"parent\":null}");
        call(100, 59, 0x10); // the tracer's own execve, before the exec event: not recorded
        line("{\"seq\":SEQ,\"ev\":\"exec\",\"tid\":100,\"pid\":100,\"former_tid\":100,\"exe\":\"/fake/prog\"}");
    }

    private void maps() {
        line("{\"seq\":SEQ,\"ev\":\"maps\",\"tid\":100,\"pid\":100,\"maps\":[{\"start\":" + BASE + ",\"end\":"
                + (BASE + 0x10000) + ",\"perms\":\"r-xp\",\"offset\":0,\"path\":\"/fake/prog\"}]}");
    }

    private static Site site(GraphRecorder.Recording r, int nr, long off) {
        return r.sites().stream()
                .filter(s -> s.syscall() == nr && s.function().equals("prog+0x" + Long.toHexString(off)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no site " + nr + " at " + off + " in " + r.sites()));
    }

    private static boolean edge(GraphRecorder.Recording r, Site a, Site b, EdgeKind k) {
        return r.edges().contains(new Edge(a.id(), b.id(), k));
    }

    @Test
    void threadsSignalsRepeatsAndTerminalSites() {
        prologue();
        call(100, 12, 0x100); // main: brk
        call(100, 435, 0x200); // clone3 at 0x200 creates thread 101
        line("{\"seq\":SEQ,\"ev\":\"start\",\"tid\":101,\"pid\":100,\"kind\":\"thread\",\"parent\":100}");
        call(101, 7, 0x300); // worker: poll, read, read (again), exit
        call(101, 0, 0x310);
        call(101, 0, 0x310);
        call(100, 7, 0x400); // main polls; a handled SIGCHLD interrupts it
        line("{\"seq\":SEQ,\"ev\":\"signal\",\"tid\":100,\"pid\":100,\"sig\":17}");
        call(100, 1, 0x500); // handler: write, rt_sigreturn
        call(100, 15, 0x510);
        line("{\"seq\":SEQ,\"ev\":\"signal\",\"tid\":100,\"pid\":100,\"sig\":28}"); // SIGWINCH, no handler
        call(100, 61, 0x600); // main continues after poll: wait4
        call(101, 60, 0x320);
        line("{\"seq\":SEQ,\"ev\":\"exit\",\"tid\":101,\"pid\":100,\"code\":0}");
        maps();
        call(100, 231, 0x700);
        line("{\"seq\":SEQ,\"ev\":\"exit\",\"tid\":100,\"pid\":100,\"code\":0}");
        // a forked child's calls are another program's
        line("{\"seq\":SEQ,\"ev\":\"start\",\"tid\":102,\"pid\":102,\"kind\":\"process\",\"parent\":100}");
        line("{\"seq\":SEQ,\"ev\":\"syscall\",\"tid\":102,\"pid\":102,\"nr\":39,\"args\":[0,0,0,0,0,0],\"ip\":"
                + (BASE + 0x800) + ",\"sp\":0,\"ret\":0}");

        GraphRecorder.Recording r = GraphRecorder.record(events(), Symbols.none());
        assertFalse(
                r.sites().stream().anyMatch(s -> s.syscall() == 59 || s.syscall() == 39),
                "pre-exec and forked calls are left out");
        assertEquals(Map.of("main", List.of(100), "thread:prog+0x200", List.of(101)), r.threads());
        Site brk = site(r, 12, 0x100), clone = site(r, 435, 0x200), poll = site(r, 7, 0x400), wait = site(r, 61, 0x600);
        Site tpoll = site(r, 7, 0x300), read = site(r, 0, 0x310), exit = site(r, 60, 0x320);
        Site write = site(r, 1, 0x500), ret = site(r, 15, 0x510), exitGroup = site(r, 231, 0x700);
        assertEquals(List.of("main"), brk.firstOf());
        assertEquals(List.of("thread:prog+0x200"), tpoll.firstOf());
        assertEquals(List.of("signal:SIGCHLD"), write.firstOf());
        assertTrue(edge(r, brk, clone, EdgeKind.NEXT) && edge(r, clone, poll, EdgeKind.NEXT));
        assertTrue(edge(r, poll, wait, EdgeKind.NEXT), "the interrupted frame continues after rt_sigreturn");
        assertFalse(edge(r, poll, write, EdgeKind.NEXT), "the handler is its own entry, not a succession");
        assertTrue(edge(r, write, ret, EdgeKind.NEXT));
        assertFalse(edge(r, ret, wait, EdgeKind.NEXT), "rt_sigreturn ends the frame");
        assertTrue(edge(r, read, read, EdgeKind.AGAIN), "a site followed by itself");
        assertTrue(edge(r, tpoll, read, EdgeKind.NEXT) && edge(r, read, exit, EdgeKind.NEXT));
        assertEquals(
                Set.of(exit.id(), exitGroup.id()),
                r.sites().stream().filter(Site::terminal).map(Site::id).collect(Collectors.toSet()));
        assertEquals(1, r.signalFrames(), "SIGWINCH had no handler");
        assertEquals(0, r.unmapped());
        Graph g = Graph.of(r.sites(), r.edges(), "n", "e");
        assertEquals(Set.of("main", "thread:prog+0x200", "signal:SIGCHLD"), Set.copyOf(g.entries()));
    }

    @Test
    void siteIdsDoNotDependOnWhichThreadCalledFirst() {
        prologue();
        call(100, 39, 0x900);
        call(100, 12, 0x100);
        maps();
        call(100, 231, 0x700);
        List<Site> sites = GraphRecorder.record(events(), Symbols.none()).sites();
        assertEquals(
                List.of(0x100L, 0x700L, 0x900L),
                sites.stream().map(s -> Long.decode(s.function().substring(5))).toList(),
                "ids follow (object, offset, syscall)");
        assertEquals(List.of(1L, 2L, 3L), sites.stream().map(Site::id).toList());
    }

    @Test
    void anUnmappableSyscallIsWrittenNullAndImportRefusesIt() throws Exception {
        prologue();
        call(100, 12, 0x100);
        call(100, 600, 0x120); // not an x86_64 number
        maps();
        call(100, 231, 0x700);
        GraphRecorder.Recording r = GraphRecorder.record(events(), Symbols.none());
        assertEquals(1, r.unmapped());
        GraphFiles.writeNodes(r.sites(), tmp.resolve("p.exec.nodes.arrow"));
        GraphFiles.writeEdges(r.edges(), tmp.resolve("p.exec.edges.arrow"));
        Refusal e = assertThrows(
                Refusal.class,
                () -> GraphFiles.read(tmp.resolve("p.exec.nodes.arrow"), tmp.resolve("p.exec.edges.arrow")));
        assertTrue(e.getMessage().contains("unmapped"), e.getMessage());
    }

    @Test
    void aTraceWithoutMapsIsRefused() {
        prologue();
        call(100, 12, 0x100);
        assertThrows(Refusal.class, () -> GraphRecorder.record(events(), Symbols.none()));
    }
}
