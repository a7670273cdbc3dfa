package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Trace;
import heimdall.lab.graph.machine.Machine;

/**
 * The {@code dfa-compact} table format (see {@link DfaLayouts} for the cell format): the cursor holds
 * a row offset ({@code state * classes}) and a step maps the syscall to its column class first,
 * {@code next[row + classOf[nr]]}.
 */
public final class DfaCompact extends DfaTable<DfaCompact.Cursor> {
    private final int[] next;
    private final int[] classOf;
    private final int classes;

    DfaCompact(Layout layout, int[] next, int[] classOf, int classes, DfaLayouts.Starts starts, long payload) {
        super(layout, classOf.length, starts, payload, classes);
        this.next = next;
        this.classOf = classOf;
        this.classes = classes;
    }

    /** Column classes per row (class 0 is the all-deny column). */
    public int classes() {
        return classes;
    }

    @Override
    Cursor newCursor(int start, int maxDepth, int entry) {
        return new Cursor(start, maxDepth);
    }

    /** A thread's cursor over this table: the current frame's int and a fixed array of saved frames. */
    public final class Cursor extends DfaTable.DfaCursor {
        Cursor(int start, int maxDepth) {
            super(DfaCompact.this, start, maxDepth);
        }

        // step and replay are this layout's own loops (DfaTable says why they are not shared).

        @Override
        public boolean step(int nr) {
            if (nr >= 0 && nr < columns) {
                int d = next[cur + classOf[nr]];
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
            final int[] next = DfaCompact.this.next;
            final int[] classOf = DfaCompact.this.classOf;
            final int columns = DfaCompact.this.columns;
            int cur = this.cur;
            int rejected = 0;
            for (int nr : trace) {
                if (nr >= 0 && nr < columns) {
                    int d = next[cur + classOf[nr]];
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
