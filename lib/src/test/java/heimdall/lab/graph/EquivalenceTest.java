package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.graph.machine.Equivalence;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The product construction finds real differences, so its silence in the properties means something. */
class EquivalenceTest {
    static Graph abcdfWith(boolean loopBackToC) {
        Graph.Builder b = Graph.builder()
                .site(1, 110, "A", "main", false, "main")
                .site(2, 102, "B", "main", false)
                .site(3, 104, "C", "main", false)
                .site(4, 107, "D", "main", false)
                .site(5, 108, "F", "main", true)
                .next(1, 2)
                .next(2, 3)
                .next(3, 4)
                .next(1, 5)
                .next(4, 5);
        return (loopBackToC ? b.next(4, 3) : b.next(4, 2)).build();
    }

    @Test
    void findsACallAllowedByOneMachineOnly() {
        Optional<String> d = Equivalence.difference(
                MachineCompiler.compile(abcdfWith(false)), MachineCompiler.compile(abcdfWith(true)));
        assertTrue(d.isPresent());
        assertEquals("from main after calls [110, 102, 104, 107]: call 102 allowed by the first only", d.get());
    }

    @Test
    void findsADifferentTerminalFlag() {
        Graph a = Graph.builder()
                .site(1, 0, "r", "f", false, "main")
                .site(2, 1, "w", "f", false)
                .next(1, 2)
                .build();
        Graph b = Graph.builder()
                .site(1, 0, "r", "f", false, "main")
                .site(2, 1, "w", "f", true)
                .next(1, 2)
                .build();
        assertEquals(
                Optional.of("from main after calls [0, 1]: terminal flag false vs true"),
                Equivalence.difference(MachineCompiler.compile(a), MachineCompiler.compile(b)));
    }

    @Test
    void mergesLookAlikeLoopIterations() {
        // A {B C B C}* F unrolled twice minimizes to the same machine as A {B C}* F
        Graph twice = Graph.builder()
                .site(1, 110, "A", "main", false, "main")
                .site(2, 102, "B1", "main", false)
                .site(3, 104, "C1", "main", false)
                .site(4, 102, "B2", "main", false)
                .site(5, 104, "C2", "main", false)
                .site(6, 108, "F", "main", true)
                .next(1, 2)
                .next(2, 3)
                .next(3, 4)
                .next(4, 5)
                .next(5, 2)
                .next(1, 6)
                .next(3, 6)
                .next(5, 6)
                .build();
        Graph once = Graph.builder()
                .site(1, 110, "A", "main", false, "main")
                .site(2, 102, "B", "main", false)
                .site(3, 104, "C", "main", false)
                .site(6, 108, "F", "main", true)
                .next(1, 2)
                .next(2, 3)
                .next(3, 2)
                .next(1, 6)
                .next(3, 6)
                .build();
        Machine big = MachineCompiler.compile(twice);
        Machine min = Minimizer.minimize(big);
        assertEquals(MachineCompiler.compile(once).states(), min.states());
        assertTrue(min.states() < big.states());
        assertEquals(Optional.empty(), Equivalence.difference(big, min));
        assertEquals(Optional.empty(), Equivalence.difference(MachineCompiler.compile(once), min));
    }
}
