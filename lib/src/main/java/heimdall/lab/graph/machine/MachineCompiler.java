package heimdall.lab.graph.machine;

import heimdall.lab.Refusal;
import heimdall.lab.graph.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compiles a graph into a {@link Machine} by exploring only the reachable frames
 * {@code (entry, positions, last call)} from every start: one per entry, and the union start of an
 * unidentified child. Each reachable frame becomes a state, so the state id folds in the last call
 * and a cursor needs one number per frame.
 *
 * <p>The step rule (the reference semantics, also implemented directly by
 * {@link heimdall.lab.graph.prepared.ReferenceFollower}): on call {@code n}, the positions' {@code next}
 * successors whose syscall is {@code n} become the positions. If there are none and {@code n} repeats
 * the last call, each position moves to its {@code again} successors labelled {@code n}, or stays where
 * it has none. Otherwise the call is denied. In a signal frame an allowed {@code rt_sigreturn} pops the
 * frame ({@link Machine#POP}) instead of moving it.
 *
 * <p>Before the first call a frame's positions are a virtual start position per entry, whose
 * {@code next} successors are the entry's first sites; the union start holds the start positions of
 * every thread entry.
 *
 * <p>Of a frame's entry, only whether it is a signal entry changes any decision (a signal frame's
 * {@code rt_sigreturn} pops), and the start positions already tell entries apart before the first
 * call. So frames are keyed by (thread or signal, positions, last call): frames of two thread entries
 * (or of an entry and the unidentified union) that reach the same positions with the same last call
 * share one state, which is what keying by entry would give after minimization, without building the
 * copies first.
 */
public final class MachineCompiler {
    private MachineCompiler() {}

    /** Compiles under the default budget. */
    public static Machine compile(Graph g) {
        return compile(g, CompileBudget.defaults());
    }

    /**
     * Compiles under {@code budget}.
     *
     * @throws Refusal when the machine would exceed the transition or frame budget, naming the budget
     *     and the figure reached
     */
    public static Machine compile(Graph g, CompileBudget budget) {
        return new Run(g, budget).run();
    }

    /** A frame: {@code signal} 1 for a signal frame, 0 for a thread frame; positions sorted. */
    private record Key(int signal, int last, int[] positions) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.signal == signal && k.last == last && Arrays.equals(k.positions, positions);
        }

        @Override
        public int hashCode() {
            return (signal * 31 + last) * 1_000_003 + Arrays.hashCode(positions);
        }
    }

    private static final class Run {
        final Graph g;
        final CompileBudget budget;
        final int n;
        final int entryCount;
        final int[][] nextLabels;
        final int[][][] nextBy;
        final int[][] againLabels;
        final int[][][] againBy;
        final Map<Key, Integer> ids = new HashMap<>();
        final List<Key> keys = new ArrayList<>();
        final int[] stamp;
        int epoch;
        final int[] scratch;
        final IntList labels = new IntList();
        final IntList targets = new IntList();
        long transitionCount;

        Run(Graph g, CompileBudget budget) {
            this.g = g;
            this.budget = budget;
            n = g.siteCount();
            entryCount = g.entryCount();
            int positions = n + entryCount;
            nextLabels = new int[positions][];
            nextBy = new int[positions][][];
            againLabels = new int[positions][];
            againBy = new int[positions][][];
            for (int p = 0; p < positions; p++) {
                int[] nx = p < n ? g.next(p) : g.firsts(p - n);
                int[] ag = p < n ? g.again(p) : new int[0];
                group(nx, p, nextLabels, nextBy);
                group(ag, p, againLabels, againBy);
            }
            stamp = new int[positions];
            scratch = new int[positions];
        }

        private void group(int[] succ, int p, int[][] labelsOut, int[][][] byOut) {
            int[] ls = Arrays.stream(succ).map(g::syscall).distinct().sorted().toArray();
            int[][] by = new int[ls.length][];
            for (int i = 0; i < ls.length; i++) {
                int l = ls[i];
                by[i] = Arrays.stream(succ).filter(s -> g.syscall(s) == l).toArray();
            }
            labelsOut[p] = ls;
            byOut[p] = by;
        }

        Machine run() {
            int[] entryStart = new int[entryCount];
            for (int e = 0; e < entryCount; e++) {
                entryStart[e] = intern(new Key(g.isSignalEntry(e) ? 1 : 0, -1, new int[] {n + e}));
            }
            int[] union = new int[0];
            for (int e = 0; e < entryCount; e++) {
                if (!g.isSignalEntry(e)) {
                    union = Arrays.copyOf(union, union.length + 1);
                    union[union.length - 1] = n + e;
                }
            }
            int unionStart = intern(new Key(0, -1, union));
            IntList rowStart = new IntList();
            boolean[] candidate = new boolean[Graph.SYSCALL_LIMIT];
            IntList cands = new IntList();
            for (int s = 0; s < keys.size(); s++) {
                rowStart.add(labels.size());
                Key k = keys.get(s);
                boolean signalFrame = k.signal == 1;
                cands.clear();
                for (int p : k.positions) {
                    for (int l : nextLabels[p]) {
                        if (!candidate[l]) {
                            candidate[l] = true;
                            cands.add(l);
                        }
                    }
                }
                if (k.last >= 0 && !candidate[k.last]) {
                    candidate[k.last] = true;
                    cands.add(k.last);
                }
                int[] sorted = cands.toArray();
                Arrays.sort(sorted);
                for (int l : sorted) {
                    candidate[l] = false;
                }
                for (int nr : sorted) {
                    int[] dest = step(k, nr);
                    if (dest == null) {
                        continue;
                    }
                    int target =
                            signalFrame && nr == Graph.RT_SIGRETURN ? Machine.POP : intern(new Key(k.signal, nr, dest));
                    labels.add(nr);
                    targets.add(target);
                    if (++transitionCount > budget.maxTransitions()) {
                        throw new Refusal(String.format(
                                Locale.ROOT,
                                "construction budget exceeded: %,d transitions reached "
                                        + "(budget %,d transitions) after exploring %,d of %,d frames discovered",
                                transitionCount,
                                budget.maxTransitions(),
                                s + 1,
                                keys.size()));
                    }
                }
            }
            rowStart.add(labels.size());
            boolean[] terminal = new boolean[keys.size()];
            int[] lastCall = new int[keys.size()];
            for (int s = 0; s < keys.size(); s++) {
                Key k = keys.get(s);
                lastCall[s] = k.last;
                for (int p : k.positions) {
                    terminal[s] |= p < n && g.terminal(p);
                }
            }
            return new Machine(
                    rowStart.toArray(),
                    labels.toArray(),
                    targets.toArray(),
                    terminal,
                    lastCall,
                    g.entries(),
                    entryStart,
                    unionStart);
        }

        /** The frame's positions after {@code nr}, or null when denied. */
        private int[] step(Key k, int nr) {
            epoch++;
            int count = 0;
            for (int p : k.positions) {
                int i = Arrays.binarySearch(nextLabels[p], nr);
                if (i >= 0) {
                    for (int t : nextBy[p][i]) {
                        if (stamp[t] != epoch) {
                            stamp[t] = epoch;
                            scratch[count++] = t;
                        }
                    }
                }
            }
            if (count == 0 && nr == k.last) {
                for (int p : k.positions) {
                    int i = Arrays.binarySearch(againLabels[p], nr);
                    int[] to = i >= 0 ? againBy[p][i] : new int[] {p};
                    for (int t : to) {
                        if (stamp[t] != epoch) {
                            stamp[t] = epoch;
                            scratch[count++] = t;
                        }
                    }
                }
            }
            if (count == 0) {
                return null;
            }
            int[] out = Arrays.copyOf(scratch, count);
            Arrays.sort(out);
            return out;
        }

        private int intern(Key k) {
            Integer id = ids.get(k);
            if (id != null) {
                return id;
            }
            int s = keys.size();
            if (s + 1 > budget.maxFrames()) {
                throw new Refusal(String.format(
                        Locale.ROOT,
                        "frame budget exceeded: %,d frames reached (budget %,d frames)",
                        s + 1L,
                        budget.maxFrames()));
            }
            ids.put(k, s);
            keys.add(k);
            return s;
        }
    }

    /** A growable int list, to keep compile's memory near its output size. */
    static final class IntList {
        private int[] a = new int[16];
        private int size;

        void add(int v) {
            if (size == a.length) {
                a = Arrays.copyOf(a, size * 2);
            }
            a[size++] = v;
        }

        int size() {
            return size;
        }

        void clear() {
            size = 0;
        }

        int[] toArray() {
            return Arrays.copyOf(a, size);
        }
    }
}
