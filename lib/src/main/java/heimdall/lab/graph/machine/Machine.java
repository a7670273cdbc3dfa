package heimdall.lab.graph.machine;

import heimdall.lab.graph.Graph;
import java.util.Arrays;
import java.util.List;

/**
 * A deterministic follower machine: the output of {@link MachineCompiler#compile} (and of
 * {@link Minimizer#minimize}), the input of every prepared layout. Immutable.
 *
 * <p>States are {@code 0..states()-1}. Each state's transitions are sorted by syscall number and
 * stored in compressed rows: for state {@code s}, entries {@code rowStart[s]..rowStart[s+1]-1} of
 * {@code labels}/{@code targets}. A target is a state, or {@link #POP} for an allowed
 * {@code rt_sigreturn} that ends a signal frame; an absent label is a denial ({@link #DENY} from
 * {@link #target}).
 *
 * <p>Start states: one per entry of the graph, in the graph's entry order (thread roles and signal
 * entries), plus the union start for an unidentified child (the union of every thread entry).
 */
public final class Machine {
    /** {@link #target} of a call the state does not allow. */
    public static final int DENY = -1;
    /** {@link #target} of an allowed {@code rt_sigreturn} in a signal frame: the frame is popped. */
    public static final int POP = -2;

    private final int[] rowStart;
    private final int[] labels;
    private final int[] targets;
    private final boolean[] terminal;
    private final int[] lastCall;
    private final List<String> entries;
    private final int[] entryStart;
    private final int unionStart;

    Machine(
            int[] rowStart,
            int[] labels,
            int[] targets,
            boolean[] terminal,
            int[] lastCall,
            List<String> entries,
            int[] entryStart,
            int unionStart) {
        this.rowStart = rowStart;
        this.labels = labels;
        this.targets = targets;
        this.terminal = terminal;
        this.lastCall = lastCall;
        this.entries = List.copyOf(entries);
        this.entryStart = entryStart;
        this.unionStart = unionStart;
    }

    public int states() {
        return terminal.length;
    }

    /** Allowed transitions, {@code rt_sigreturn} pops included. */
    public int transitions() {
        return labels.length;
    }

    /** The state reached from {@code state} on {@code nr}, {@link #POP}, or {@link #DENY}. */
    public int target(int state, int nr) {
        int i = Arrays.binarySearch(labels, rowStart[state], rowStart[state + 1], nr);
        return i >= 0 ? targets[i] : DENY;
    }

    /** The first index of a state's row in {@link #label}/{@link #targetAt}. */
    public int rowStart(int state) {
        return rowStart[state];
    }

    /** One past the last index of a state's row. */
    public int rowEnd(int state) {
        return rowStart[state + 1];
    }

    public int label(int index) {
        return labels[index];
    }

    public int targetAt(int index) {
        return targets[index];
    }

    /** Whether some position of the state is a terminal site (the thread may end here). */
    public boolean terminal(int state) {
        return terminal[state];
    }

    /**
     * The last call folded into the state, -1 at a start; after minimization, -1 also where merged
     * states had different last calls (their futures are equal, so the cursor needs no more).
     */
    public int lastCall(int state) {
        return lastCall[state];
    }

    /** Entry names in the graph's entry order. */
    public List<String> entries() {
        return entries;
    }

    /** The start state of an entry by name, or -1 when the graph has no such entry. */
    public int start(String entry) {
        int e = entries.indexOf(entry);
        return e < 0 ? -1 : entryStart[e];
    }

    /** The start state of entry number {@code e}. */
    public int entryStart(int e) {
        return entryStart[e];
    }

    /** The start of an unidentified child: the union of every thread entry. */
    public int unionStart() {
        return unionStart;
    }

    /** Signal entries in order; a signal's number is its position here. */
    public List<String> signals() {
        return entries.stream().filter(Graph::isSignal).toList();
    }

    /** Start states of the signal entries, by signal number. */
    public int[] signalStarts() {
        return signals().stream().mapToInt(this::start).toArray();
    }

    /** The largest syscall number with a transition anywhere, or -1 when there is none. */
    public int maxLabel() {
        int m = -1;
        for (int l : labels) {
            m = Math.max(m, l);
        }
        return m;
    }

    /** The distinct syscall numbers with a transition anywhere, ascending. */
    public int[] alphabet() {
        return Arrays.stream(labels).distinct().sorted().toArray();
    }

    @Override
    public String toString() {
        return "Machine[" + states() + " states, " + transitions() + " transitions, entries " + entries + "]";
    }
}
