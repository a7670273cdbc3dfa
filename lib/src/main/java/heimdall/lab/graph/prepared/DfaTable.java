package heimdall.lab.graph.prepared;

/**
 * The skeleton of the dense layouts ({@link DfaWords}, {@link DfaOffsets}, {@link DfaCompact},
 * {@link DfaNarrow}; the cell formats are in {@link DfaLayouts}): the columns, the start values, the
 * payload, and a cursor's frames ({@link DfaCursor}: the current int, a fixed array of saved ints,
 * delivery and reset).
 *
 * <p>What is not here, on purpose: {@code step} and {@code replay}. Each layout writes its own loop in
 * its own final cursor class. HotSpot keeps one profile per method, shared by every object that runs
 * it: one shared loop reading its cells through an abstract {@code cell(i)} (or a lambda) would see
 * every layout's table at the same call site, the call would become megamorphic and stay a virtual
 * call inside the dependent chain of a step (one L1 load plus an add, about 1.5 ns here). Written out
 * per class, each loop is monomorphic: the JIT inlines the index arithmetic and keeps the table and
 * the current int in registers (dfa-min-narrow was split from dfa-compact into a class of its own for
 * the same reason, commit 024dd9c). {@code ./lab reproduce graph-lookup} and {@code ./lab graph jmh}
 * measure those loops. Only the cold plumbing (entries, starts, delivery, reset) is shared.
 *
 * @param <C> the layout's own cursor class
 */
abstract sealed class DfaTable<C extends DfaTable.DfaCursor> extends AbstractPrepared<C>
        permits DfaWords, DfaOffsets, DfaCompact, DfaNarrow {
    /** Raw syscall numbers a row covers; a call outside {@code 0..columns-1} is denied before any load. */
    final int columns;

    final DfaLayouts.Starts starts;
    /** What a cursor's int is divided by to give the state: 1 for state ids, else the cells per row. */
    private final int rowScale;

    DfaTable(Layout layout, int columns, DfaLayouts.Starts starts, long payload, int rowScale) {
        super(layout, starts.entries(), starts.signals(), payload);
        this.columns = columns;
        this.starts = starts;
        this.rowScale = rowScale;
    }

    /** Raw syscall numbers a row covers ({@code 0..columns-1}); other numbers are denied. */
    public int columns() {
        return columns;
    }

    @Override
    final C open(int entry, int maxDepth) {
        return newCursor(starts.entryStart()[entry], maxDepth, entry);
    }

    @Override
    final C openUnidentified(int maxDepth) {
        return newCursor(starts.unionStart(), maxDepth, -1);
    }

    /**
     * The layout's cursor at {@code start} (a value the cursor holds: a state id or a row offset).
     *
     * @param entry the thread entry's index in {@link #entries()}, or -1 for the unidentified cursor
     */
    abstract C newCursor(int start, int maxDepth, int entry);

    /**
     * A thread's frames over a dense table: the current frame's int in a field and a fixed array of
     * saved frames. The subclasses add {@code step} and {@code replay}, which read and write these
     * fields directly (see the class comment of {@link DfaTable} for why they are not shared).
     */
    abstract static class DfaCursor implements Cursor {
        final int start;
        final int[] frames;
        final int[] signalStart;
        private final int rowScale;
        int cur;
        int depth;

        DfaCursor(DfaTable<?> table, int start, int maxDepth) {
            this.start = start;
            this.frames = new int[maxDepth];
            this.signalStart = table.starts.signalStart();
            this.rowScale = table.rowScale;
            this.cur = start;
        }

        @Override
        public final boolean deliver(int signal) {
            if (signal < 0 || signal >= signalStart.length || depth == frames.length) {
                return false;
            }
            frames[depth++] = cur;
            cur = signalStart[signal];
            return true;
        }

        @Override
        public final void reset() {
            cur = start;
            depth = 0;
        }

        @Override
        public final int depth() {
            return depth;
        }

        @Override
        public final int state() {
            return cur / rowScale;
        }
    }
}
