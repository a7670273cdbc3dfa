package heimdall.lab.follower;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.CompileBudget;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.graph.machine.MachineCompiler;
import heimdall.lab.graph.machine.Minimizer;
import heimdall.lab.sys.Signals;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A machine laid out for the kernel follower: the {@code dfa-offsets} cells
 * ({@link heimdall.lab.graph.prepared.DfaLayouts}) over the minimized machine, with one flag bit.
 *
 * <p>Why dfa-offsets: a step in the kernel is then a single bounds-checked array-map load
 * ({@code cells[row + nr]}, which the verifier inlines), where dfa-compact needs two dependent
 * loads (class, then cell). Our graphs' tables are small (states times the highest syscall number
 * the graph names), so compact's saving in kernel memory is not worth a second load on every call of
 * the followed process; {@link #MAX_CELLS} bounds the memory a graph may take.
 *
 * <p>Cells: a destination row offset ({@code state * columns}), with {@link #TERMINAL_BIT} set when
 * the destination is terminal (the kernel resets the thread to its entry); {@link Machine#DENY}; or
 * {@link Machine#POP} (an allowed {@code rt_sigreturn} ending a signal frame).
 *
 * @param cells states times columns cells
 * @param columns syscall numbers a row covers; larger numbers are denied
 * @param states machine states
 * @param mainStart the row offset the main thread starts at
 * @param threadStart the row offset any other thread starts at: the union of the thread entries (an
 *     unidentified thread, as the replay harness follows one)
 * @param signalStarts by signal number (0..64): the row offset a handled delivery pushes, or -1
 * @param childStarts by state: the row offset of the role a clone/clone3 call leading to that state
 *     creates ({@link ThreadRoles}), or -1 (the new thread starts at {@code threadStart})
 */
public record KernelTables(
        int[] cells, int columns, int states, int mainStart, int threadStart, int[] signalStarts, int[] childStarts) {
    /** Set in a cell whose destination state is terminal (must match follower.h). */
    public static final int TERMINAL_BIT = 0x4000_0000;
    /**
     * The most cells a graph may take: 4 Mi cells, 16 MiB of kernel memory for one followed process.
     * Also keeps every row offset below {@link #TERMINAL_BIT}.
     */
    public static final int MAX_CELLS = 1 << 22;
    /** Signal numbers the tables cover (0..64). */
    public static final int SIGNALS = 65;

    /**
     * Compiles and minimizes {@code g} (default budgets) and lays it out, with thread roles by creating
     * call site ({@link ThreadRoles}).
     */
    public static KernelTables of(Graph g) {
        return of(g, Minimizer.minimize(MachineCompiler.compile(g, CompileBudget.defaults())));
    }

    /** Lays out {@code m}, compiled from {@code g}, with thread roles by creating call site. */
    public static KernelTables of(Graph g, Machine m) {
        KernelTables t = of(m);
        ThreadRoles roles = ThreadRoles.of(g, m);
        int[] child = new int[m.states()];
        for (int s = 0; s < child.length; s++) {
            String r = roles.role(s);
            child[s] = r == null ? -1 : m.start(r) * t.columns();
        }
        return new KernelTables(
                t.cells(), t.columns(), t.states(), t.mainStart(), t.threadStart(), t.signalStarts(), child);
    }

    /**
     * Lays {@code m} out, every new thread unidentified (no graph to tell creating sites by).
     *
     * @throws Refusal when the graph is larger than {@link #MAX_CELLS}
     * @throws BadInput when the graph has no {@code main} entry or names a signal entry that is not a
     *     signal of this platform
     */
    public static KernelTables of(Machine m) {
        int columns = Math.max(1, m.maxLabel() + 1);
        long n = checkSize(m.states(), columns);
        int[] cells = new int[(int) n];
        Arrays.fill(cells, Machine.DENY);
        for (int s = 0; s < m.states(); s++) {
            for (int i = m.rowStart(s); i < m.rowEnd(s); i++) {
                int d = m.targetAt(i);
                cells[s * columns + m.label(i)] = d < 0 ? d : d * columns | (m.terminal(d) ? TERMINAL_BIT : 0);
            }
        }
        List<String> entries = m.entries();
        if (!entries.contains("main")) {
            throw new BadInput("entry 'main' (nodes field first_of): no site starts it, so the followed process's main "
                    + "thread has no role to follow (entries: " + entries + ")");
        }
        int[] sig = new int[SIGNALS];
        Arrays.fill(sig, -1);
        int[] starts = m.signalStarts();
        List<String> signals = m.signals();
        for (int k = 0; k < signals.size(); k++) {
            String name = signals.get(k).substring("signal:".length());
            sig[number(name, signals.get(k))] = starts[k] * columns;
        }
        int[] child = new int[m.states()];
        Arrays.fill(child, -1);
        return new KernelTables(
                cells, columns, m.states(), m.start("main") * columns, m.unionStart() * columns, sig, child);
    }

    /** The cell count of {@code states} rows of {@code columns}, or a refusal when over {@link #MAX_CELLS}. */
    static long checkSize(int states, int columns) {
        long n = (long) states * columns;
        if (n > MAX_CELLS) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "graph larger than the follower's map limit: %,d states x %,d columns = %,d "
                            + "cells, limit %,d cells (%,d bytes)",
                    states,
                    columns,
                    n,
                    MAX_CELLS,
                    (long) MAX_CELLS * 4));
        }
        return n;
    }

    private static int number(String name, String entry) {
        for (int s = 1; s < SIGNALS; s++) {
            if (Signals.name(s).equals(name)) {
                return s;
            }
        }
        throw new BadInput(
                "entry '" + entry + "' (nodes field first_of): " + name + " is not a signal of Linux x86_64");
    }

    /**
     * Tables that allow every call in one state (a cost measurement's: a step costs the same in any
     * state, one cell load). Never for enforcement.
     */
    static KernelTables allowingEverything() {
        int columns = Graph.SYSCALL_LIMIT;
        int[] cells = new int[columns]; // every cell: row 0, not terminal
        int[] sig = new int[SIGNALS];
        Arrays.fill(sig, 0);
        return new KernelTables(cells, columns, 1, 0, 0, sig, new int[] {-1});
    }

    /** Bytes of kernel memory the cells map holds. */
    public long payloadBytes() {
        return (long) cells.length * 4;
    }
}
