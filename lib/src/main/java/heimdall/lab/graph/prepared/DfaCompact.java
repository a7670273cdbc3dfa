package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Trace;
import heimdall.lab.graph.machine.Machine;
import java.util.List;

/**
 * The {@code dfa-compact} table format (see {@link DfaLayouts} for the cell format): the cursor holds a row offset ({@code state * classes}) and a step maps the syscall to its column class first, {@code next[row + classOf[nr]]}.
 */
public final class DfaCompact implements Prepared {
    private final Layout layout;
    private final int[] next;
    private final int columns;
    private final int[] classOf;
    private final int classes;
    private final DfaLayouts.Starts starts;
    private final long payload;

    DfaCompact(Layout layout, int[] next, int[] classOf, int classes, DfaLayouts.Starts starts, long payload) {
        this.layout = layout;
        this.next = next;
        this.classOf = classOf;
        this.classes = classes;
        this.columns = classOf.length;
        this.starts = starts;
        this.payload = payload;
    }

    /** Raw syscall numbers a row covers ({@code 0..columns-1}); other numbers are denied. */
    public int columns() {
        return columns;
    }

    /** Column classes per row (class 0 is the all-deny column). */
    public int classes() {
        return classes;
    }

    @Override
    public Layout layout() {
        return layout;
    }

    @Override
    public long payloadBytes() {
        return payload;
    }

    @Override
    public List<String> entries() {
        return starts.entries();
    }

    @Override
    public List<String> signals() {
        return starts.signals();
    }

    @Override
    public Cursor cursor(String entry) {
        return cursor(entry, DEFAULT_DEPTH);
    }

    @Override
    public Cursor unidentifiedCursor() {
        return unidentifiedCursor(DEFAULT_DEPTH);
    }

    @Override
    public Cursor cursor(String entry, int maxDepth) {
        DfaLayouts.checkDepth(maxDepth);
        return new Cursor(starts.threadStart(entry), maxDepth);
    }

    @Override
    public Cursor unidentifiedCursor(int maxDepth) {
        DfaLayouts.checkDepth(maxDepth);
        return new Cursor(starts.unionStart(), maxDepth);
    }

    /** A thread's cursor over this table: the current frame's int and a fixed array of saved frames. */
    public final class Cursor implements heimdall.lab.graph.prepared.Cursor {
        private final int start;
        private final int[] frames;
        private final int[] signalStart = starts.signalStart();
        private int cur;
        private int depth;

        Cursor(int start, int maxDepth) {
            this.start = start;
            this.frames = new int[maxDepth];
            this.cur = start;
        }

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
        public boolean deliver(int signal) {
            if (signal < 0 || signal >= signalStart.length || depth == frames.length) {
                return false;
            }
            frames[depth++] = cur;
            cur = signalStart[signal];
            return true;
        }

        @Override
        public void reset() {
            cur = start;
            depth = 0;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public int state() {
            return cur / classes;
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
