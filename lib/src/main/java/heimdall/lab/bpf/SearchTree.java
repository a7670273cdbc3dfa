package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.JGE;

import java.util.List;

/**
 * The syscall-number search of a compiled program: the 32-bit numbers are cut into {@code n}
 * contiguous ranges, range {@code i} being {@code [starts[i], starts[i+1])} (the last one runs to
 * {@code 0xffffffff}), and a binary tree of {@code n - 1} unsigned {@code JGE #starts[k]} comparisons
 * leads each number to its range's leaf. Which comparison sits at each node is chosen to minimise
 * {@code sum(weight[i] * depth[i])}, the optimal alphabetic tree of Knuth's dynamic programme (with
 * his bound {@code root[i][j-1] <= root[i][j] <= root[i+1][j]}, O(n²)); equal weights give a balanced
 * tree. Every leaf has a weight of at least 1, so a range no call is expected in still gets a depth
 * near {@code log2(total weight)}, not an unbounded one.
 */
final class SearchTree {
    private final long[] starts;
    private final int[][] root;

    private SearchTree(long[] starts, int[][] root) {
        this.starts = starts;
        this.root = root;
    }

    /**
     * Plans the tree over ranges starting at {@code starts} (ascending, first 0, unsigned values as
     * longs) with {@code weights} (each at least 1).
     */
    static SearchTree plan(long[] starts, long[] weights) {
        int n = starts.length;
        if (n == 0 || weights.length != n || starts[0] != 0) {
            throw new IllegalArgumentException("ranges must start at 0, one weight each");
        }
        long[] prefix = new long[n + 1];
        for (int i = 0; i < n; i++) {
            if (weights[i] < 1) {
                throw new IllegalArgumentException("weight " + weights[i] + " of range " + i);
            }
            prefix[i + 1] = prefix[i] + weights[i];
        }
        // cost[i][j]: least sum of weight * depth over ranges i..j; root[i][j]: the first range of the
        // right subtree (the node compares against starts[root]).
        long[][] cost = new long[n][n];
        int[][] root = new int[n][n];
        for (int len = 2; len <= n; len++) {
            for (int i = 0; i + len - 1 < n; i++) {
                int j = i + len - 1;
                int from = len == 2 ? i + 1 : root[i][j - 1];
                int to = len == 2 ? j : root[i + 1][j];
                long best = Long.MAX_VALUE;
                int arg = from;
                for (int k = from; k <= to; k++) {
                    long c = cost[i][k - 1] + cost[k][j];
                    if (c < best) {
                        best = c;
                        arg = k;
                    }
                }
                cost[i][j] = best + prefix[j + 1] - prefix[i];
                root[i][j] = arg;
            }
        }
        return new SearchTree(starts.clone(), root);
    }

    /** The number of comparisons on the way to range {@code i}. */
    int depth(int i) {
        int lo = 0;
        int hi = starts.length - 1;
        int d = 0;
        while (lo < hi) {
            int k = root[lo][hi];
            if (i >= k) {
                lo = k;
            } else {
                hi = k - 1;
            }
            d++;
        }
        return d;
    }

    /**
     * Emits the tree at the current position: one {@code JGE} per inner node, in preorder, each
     * jumping forward to its subtrees or straight to a leaf label ({@code leaves.get(i)} for range
     * {@code i}), which the caller places after the tree. A tree of one range is a single {@code JA}.
     */
    void emit(Assembler as, List<Assembler.Label> leaves) {
        if (leaves.size() != starts.length) {
            throw new IllegalArgumentException("one leaf per range");
        }
        if (starts.length == 1) {
            as.jump(leaves.get(0));
            return;
        }
        emit(as, leaves, 0, starts.length - 1);
    }

    private void emit(Assembler as, List<Assembler.Label> leaves, int lo, int hi) {
        int k = root[lo][hi];
        Assembler.Label left = k - 1 == lo ? leaves.get(lo) : as.label();
        Assembler.Label right = k == hi ? leaves.get(hi) : as.label();
        as.cond(JGE, (int) starts[k], right, left);
        if (k - 1 > lo) {
            as.place(left);
            emit(as, leaves, lo, k - 1);
        }
        if (hi > k) {
            as.place(right);
            emit(as, leaves, k, hi);
        }
    }
}
