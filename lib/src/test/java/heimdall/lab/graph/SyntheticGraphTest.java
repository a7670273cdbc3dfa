package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticGraphTest {
    static PreparedGraph prepare(SyntheticGraph s) {
        return PreparedGraph.prepare(s.graph(), PreparedGraph.Options.defaults());
    }

    @ParameterizedTest
    @ValueSource(ints = {64, 4096})
    void everyLayoutMatchesTheReferenceOnHotAndBroadTraces(int states) {
        SyntheticGraph s = SyntheticGraph.build(states, 7);
        PreparedGraph p = prepare(s);
        assertEquals(states + 3, p.machine().states(), "site states plus main start, handler start and handler write");
        assertTrue(p.minimized().states() <= p.machine().states());
        assertEquals(
                java.util.Optional.empty(),
                heimdall.lab.graph.machine.Equivalence.difference(p.machine(), p.minimized()));
        for (Traces.Spec spec : new Traces.Spec[] {s.hotSpec(20_000, 1), s.broadSpec(20_000, 2)}) {
            int[] trace = Traces.walk(s.graph(), spec.withInvalidRate(0.05).withSignalRate(0.01));
            GraphTesting.assertAllLayoutsMatch(p, trace, Cursor.DEFAULT_DEPTH, states + " states");
        }
    }

    @Test
    void largestTableAgreesOnRejectionCounts() {
        SyntheticGraph s = SyntheticGraph.build(32_768, 11);
        PreparedGraph p = prepare(s);
        assertEquals(32_768 + 3, p.machine().states());
        for (Traces.Spec spec : new Traces.Spec[] {s.hotSpec(200_000, 3), s.broadSpec(200_000, 4)}) {
            int[] trace = Traces.walk(s.graph(), spec.withInvalidRate(0.02).withSignalRate(0.001));
            int expected = p.layout(Layout.HASH).cursor(SyntheticGraph.MAIN).replay(trace);
            assertTrue(expected > 0, "invalid calls are rejected");
            for (Prepared l : p.layouts().values()) {
                assertEquals(
                        expected,
                        l.cursor(SyntheticGraph.MAIN).replay(trace),
                        l.layout().wire());
            }
        }
    }

    /** States a trace visits on the dfa-words layout. */
    static Set<Integer> visited(Prepared words, int[] trace) {
        Cursor c = words.cursor(SyntheticGraph.MAIN);
        Set<Integer> seen = new HashSet<>();
        for (int ev : trace) {
            GraphTesting.apply(c, ev);
            seen.add(c.state());
        }
        return seen;
    }

    @Test
    void hotTracesRecurInASmallRegionAndBroadOnesCoverTheRange() {
        SyntheticGraph s = SyntheticGraph.build(4096, 5);
        PreparedGraph p = prepare(s);
        Prepared words = p.layout(Layout.DFA_WORDS);
        int[] hot = Traces.walk(s.graph(), s.hotSpec(100_000, 1));
        assertFalse(
                Arrays.stream(hot).anyMatch(e -> e == SyntheticGraph.X || e == SyntheticGraph.Y),
                "hot traces omit X and Y");
        assertTrue(visited(words, hot).size() <= SyntheticGraph.HOT_LIMIT + 1, "hot region plus the start");
        int[] broad = Traces.walk(s.graph(), s.broadSpec(400_000, 1));
        assertTrue(visited(words, broad).size() > 4096 / 2, "broad traces spread over the table");
    }

    @ParameterizedTest
    @ValueSource(ints = {64, 4096})
    void aHotTracesPathThroughTheColdRegionByTheAlternatingCalls(int states) {
        SyntheticGraph s = SyntheticGraph.build(states, 13);
        Graph g = s.graph();
        int m = s.workSites();
        PreparedGraph p = prepare(s);
        int[] hot = Traces.walk(g, s.hotSpec(5_000, 9));
        assertEquals(g.syscall(0), hot[0], "a hot trace starts at w0");
        // At w0: enter the ring at k0 (X), go all the way round with the alternating calls (Y, X, ...,
        // then X back to k0), drop back into w0 and carry on with the rest of the hot trace.
        int[] detour = IntStream.concat(
                        IntStream.rangeClosed(0, m).map(i -> i % m % 2 == 0 ? SyntheticGraph.X : SyntheticGraph.Y),
                        IntStream.of(g.syscall(0)))
                .toArray();
        int[] trace = IntStream.concat(
                        IntStream.concat(IntStream.of(hot[0]), Arrays.stream(detour)),
                        Arrays.stream(hot, 1, hot.length))
                .toArray();
        Set<Integer> hotStates = visited(p.layout(Layout.DFA_WORDS), hot);
        for (Prepared l : p.layouts().values()) {
            assertEquals(
                    0,
                    l.cursor(SyntheticGraph.MAIN).replay(trace),
                    l.layout().wire() + ": the detour is allowed throughout");
            Cursor c = l.cursor(SyntheticGraph.MAIN);
            assertTrue(c.step(hot[0]));
            int atW0 = c.state();
            for (int i = 0; i < detour.length - 1; i++) {
                assertTrue(c.step(detour[i]), l.layout() + " ring step " + i);
                if (l.layout() == Layout.DFA_WORDS) {
                    assertFalse(hotStates.contains(c.state()), "connector states are cold");
                }
            }
            assertFalse(c.step(9999), "an invalid call in the cold region is denied and the cursor stays");
            assertTrue(c.step(detour[detour.length - 1]), "back into w0");
            assertEquals(atW0, c.state(), l.layout() + ": the same state as before the detour");
        }
        int[] coldOnly = Traces.walk(g, s.broadSpec(50_000, 3));
        Set<Integer> broadStates = visited(p.layout(Layout.DFA_WORDS), coldOnly);
        broadStates.removeAll(hotStates);
        assertTrue(broadStates.size() > 0, "a reachable cold region exists");
    }
}
