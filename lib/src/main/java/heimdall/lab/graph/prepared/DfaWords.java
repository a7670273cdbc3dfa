package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Trace;
import heimdall.lab.graph.machine.Machine;

/**
 * The {@code dfa-words} table format (see {@link DfaLayouts} for the cell format): the cursor holds a
 * state id and a step multiplies, {@code next[state * columns + nr]}.
 */
public final class DfaWords extends DfaTable<DfaWords.Cursor> {
    private final int[] next;

    DfaWords(Layout layout, int[] next, int columns, DfaLayouts.Starts starts, long payload) {
        super(layout, columns, starts, payload, 1);
        this.next = next;
    }

    @Override
    Cursor newCursor(int start, int maxDepth, int entry) {
        return new Cursor(start, maxDepth);
    }

    /** A thread's cursor over this table: the current frame's int and a fixed array of saved frames. */
    public final class Cursor extends DfaTable.DfaCursor {
        Cursor(int start, int maxDepth) {
            super(DfaWords.this, start, maxDepth);
        }

        // step and replay are this layout's own loops (DfaTable says why they are not shared).

        @Override
        public boolean step(int nr) {
            if (nr >= 0 && nr < columns) {
                int d = next[cur * columns + nr];
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
            final int[] next = DfaWords.this.next;
            final int columns = DfaWords.this.columns;
            int cur = this.cur;
            int rejected = 0;
            for (int nr : trace) {
                if (nr >= 0 && nr < columns) {
                    int d = next[cur * columns + nr];
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
