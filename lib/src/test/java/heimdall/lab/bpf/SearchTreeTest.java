package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The weighted search: optimal, balanced on equal weights, and every number reaches its own range. */
class SearchTreeTest {
    @Test
    void treeIsOptimalAgainstExhaustiveSearch() {
        Random rnd = new Random(15);
        for (int round = 0; round < 300; round++) {
            int n = 1 + rnd.nextInt(9);
            long[] w = new long[n];
            for (int i = 0; i < n; i++) {
                w[i] = 1 + (rnd.nextBoolean() ? rnd.nextInt(3) : rnd.nextInt(500));
            }
            SearchTree t = SearchTree.plan(starts(n), w);
            long cost = 0;
            for (int i = 0; i < n; i++) {
                cost += w[i] * t.depth(i);
            }
            assertEquals(bruteForce(w, 0, n - 1), cost, java.util.Arrays.toString(w));
        }
    }

    /** The least weighted depth over every tree of ranges i..j. */
    static long bruteForce(long[] w, int i, int j) {
        if (i == j) {
            return 0;
        }
        long sum = 0;
        for (int k = i; k <= j; k++) {
            sum += w[k];
        }
        long best = Long.MAX_VALUE;
        for (int k = i + 1; k <= j; k++) {
            best = Math.min(best, bruteForce(w, i, k - 1) + bruteForce(w, k, j));
        }
        return best + sum;
    }

    @Test
    void equalWeightsGiveABalancedTree() {
        for (int n = 1; n <= 300; n++) {
            long[] w = new long[n];
            java.util.Arrays.fill(w, 1);
            SearchTree t = SearchTree.plan(starts(n), w);
            int ceilLog2 = 32 - Integer.numberOfLeadingZeros(n - 1);
            for (int i = 0; i < n; i++) {
                assertTrue(t.depth(i) <= ceilLog2, "n " + n + " range " + i + " depth " + t.depth(i));
            }
        }
    }

    @Test
    void emittedTreeSendsEveryNumberToItsRange() {
        // ranges over the whole 32-bit space, the last ones at the x32 bit and at -1 as the compiler makes
        long[] starts = {0, 1, 2, 5, 40, 41, 300, 0x4000_0000L, 0xffff_ffffL};
        long[] w = {1, 500, 3, 2, 64, 1, 9, 1, 1};
        Assembler as = new Assembler();
        as.emit(Insn.ldAbs(SeccompData.OFF_NR));
        List<Assembler.Label> leaves = new ArrayList<>();
        for (int i = 0; i < starts.length; i++) {
            leaves.add(as.label());
        }
        SearchTree.plan(starts, w).emit(as, leaves);
        for (int i = 0; i < starts.length; i++) {
            as.place(leaves.get(i));
            as.emit(Insn.ret(0x50000 + i)); // ERRNO(i): the range's index comes back
        }
        Program p = Program.of(as.assemble(), "tree");
        long[] probes = {
            0,
            1,
            2,
            3,
            4,
            5,
            39,
            40,
            41,
            42,
            299,
            300,
            301,
            0x3fff_ffffL,
            0x4000_0000L,
            0x4000_0001L,
            0x7fff_ffffL,
            0x8000_0000L,
            0xffff_fffeL,
            0xffff_ffffL
        };
        for (long nr : probes) {
            int want = 0;
            while (want + 1 < starts.length && starts[want + 1] <= nr) {
                want++;
            }
            assertEquals(
                    0x50000 + want,
                    Emulator.run(p, SeccompData.x86_64((int) nr)).action(),
                    "nr " + nr);
        }
    }

    @Test
    void refusesRangesNotFromZeroAndWeightsBelowOne() {
        assertThrows(IllegalArgumentException.class, () -> SearchTree.plan(new long[] {1, 2}, new long[] {1, 1}));
        assertThrows(IllegalArgumentException.class, () -> SearchTree.plan(new long[] {0, 2}, new long[] {1, 0}));
        assertThrows(IllegalArgumentException.class, () -> SearchTree.plan(new long[] {}, new long[] {}));
    }

    static long[] starts(int n) {
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = 10L * i;
        }
        return s;
    }
}
