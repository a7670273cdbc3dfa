package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Pins;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphViewTest {
    @Test
    void aFixtureGraphPreparedReplayedAndSteppedByHand() {
        GraphView g = Lab.fixtureGraph("abcdf");
        assertTrue(g.imported().pinned());
        assertEquals(g.graph().siteCount(), g.table().rowCount());
        PreparedView p = g.prepare();
        int[] walk = g.walk("main", 2_000, 7);
        List<Replay> each = p.replayEach("main", walk, 3);
        assertTrue(each.size() >= 7, "every layout: " + each);
        assertTrue(
                each.stream().allMatch(r -> r.rejections() == 0), "a walk of the graph is allowed everywhere: " + each);
        int[] mixed = g.walk("main", 2_000, 7, 0.1);
        List<Replay> mixedEach = p.replayEach("main", mixed, 1);
        int expected = mixedEach.get(0).rejections();
        assertTrue(expected > 0);
        assertTrue(mixedEach.stream().allMatch(r -> r.rejections() == expected), "layouts agree: " + mixedEach);
        assertEquals(each.size(), PreparedView.table(each).rowCount());
        assertEquals(1, PreparedView.plot(each).getSeriesMap().size());

        // By hand: abcdf's main thread starts with getppid (a), and cannot start with reboot.
        Stepper s = p.cursor("main");
        Decision no = s.step("reboot");
        assertFalse(no.allowed());
        assertEquals(no.stateBefore(), no.stateAfter(), "a denied call leaves the cursor where it was");
        Stepper again = p.cursor("main");
        assertEquals(expected, again.run(mixed), "stepping a trace decides as replay does");
        assertEquals(mixed.length, again.decisions().size());
        assertEquals(mixed.length, again.table().rowCount());
        assertTrue(again.plot().getSeriesMap().containsKey("denied"));
    }

    @Test
    void aGraphWhosePinsFailNamesTheFileAndSha256(@TempDir Path dir) throws Exception {
        Path src = Fixtures.home().resolve("fixtures/graphs");
        Path nodes =
                Files.copy(src.resolve("abcdf" + GraphFiles.NODES_SUFFIX), dir.resolve("g" + GraphFiles.NODES_SUFFIX));
        Path edges =
                Files.copy(src.resolve("abcdf" + GraphFiles.EDGES_SUFFIX), dir.resolve("g" + GraphFiles.EDGES_SUFFIX));
        BadInput e = assertThrows(BadInput.class, () -> Lab.graph(nodes, edges));
        assertTrue(e.getMessage().startsWith(nodes + ": sha256: no pin"), e.getMessage());
        Files.writeString(
                dir.resolve(Pins.FILE_NAME), "0".repeat(64) + "  " + nodes.getFileName() + "\n" + Pins.line(edges));
        e = assertThrows(BadInput.class, () -> Lab.graph(nodes, edges));
        assertTrue(e.getMessage().startsWith(nodes + ": sha256: pinned " + "0".repeat(64)), e.getMessage());
    }

    @Test
    void badInputNamesTheField() {
        GraphView g = Lab.fixtureGraph("abcdf");
        BadInput e = assertThrows(BadInput.class, () -> g.walk("nope", 10, 1));
        assertTrue(e.getMessage().startsWith("graph: entry: 'nope'"), e.getMessage());
        e = assertThrows(BadInput.class, () -> g.prepare("dfa-nope"));
        assertTrue(e.getMessage().startsWith("graph prepare: layout: "), e.getMessage());
        PreparedView p = g.prepare("hash");
        e = assertThrows(BadInput.class, () -> p.cursor("main").step("no_such_call"));
        assertTrue(e.getMessage().startsWith("cursor: call: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> p.cursor("main").deliver("signal:NOPE"));
        assertTrue(e.getMessage().startsWith("cursor: signal: "), e.getMessage());
        e = assertThrows(BadInput.class, () -> Lab.record());
        assertTrue(e.getMessage().startsWith("record: command: "), e.getMessage());
    }

    @Test
    void recordsAProgramOnTheMachineAndLeavesNothing() {
        Requires.ptrace();
        Leftovers left = Leftovers.now();
        GraphView g = Lab.record("/bin/true");
        assertTrue(g.entries().contains("main"), g.entries().toString());
        assertTrue(g.imported().pinned());
        assertTrue(g.graph().siteCount() > 3);
        Stepper s = g.prepare().cursor("main");
        assertTrue(s.step("execve").allowed() || s.decisions().size() == 1);
        left.assertNone();

        Refusal r = assertThrows(Refusal.class, () -> Lab.record("/bin/false"));
        assertTrue(r.getMessage().contains("status 1"), r.getMessage());
        left.assertNone();
    }
}
