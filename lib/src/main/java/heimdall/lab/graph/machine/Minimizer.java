package heimdall.lab.graph.machine;

import java.util.Arrays;

/**
 * Merges states with equivalent futures: the partial-DFA partition refinement of Valmari and
 * Lehtinen ("Efficient minimization of DFAs with partial transition functions", 2008; the compact
 * form in Valmari, "Fast brief practical DFA minimization", 2012), O(m log n) in transitions m and
 * states n. Partial means an absent transition is a denial, distinct from any state, so no sink
 * state is added and no denial is ever turned into a transition.
 *
 * <p>Two states merge only when every call sequence gets the same decisions from both, the same
 * {@link Machine#POP}s (signal metadata: an allowed {@code rt_sigreturn} of a signal frame stays a
 * pop), and the same terminal flag along the way. Entry starts and the union start map to their
 * merged states. Unreachable or "dead" states are not removed: every state here is reachable, and a
 * state with no transitions still differs from a missing one.
 */
public final class Minimizer {
    private Minimizer() {}

    /** The minimal machine equivalent to {@code m}; never larger. */
    public static Machine minimize(Machine m) {
        int states = m.states();
        int pop = states; // an extra state standing for "frame popped", alone in its block forever
        int nn = states + 1;
        int mm = m.transitions();
        int[] tail = new int[mm];
        int[] label = new int[mm];
        int[] head = new int[mm];
        for (int s = 0, t = 0; s < states; s++) {
            for (int i = m.rowStart(s); i < m.rowEnd(s); i++, t++) {
                tail[t] = s;
                label[t] = m.label(i);
                int d = m.targetAt(i);
                head[t] = d == Machine.POP ? pop : d;
            }
        }
        int[] marked = new int[Math.max(nn, mm) + 1];
        int[] touched = new int[Math.max(nn, mm) + 1];
        int[] touchedCount = {0};
        Partition blocks = new Partition(nn, marked, touched, touchedCount);
        for (int s = 0; s < states; s++) {
            if (m.terminal(s)) {
                blocks.mark(s);
            }
        }
        blocks.split();
        blocks.mark(pop);
        blocks.split();

        // Cords: transitions grouped by label.
        Partition cords = new Partition(mm, marked, touched, touchedCount);
        if (mm > 0) {
            Integer[] order = new Integer[mm];
            for (int t = 0; t < mm; t++) {
                order[t] = t;
            }
            Arrays.sort(order, (a, b) -> Integer.compare(label[a], label[b]));
            cords.sets = 0;
            int current = label[order[0]];
            cords.first[0] = 0;
            for (int i = 0; i < mm; i++) {
                int t = order[i];
                if (label[t] != current) {
                    current = label[t];
                    cords.past[cords.sets++] = i;
                    cords.first[cords.sets] = i;
                }
                cords.elems[i] = t;
                cords.setOf[t] = cords.sets;
                cords.loc[t] = i;
            }
            cords.past[cords.sets++] = mm;
        }

        // Incoming transitions of each state, for splitting cords by a block.
        int[] inStart = new int[nn + 1];
        for (int t = 0; t < mm; t++) {
            inStart[head[t]]++;
        }
        for (int q = 0; q < nn; q++) {
            inStart[q + 1] += inStart[q];
        }
        int[] in = new int[mm];
        for (int t = mm - 1; t >= 0; t--) {
            in[--inStart[head[t]]] = t;
        }

        int b = 1;
        int c = 0;
        while (c < cords.sets) {
            for (int i = cords.first[c]; i < cords.past[c]; i++) {
                blocks.mark(tail[cords.elems[i]]);
            }
            blocks.split();
            c++;
            while (b < blocks.sets) {
                for (int i = blocks.first[b]; i < blocks.past[b]; i++) {
                    int q = blocks.elems[i];
                    for (int j = inStart[q]; j < inStart[q + 1]; j++) {
                        cords.mark(in[j]);
                    }
                }
                cords.split();
                b++;
            }
        }

        // Number merged states by their smallest member, so the result is deterministic.
        int popBlock = blocks.setOf[pop];
        int[] smallest = new int[blocks.sets];
        Arrays.fill(smallest, Integer.MAX_VALUE);
        for (int s = 0; s < states; s++) {
            smallest[blocks.setOf[s]] = Math.min(smallest[blocks.setOf[s]], s);
        }
        Integer[] blockOrder = new Integer[blocks.sets];
        for (int i = 0; i < blocks.sets; i++) {
            blockOrder[i] = i;
        }
        Arrays.sort(blockOrder, (x, y) -> Integer.compare(smallest[x], smallest[y]));
        int[] newId = new int[blocks.sets];
        int count = 0;
        for (int blk : blockOrder) {
            newId[blk] = blk == popBlock ? Machine.POP : count++;
        }
        int[] rowStart = new int[count + 1];
        MachineCompiler.IntList labels = new MachineCompiler.IntList();
        MachineCompiler.IntList targets = new MachineCompiler.IntList();
        boolean[] terminal = new boolean[count];
        int[] lastCall = new int[count];
        Arrays.fill(lastCall, Integer.MIN_VALUE);
        for (int s = 0; s < states; s++) {
            int id = newId[blocks.setOf[s]];
            terminal[id] = m.terminal(s);
            lastCall[id] = lastCall[id] == Integer.MIN_VALUE || lastCall[id] == m.lastCall(s) ? m.lastCall(s) : -1;
        }
        int next = 0;
        for (int blk : blockOrder) {
            if (blk == popBlock) {
                continue;
            }
            int rep = smallest[blk];
            rowStart[next++] = labels.size();
            for (int i = m.rowStart(rep); i < m.rowEnd(rep); i++) {
                int d = m.targetAt(i);
                labels.add(m.label(i));
                targets.add(d == Machine.POP ? Machine.POP : newId[blocks.setOf[d]]);
            }
        }
        rowStart[count] = labels.size();
        int[] entryStart = new int[m.entries().size()];
        for (int e = 0; e < entryStart.length; e++) {
            entryStart[e] = newId[blocks.setOf[m.entryStart(e)]];
        }
        return new Machine(
                rowStart,
                labels.toArray(),
                targets.toArray(),
                terminal,
                lastCall,
                m.entries(),
                entryStart,
                newId[blocks.setOf[m.unionStart()]]);
    }

    /**
     * The refinable partition of Valmari's paper: {@code elems} is a permutation in which each set is
     * the contiguous range {@code first..past-1}, marked elements are moved to the front of their set,
     * and {@link #split} cuts the marked part off as a new set (the smaller part gets the new number,
     * which gives the log factor).
     */
    private static final class Partition {
        int sets;
        final int[] elems;
        final int[] loc;
        final int[] setOf;
        final int[] first;
        final int[] past;
        final int[] marked;
        final int[] touched;
        final int[] touchedCount;

        Partition(int n, int[] marked, int[] touched, int[] touchedCount) {
            sets = n > 0 ? 1 : 0;
            elems = new int[n];
            loc = new int[n];
            setOf = new int[n];
            first = new int[n + 1];
            past = new int[n + 1];
            this.marked = marked;
            this.touched = touched;
            this.touchedCount = touchedCount;
            for (int i = 0; i < n; i++) {
                elems[i] = i;
                loc[i] = i;
            }
            if (n > 0) {
                past[0] = n;
            }
        }

        void mark(int e) {
            int s = setOf[e];
            int i = loc[e];
            int j = first[s] + marked[s];
            elems[i] = elems[j];
            loc[elems[i]] = i;
            elems[j] = e;
            loc[e] = j;
            if (marked[s]++ == 0) {
                touched[touchedCount[0]++] = s;
            }
        }

        void split() {
            while (touchedCount[0] > 0) {
                int s = touched[--touchedCount[0]];
                int j = first[s] + marked[s];
                if (j == past[s]) {
                    marked[s] = 0;
                    continue;
                }
                if (marked[s] <= past[s] - j) {
                    first[sets] = first[s];
                    past[sets] = j;
                    first[s] = j;
                } else {
                    past[sets] = past[s];
                    first[sets] = j;
                    past[s] = j;
                }
                for (int i = first[sets]; i < past[sets]; i++) {
                    setOf[elems[i]] = sets;
                }
                marked[s] = 0;
                marked[sets++] = 0;
            }
        }
    }
}
