package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Graph;
import java.util.List;

/**
 * Immutable tables of one layout, shared by any number of threads; each thread takes its own
 * {@link Cursor}. Every layout gives the same decisions as the reference follower ({@link Layout#HASH}).
 *
 * <p>The implementations ({@link DfaWords}, {@link DfaOffsets}, {@link DfaCompact}, {@link DfaNarrow},
 * {@link ReferenceFollower}) return their own final cursor class from {@code cursor(...)}, so code that
 * knows the layout (a JMH benchmark) can call a concrete, monomorphic {@code step}/{@code replay}.
 */
public interface Prepared {
    /** Signal frames a cursor can hold unless told otherwise. */
    int DEFAULT_DEPTH = Cursor.DEFAULT_DEPTH;

    /** {@link #payloadBytes()} of a layout whose memory is not measured (the hash follower). */
    long UNMEASURED = -1;

    Layout layout();

    /**
     * The graph prepared in the layout {@link AutoLayout} picks for it on this host (compile, minimize,
     * then that one table under the default budgets); {@link AutoLayout#reason} is reported by
     * {@link PreparedGraph#auto()}.
     *
     * @throws heimdall.lab.Refusal when the compile or the table exceeds its budget
     */
    static Prepared auto(Graph g) {
        PreparedGraph pg =
                PreparedGraph.prepare(g, PreparedGraph.Options.defaults().withLayouts(List.of()));
        return DfaLayouts.prepare(pg.auto().layout(), pg.minimized(), DfaLayouts.DEFAULT_LIMIT);
    }

    /**
     * Bytes of the transition tables themselves (and the class map of {@code dfa-compact}), excluding
     * metadata (start states), object headers and preparation's temporary allocations; or
     * {@link #UNMEASURED}.
     */
    long payloadBytes();

    /** Entry names (thread roles and signal entries) in the graph's order. */
    List<String> entries();

    /** Signal entries; a signal's number is its position here. */
    List<String> signals();

    /** A cursor for a thread with a trusted assignment to a thread entry, with {@link Cursor#DEFAULT_DEPTH}. */
    default Cursor cursor(String entry) {
        return cursor(entry, Cursor.DEFAULT_DEPTH);
    }

    /**
     * A cursor starting at a thread entry.
     *
     * @throws heimdall.lab.BadInput for an unknown entry or a signal entry (signals are entered only by
     *     delivery)
     */
    Cursor cursor(String entry, int maxDepth);

    /** A cursor for an unidentified child: the union of every thread entry. */
    default Cursor unidentifiedCursor() {
        return unidentifiedCursor(Cursor.DEFAULT_DEPTH);
    }

    Cursor unidentifiedCursor(int maxDepth);
}
