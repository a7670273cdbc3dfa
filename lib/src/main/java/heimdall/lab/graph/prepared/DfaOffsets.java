package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Trace;
import heimdall.lab.graph.machine.Machine;

/**
 * The {@code dfa-offsets} table format (see {@link DfaLayouts} for the cell format): the cursor holds
 * a row offset ({@code state * columns}), so a step is one load plus an add, {@code next[row + nr]}.
 */
public final class DfaOffsets extends DfaTable<DfaOffsets.Cursor> {
    private final int[] next;

    DfaOffsets(Layout layout, int[] next, int columns, DfaLayouts.Starts starts, long payload) {
        super(layout, columns, starts, payload, columns);
        this.next = next;
    }

    @Override
    Cursor newCursor(int start, int maxDepth, int entry) {
        return new Cursor(start, maxDepth);
    }

    /** A thread's cursor over this table: the current frame's int and a fixed array of saved frames. */
    public final class Cursor extends DfaTable.DfaCursor {
        Cursor(int start, int maxDepth) {
            super(DfaOffsets.this, start, maxDepth);
        }

        // step and replay are this layout's own loops (DfaTable says why they are not shared).

        @Override
        public boolean step(int nr) {
            if (nr >= 0 && nr < columns) {
                int d = next[cur + nr];
                if (d >= 0) {
                    cur = d;
                    return true;
                }
                if (d == Machine.POP && depth > 0) {
                    cur = frames[--depth];
                    return true;
                }
            }
            return false;
        }

        @Override
        public int replay(int[] trace) {
            final int[] next = DfaOffsets.this.next;
            final int columns = DfaOffsets.this.columns;
            int cur = this.cur;
            int rejected = 0;
            for (int nr : trace) {
                if (nr >= 0 && nr < columns) {
                    int d = next[cur + nr];
                    if (d >= 0) {
                        cur = d;
                    } else if (d == Machine.POP && depth > 0) {
                        cur = frames[--depth];
                    } else {
                        rejected++;
                    }
                } else if (nr >= 0) {
                    rejected++;
                } else if (nr == Trace.RESET) {
                    cur = start;
                    depth = 0;
                } else {
                    int signal = Trace.signalOf(nr);
                    if (signal < signalStart.length && depth < frames.length) {
                        frames[depth++] = cur;
                        cur = signalStart[signal];
                    } else {
                        rejected++;
                    }
                }
            }
            this.cur = cur;
            return rejected;
        }
    }
}
