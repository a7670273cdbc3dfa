package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.graph.machine.Coalescer;
import heimdall.lab.graph.machine.Equivalence;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.graph.prepared.ReferenceFollower;
import java.util.Optional;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The "what must hold" properties over random graphs. */
class LayoutPropertiesTest {
    @Property(tries = 300)
    void everyLayoutMatchesTheReferenceOnRandomGraphs(
            @ForAll long graphSeed, @ForAll long traceSeed, @ForAll @IntRange(min = 0, max = 3) int depth) {
        Graph g = GraphTesting.randomGraph(graphSeed);
        PreparedGraph p = PreparedGraph.prepare(g, PreparedGraph.Options.defaults());
        int[] events =
                GraphTesting.randomEvents(traceSeed, 400, g.signalEntries().size());
        GraphTesting.assertAllLayoutsMatch(p, events, depth, "random graph " + graphSeed);
        // and on walked traces, which go deeper into the graph than random calls do
        for (String entry : GraphTesting.starts(p.layout(Layout.HASH))) {
            int[] walk = Traces.walk(
                    g,
                    Traces.Spec.of(entry, 400, traceSeed)
                            .withInvalidRate(0.1)
                            .withSignalRate(0.1)
                            .withRepeatRate(0.1)
                            .withMaxDepth(depth + 1));
            GraphTesting.assertAllLayoutsMatch(p, walk, depth, "walk of random graph " + graphSeed);
        }
    }

    static final PreparedGraph ABCDF = PreparedGraph.prepare(FixtureGraphs.abcdf(), PreparedGraph.Options.defaults());
    static final SyntheticGraph SYNTHETIC = SyntheticGraph.build(64, 99);
    static final PreparedGraph SYNTHETIC_64 =
            PreparedGraph.prepare(SYNTHETIC.graph(), PreparedGraph.Options.defaults());

    @Property(tries = 200)
    void everyLayoutMatchesTheReferenceOnAbcdf(@ForAll long traceSeed, @ForAll @IntRange(min = 0, max = 3) int depth) {
        Graph g = ABCDF.source();
        int[] alphabet = IntStream.concat(IntStream.of(g.alphabet()), IntStream.of(9, 600))
                .toArray();
        GraphTesting.assertAllLayoutsMatch(
                ABCDF, GraphTesting.randomEvents(traceSeed, 300, 1, alphabet), depth, "abcdf");
        int[] walk = Traces.walk(
                g,
                Traces.Spec.of("main", 300, traceSeed)
                        .withInvalidRate(0.1)
                        .withSignalRate(0.15)
                        .withRepeatRate(0.1)
                        .withMaxDepth(depth + 1));
        GraphTesting.assertAllLayoutsMatch(ABCDF, walk, depth, "abcdf walk");
    }

    @Property(tries = 100)
    void everyLayoutMatchesTheReferenceOnSyntheticTraces(
            @ForAll long traceSeed, @ForAll boolean hot, @ForAll @IntRange(min = 0, max = 2) int depth) {
        Traces.Spec spec = hot ? SYNTHETIC.hotSpec(500, traceSeed) : SYNTHETIC.broadSpec(500, traceSeed);
        int[] walk = Traces.walk(
                SYNTHETIC.graph(),
                spec.withInvalidRate(0.1)
                        .withSignalRate(0.05)
                        .withRepeatRate(0.05)
                        .withMaxDepth(depth + 1));
        GraphTesting.assertAllLayoutsMatch(SYNTHETIC_64, walk, depth, "synthetic 64");
        int[] alphabet = IntStream.concat(IntStream.of(SYNTHETIC.graph().alphabet()), IntStream.of(2, 511))
                .toArray();
        GraphTesting.assertAllLayoutsMatch(
                SYNTHETIC_64, GraphTesting.randomEvents(traceSeed, 500, 1, alphabet), depth, "synthetic 64 random");
    }

    @Property(tries = 400)
    void minimizedIsEquivalentAndNeverLarger(@ForAll long graphSeed) {
        Machine m = MachineCompiler.compile(GraphTesting.randomGraph(graphSeed));
        Machine min = Minimizer.minimize(m);
        assertEquals(Optional.empty(), Equivalence.difference(m, min));
        assertTrue(min.states() <= m.states(), min.states() + " > " + m.states());
        assertTrue(min.transitions() <= m.transitions());
        // minimal: minimizing again changes nothing, and naive Moore refinement finds no more merges
        assertEquals(min.states(), Minimizer.minimize(min).states());
        assertEquals(mooreClasses(m), min.states());
    }

    /** Number of equivalence classes by naive iterated refinement (Moore), as an independent count. */
    static int mooreClasses(Machine m) {
        int[] cls = new int[m.states()];
        for (int s = 0; s < m.states(); s++) {
            cls[s] = m.terminal(s) ? 1 : 0;
        }
        int count = -1;
        while (true) {
            java.util.Map<java.util.List<Integer>, Integer> ids = new java.util.HashMap<>();
            int[] next = new int[m.states()];
            for (int s = 0; s < m.states(); s++) {
                java.util.List<Integer> sig = new java.util.ArrayList<>(java.util.List.of(cls[s]));
                for (int i = m.rowStart(s); i < m.rowEnd(s); i++) {
                    sig.add(m.label(i));
                    sig.add(m.targetAt(i) == Machine.POP ? -2 : cls[m.targetAt(i)]);
                }
                next[s] = ids.computeIfAbsent(sig, k -> ids.size());
            }
            cls = next;
            if (ids.size() == count) {
                return count;
            }
            count = ids.size();
        }
    }

    @Property(tries = 300)
    void coalescingPreservesEveryDecision(@ForAll long graphSeed, @ForAll long traceSeed) {
        Graph g = GraphTesting.randomGraphWithTwins(graphSeed);
        Coalescer.Coalesced c = Coalescer.coalesce(g);
        assertTrue(c.graph().siteCount() <= g.siteCount());
        // exhaustively, on the compiled machines
        assertEquals(
                Optional.empty(),
                Equivalence.difference(MachineCompiler.compile(g), MachineCompiler.compile(c.graph())));
        // and event by event, reference follower against reference follower
        Prepared original = ReferenceFollower.of(g);
        Prepared merged = ReferenceFollower.of(c.graph());
        int[] events =
                GraphTesting.randomEvents(traceSeed, 300, g.signalEntries().size());
        for (String entry : GraphTesting.starts(original)) {
            GraphTesting.assertMatchesReference(original, merged, entry, events, 2, "coalesced " + graphSeed);
        }
        for (var e : c.siteMap().entrySet()) {
            assertTrue(c.graph().indexOf(e.getValue()) >= 0, "site " + e.getKey() + " maps to a missing site");
            assertEquals(
                    g.site(g.indexOf(e.getKey())).syscall(),
                    c.graph().site(c.graph().indexOf(e.getValue())).syscall());
        }
    }
}
