package heimdall.lab.graph.prepared;

import heimdall.lab.BadInput;
import heimdall.lab.graph.Graph;
import java.util.List;

/**
 * What every layout does the same way around its cursor: its name, entries, signals and payload, the
 * cursor overloads with the default depth, the depth check and the thread-entry check. The cursor
 * itself, and with it the step and replay loops, stays in each layout's class: see {@link DfaTable}
 * for why.
 *
 * @param <C> the layout's own final cursor class, returned by every {@code cursor(...)} overload so that
 *     code that knows the layout (a JMH benchmark) calls a concrete, monomorphic {@code step}/{@code replay}
 */
abstract sealed class AbstractPrepared<C extends Cursor> implements Prepared permits DfaTable, ReferenceFollower {
    private final Layout layout;
    private final List<String> entries;
    private final List<String> signals;
    private final long payload;

    /**
     * @param entries entry names in the graph's order
     * @param signals the signal entries, in the order of their numbers
     * @param payload {@link #payloadBytes()}
     */
    AbstractPrepared(Layout layout, List<String> entries, List<String> signals, long payload) {
        this.layout = layout;
        this.entries = List.copyOf(entries);
        this.signals = List.copyOf(signals);
        this.payload = payload;
    }

    @Override
    public final Layout layout() {
        return layout;
    }

    @Override
    public final long payloadBytes() {
        return payload;
    }

    @Override
    public final List<String> entries() {
        return entries;
    }

    @Override
    public final List<String> signals() {
        return signals;
    }

    @Override
    public final C cursor(String entry) {
        return cursor(entry, DEFAULT_DEPTH);
    }

    @Override
    public final C unidentifiedCursor() {
        return unidentifiedCursor(DEFAULT_DEPTH);
    }

    @Override
    public final C cursor(String entry, int maxDepth) {
        checkDepth(maxDepth);
        return open(threadEntry(entry), maxDepth);
    }

    @Override
    public final C unidentifiedCursor(int maxDepth) {
        checkDepth(maxDepth);
        return openUnidentified(maxDepth);
    }

    /** A cursor at thread entry {@code entry} (its index in {@link #entries()}, checked to be a thread entry). */
    abstract C open(int entry, int maxDepth);

    /** A cursor at the union of every thread entry. */
    abstract C openUnidentified(int maxDepth);

    /**
     * The index of {@code entry} in {@link #entries()}.
     *
     * @throws BadInput for an unknown entry or a signal entry (signals are entered only by delivery)
     */
    private int threadEntry(String entry) {
        int e = entries.indexOf(entry);
        if (e < 0) {
            throw new BadInput("entry '" + entry + "': not an entry of this graph (entries: " + entries + ")");
        }
        if (Graph.isSignal(entry)) {
            throw new BadInput(
                    "entry '" + entry + "': a signal entry is entered by delivery, not assigned to a thread");
        }
        return e;
    }

    static void checkDepth(int maxDepth) {
        if (maxDepth < 0 || maxDepth > 1 << 16) {
            throw new BadInput("cursor depth " + maxDepth + ": must be 0..65536 signal frames");
        }
    }
}
