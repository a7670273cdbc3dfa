package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Trace;
import heimdall.lab.graph.machine.Machine;

/**
 * The {@code dfa-min-narrow} table format (see {@link DfaLayouts}): {@code dfa-compact}'s column
 * classes over the minimized machine, with 2-byte unsigned cells ({@code char}) when every row offset
 * fits ({@code states * stride <= 65534}, else 4-byte cells), and one reset column per start whose
 * cell in every row is that start, so that {@code replay} follows a reset with the same table load as
 * a call instead of a possibly mispredicted branch.
 */
public final class DfaNarrow extends DfaTable<DfaNarrow.Cursor> {
    private final char[] narrow;
    private final int[] wide;
    /** Column class of event {@code nr + 1} for {@code nr} in {@code -1..columns-1}; slot 0 (the reset) is 0. */
    private final int[] events;

    private final int[] classOf;
    private final int classes;
    private final int stride;
    private final int[] entryReset;
    private final int unionReset;

    /**
     * @param next cells, {@code stride} per row
     * @param classOf column class of each syscall {@code 0..columns-1}
     * @param classes column classes (the reset columns follow them)
     * @param stride cells per row: the column classes then one reset column per start
     * @param entryReset per entry, its reset column (-1 for signal entries)
     * @param unionReset the unidentified cursor's reset column
     */
    DfaNarrow(
            Layout layout,
            int[] next,
            int[] classOf,
            int classes,
            int stride,
            DfaLayouts.Starts starts,
            int[] entryReset,
            int unionReset,
            long payload) {
        super(layout, classOf.length, starts, payload, stride);
        if (layout.narrow() && narrowFits(next.length)) {
            this.narrow = new char[next.length];
            for (int i = 0; i < next.length; i++) {
                narrow[i] = (char) next[i];
            }
            this.wide = null;
        } else {
            this.narrow = null;
            this.wide = next;
        }
        this.classOf = classOf;
        this.events = new int[classOf.length + 1];
        System.arraycopy(classOf, 0, events, 1, classOf.length);
        this.classes = classes;
        this.stride = stride;
        this.entryReset = entryReset;
        this.unionReset = unionReset;
    }

    /**
     * Narrow cells are unsigned 16 bits ({@code char}: a zero-extending load, no slower than an int
     * load, where a sign-extending {@code short} load cost about a cycle more): DENY and POP are
     * stored as 0xFFFF and 0xFFFE, so every cell below {@link #NARROW_SPECIAL} is a destination.
     */
    static final int NARROW_SPECIAL = 0xFFFE;

    /** Whether a table of {@code cells} cells keeps 2-byte cells: every row offset below {@link #NARROW_SPECIAL}. */
    static boolean narrowFits(long cells) {
        return cells <= NARROW_SPECIAL;
    }

    /** Column classes per row (class 0 is the all-deny column). */
    public int classes() {
        return classes;
    }

    /** Cells per row: the column classes, then one reset column per thread entry and one for the union. */
    public int stride() {
        return stride;
    }

    /** Bytes per cell: 2 or 4. */
    public int cellBytes() {
        return narrow != null ? 2 : 4;
    }

    @Override
    Cursor newCursor(int start, int maxDepth, int entry) {
        return new Cursor(start, maxDepth, entry < 0 ? unionReset : entryReset[entry]);
    }

    /** A thread's cursor over this table: the current frame's int and a fixed array of saved frames. */
    public final class Cursor extends DfaTable.DfaCursor {
        /** This start's reset column. */
        private final int resetClass;

        Cursor(int start, int maxDepth, int resetClass) {
            super(DfaNarrow.this, start, maxDepth);
            this.resetClass = resetClass;
        }

        // cell, step and replay are this layout's own loops (DfaTable says why they are not shared).

        private int cell(int i) {
            if (narrow == null) {
                return wide[i];
            }
            int c = narrow[i];
            return c >= NARROW_SPECIAL ? c - 0x10000 : c;
        }

        @Override
        public boolean step(int nr) {
            if (nr >= 0 && nr < columns) {
                int d = cell(cur + classOf[nr]);
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
            return narrow != null ? replayNarrowFlat(trace) : replayWideFlat(trace);
        }

        // Two loops, char or int cells (a class of its own, so that the JIT's profile of these loops is
        // not shared with dfa-compact's). With the reset columns, calls and resets (events -1..columns-1) take the same
        // path: a class that depends only on the event, then one table load that depends on the
        // cursor; in that range (nr >> 31) is -1 only for the reset, so the mask adds this start's
        // reset column (whose cell is the start) and clears the frames: no branch to mispredict.

        private int replayNarrowFlat(int[] trace) {
            final char[] next = narrow;
            final int[] events = DfaNarrow.this.events;
            final int resetClass = this.resetClass;
            final int columns = DfaNarrow.this.columns;
            int cur = this.cur;
            int depth = this.depth;
            int rejected = 0;
            for (int nr : trace) {
                if (nr >= Trace.RESET && nr < columns) {
                    int reset = nr >> 31;
                    depth &= ~reset;
                    int d = next[cur + (events[nr + 1] + (reset & resetClass))];
                    if (d < NARROW_SPECIAL) {
                        cur = d;
                    } else if (d == (Machine.POP & 0xFFFF) && depth > 0) {
                        cur = frames[--depth];
                    } else {
                        rejected++;
                    }
                } else if (nr >= 0) {
                    rejected++;
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
            this.depth = depth;
            return rejected;
        }

        private int replayWideFlat(int[] trace) {
            final int[] next = wide;
            final int[] events = DfaNarrow.this.events;
            final int resetClass = this.resetClass;
            final int columns = DfaNarrow.this.columns;
            int cur = this.cur;
            int depth = this.depth;
            int rejected = 0;
            for (int nr : trace) {
                if (nr >= Trace.RESET && nr < columns) {
                    int reset = nr >> 31;
                    depth &= ~reset;
                    int d = next[cur + (events[nr + 1] + (reset & resetClass))];
                    if (d >= 0) {
                        cur = d;
                    } else if (d == Machine.POP && depth > 0) {
                        cur = frames[--depth];
                    } else {
                        rejected++;
                    }
                } else if (nr >= 0) {
                    rejected++;
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
            this.depth = depth;
            return rejected;
        }
    }
}
