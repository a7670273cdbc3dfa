package heimdall.lab.graph.prepared;

import heimdall.lab.Refusal;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.machine.Machine;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the dense layouts of a {@link Machine}. The table formats, all immutable arrays
 * ({@code int[]}, or {@code short[]} for {@code dfa-min-narrow}) shared by every cursor:
 *
 * <pre>
 * Common
 *   columns   = machine.maxLabel() + 1 (at least 1): the raw syscall numbers a row covers.
 *               A call nr outside 0..columns-1 is denied before any load.
 *   A cell holds a destination, or DENY (-1: the call is not allowed; the cursor stays),
 *   or POP (-2: an allowed rt_sigreturn ending a signal frame; the cursor returns to the
 *   interrupted frame's saved int). Destinations are >= 0, so one sign test separates the
 *   ordinary step from both rare cases.
 *   The cursor holds the current frame's int in a field and the interrupted frames' ints in a
 *   fixed int[maxDepth]; a delivery saves the current int and loads the signal entry's start.
 *
 * dfa-words   (DfaWords)
 *   next[state * columns + nr] = destination STATE id.
 *   The cursor holds the state id; a step multiplies: d = next[s * columns + nr].
 *   payload = states * columns * 4 bytes.
 *
 * dfa-offsets (DfaOffsets)
 *   next[row + nr] = destination ROW OFFSET (destination state * columns).
 *   The cursor holds the row offset, so a step is one load plus an add, no multiply:
 *   d = next[row + nr]. Starts are stored as row offsets too. Cells are 4 bytes (the legacy
 *   Rust layout kept 8); states * columns must fit in an int, which the payload budget implies.
 *   payload = states * columns * 4 bytes.
 *
 * dfa-compact (DfaCompact)
 *   classOf[nr] = column class of syscall nr, for nr in 0..columns-1. Syscalls whose column is
 *   the same in every state share a class; class 0 is the all-DENY column (calls no state allows).
 *   next[row + classOf[nr]] = destination row offset (destination state * stride), stride = k.
 *   A step is two loads, only the second on the cursor's dependent chain:
 *   d = next[row + classOf[nr]] (classOf[nr] depends on the event alone).
 *   payload = states * k * 4 + columns * 4 bytes.
 *
 * dfa-min-narrow (DfaNarrow, over the minimized machine)
 *   dfa-min-compact plus reset columns after the k classes, one per thread entry and one for
 *   the union start: every row's cell there is that start; stride = k + thread entries + 1.
 *   Cells are 2 bytes unsigned (char) when states * stride <= 65,534, so every row offset fits
 *   below the two special values DENY = 0xFFFF and POP = 0xFFFE; else 4 bytes as above.
 *   The class map is stored shifted by one (events[nr + 1], slot 0 = 0) so that replay maps the
 *   reset (-1) too: the cursor adds its start's reset column under the mask (nr >> 31) and
 *   clears its frames with the same mask, so a reset is one more table load, not a branch.
 *   payload = states * stride * (2 or 4) + (columns + 1) * 4.
 *
 * dfa-min-*   the same formats over Minimizer.minimize(machine).
 * </pre>
 *
 * <p>What the lookup costs, and what got it to the L1 bound (issue 15). A replayed event is a
 * dependent chain: the next cell's address needs the current cell's value, so one event costs at
 * least one L1 load latency plus the add (about 5 cycles, some 1.5 ns on the 2.6 GHz EPYC here);
 * everything that depends only on the event (the trace load, the range test, {@code classOf[nr]},
 * the bounds checks) overlaps with it. What adds to that chain, and what was done about it
 * (medians of 21 interleaved rounds of 100,000 events, by an earlier timed AutoLayoutTest whose
 * comparison is now bench-jmh's LayoutsBenchmark, on this 2-CPU host shared with other builds, load
 * average 7–20; the figures move by 10–20% from run to run):
 * <ul>
 *   <li><b>Rows beyond L1.</b> A row that misses L1 adds the L2 latency (about 14 cycles). Column
 *       classes shrink a recorded table about 10× (broker: 42 classes for 439 columns, 18 KB instead
 *       of 169 KB; python3: 45 for 440) and minimizing removes states: dfa-min-compact is the best
 *       or within noise of the best on every graph measured (broker 1.33, sort 1.27, tar 1.41,
 *       synthetic hot 1.48–1.52, python3 ~450 minimized states 1.75–2.06, where dfa-offsets ran
 *       2.3–2.8 and dfa-words 3.0–3.8). dfa-offsets is no faster where both fit L1 (the class load
 *       is off the chain); dfa-words pays a multiply on the chain (about 0.5–0.7 ns more).
 *   <li><b>Mispredicted resets.</b> Small graphs end a walk every few events at irregular points
 *       (abcdf: 16% of events are resets), and a reset taken by a branch is then mispredicted often:
 *       abcdf ran at 1.9–2.2 ns with every layout. dfa-min-narrow's reset columns take a reset as one
 *       more table load: abcdf 1.48–1.50. Where resets are rare or regular (broker 1–7%, recorded
 *       programs under 2%), the branch is cheaper (a predicted reset also breaks the chain, and the
 *       branch-free loop costs 0.2–0.6 ns on every event), so {@link AutoLayout} picks it only when a
 *       uniform walk resets on at least 10% of its events.
 *   <li><b>Cell width.</b> 2-byte cells halve the table; an early version with sign-extending
 *       {@code short} cells cost about one cycle more per event, unsigned {@code char} cells do not.
 *       On python3 (465 minimized states) the 4-byte table is 85 KB, over the 48 KB L1d, and the
 *       2-byte one 44 KB: dfa-min-narrow 1.66–2.0 against dfa-min-compact 1.75–2.34 in different
 *       runs (the walks stay in part of the table, so the gap is small and noisy); auto uses 2-byte
 *       cells for size when 4-byte cells exceed L1d and 2-byte cells fit it.
 * </ul>
 *
 * <p>Budget: before allocating, each layout's payload is checked against a limit (default
 * {@link #DEFAULT_LIMIT}, 256 MiB); over it, preparation is refused with the figure. The limit is a
 * resource bound, not a cache-size target.
 */
public final class DfaLayouts {
    private DfaLayouts() {}

    /** The default preparation payload budget: 256 MiB. */
    public static final long DEFAULT_LIMIT = 256L << 20;

    /** Builds {@code layout} (any but {@link Layout#HASH}) over {@code machine} under {@code limitBytes}. */
    public static Prepared prepare(Layout layout, Machine machine, long limitBytes) {
        return switch (layout) {
            case DFA_MIN_NARROW -> narrow(layout, machine, limitBytes);
            case DFA_WORDS, DFA_MIN_WORDS -> words(layout, machine, limitBytes);
            case DFA_OFFSETS, DFA_MIN_OFFSETS -> offsets(layout, machine, limitBytes);
            case DFA_COMPACT, DFA_MIN_COMPACT -> compact(layout, machine, limitBytes);
            case HASH, HASH_FASTUTIL ->
                throw new IllegalArgumentException("the hash layout is built from the graph: ReferenceFollower.of");
        };
    }

    static int columns(Machine m) {
        return Math.max(1, m.maxLabel() + 1);
    }

    static void checkBudget(Layout layout, long payload, long cells, long limit, Machine m) {
        if (payload > limit) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "preparation payload budget exceeded: %s needs %,d bytes for %,d states " + "(budget %,d bytes)",
                    layout,
                    payload,
                    m.states(),
                    limit));
        }
        if (cells > Integer.MAX_VALUE) {
            throw new Refusal(
                    String.format(Locale.ROOT, "%s: %,d cells do not fit an int-indexed table", layout, cells));
        }
    }

    /** Dense destinations (state ids when {@code scale} is 1, row offsets otherwise) over {@code cols} columns. */
    static int[] dense(Machine m, int cols, int[] columnOf, int scale) {
        int[] next = new int[m.states() * cols];
        Arrays.fill(next, Machine.DENY);
        for (int s = 0; s < m.states(); s++) {
            int row = s * cols;
            for (int i = m.rowStart(s); i < m.rowEnd(s); i++) {
                int d = m.targetAt(i);
                next[row + columnOf[m.label(i)]] = d < 0 ? d : d * scale;
            }
        }
        return next;
    }

    static DfaWords words(Layout layout, Machine m, long limit) {
        int cols = columns(m);
        return new DfaWords(layout, rawTable(layout, m, limit, 1), cols, Starts.of(m, 1), rawPayload(m));
    }

    static DfaOffsets offsets(Layout layout, Machine m, long limit) {
        int cols = columns(m);
        return new DfaOffsets(layout, rawTable(layout, m, limit, cols), cols, Starts.of(m, cols), rawPayload(m));
    }

    /**
     * The cells of {@code dfa-words} ({@code scale} 1: state ids) or {@code dfa-offsets} ({@code scale} =
     * columns: row offsets), one column per raw syscall number, once the budget admits them.
     */
    private static int[] rawTable(Layout layout, Machine m, long limit, int scale) {
        int cols = columns(m);
        long cells = (long) m.states() * cols;
        checkBudget(layout, rawPayload(m), cells, limit, m);
        int[] identity = new int[cols];
        Arrays.setAll(identity, i -> i);
        return dense(m, cols, identity, scale);
    }

    /** The payload of a raw-column table: 4 bytes a cell. */
    private static long rawPayload(Machine m) {
        return (long) m.states() * columns(m) * 4;
    }

    static DfaCompact compact(Layout layout, Machine m, long limit) {
        int cols = columns(m);
        int[] classOf = classes(m, cols);
        int classes = Arrays.stream(classOf).max().orElse(0) + 1;
        long cells = (long) m.states() * classes;
        long payload = cells * 4 + (long) cols * 4;
        checkBudget(layout, payload, cells, limit, m);
        return new DfaCompact(
                layout, dense(m, classes, classOf, classes), classOf, classes, Starts.of(m, classes), payload);
    }

    static DfaNarrow narrow(Layout layout, Machine m, long limit) {
        int cols = columns(m);
        int[] classOf = classes(m, cols);
        int classes = Arrays.stream(classOf).max().orElse(0) + 1;
        // One reset column per start a cursor can have: each thread entry, then the union.
        List<String> entries = m.entries();
        int[] resetClass = new int[entries.size()];
        int stride = classes;
        for (int e = 0; e < entries.size() && layout.resetColumns(); e++) {
            resetClass[e] = Graph.isSignal(entries.get(e)) ? -1 : stride++;
        }
        int unionClass = layout.resetColumns() ? stride++ : -1;
        long cells = (long) m.states() * stride;
        long payload = compactPayload(m.states(), cols, stride, layout.narrow(), layout.resetColumns());
        checkBudget(layout, payload, cells, limit, m);
        int[] next = dense(m, stride, classOf, stride);
        Starts st = Starts.of(m, stride);
        for (int e = 0; e < entries.size() && layout.resetColumns(); e++) {
            if (resetClass[e] >= 0) {
                fillResetColumn(next, m.states(), stride, resetClass[e], st.entryStart()[e]);
            }
        }
        if (layout.resetColumns()) {
            fillResetColumn(next, m.states(), stride, unionClass, st.unionStart());
        }
        return new DfaNarrow(layout, next, classOf, classes, stride, st, resetClass, unionClass, payload);
    }

    /**
     * {@code dfa-compact}'s payload: cells of 2 or 4 bytes and the class map ({@code columns} ints, or
     * {@code columns + 1} with reset columns, whose map is shifted by one to take the reset).
     */
    static long compactPayload(int states, int cols, int stride, boolean narrow, boolean resetColumns) {
        long cells = (long) states * stride;
        return cells * (narrow && DfaNarrow.narrowFits(cells) ? 2 : 4) + (long) (cols + (resetColumns ? 1 : 0)) * 4;
    }

    /**
     * Cells per row of {@code dfa-compact} over {@code m}: the classes, and with reset columns one per thread entry and
     * the union's.
     */
    static int compactStride(Machine m, int classes, boolean resetColumns) {
        return classes
                + (resetColumns
                        ? (int) m.entries().stream()
                                        .filter(e -> !Graph.isSignal(e))
                                        .count()
                                + 1
                        : 0);
    }

    /** Every row's cell in column {@code column} is {@code start}: a reset goes there from anywhere. */
    private static void fillResetColumn(int[] next, int states, int stride, int column, int start) {
        for (int s = 0; s < states; s++) {
            next[s * stride + column] = start;
        }
    }

    /**
     * Column classes: syscalls with the same destination in every state share a class. Refined state
     * by state over the labels of each row only, so the cost is linear in transitions.
     */
    static int[] classes(Machine m, int cols) {
        int[] cls = new int[cols];
        int[] alphabet = m.alphabet();
        if (alphabet.length == 0) {
            return cls;
        }
        int fresh = 1;
        for (int l : alphabet) {
            cls[l] = 1;
        }
        fresh = 2;
        Map<Long, Integer> split = new HashMap<>();
        for (int s = 0; s < m.states(); s++) {
            split.clear();
            for (int i = m.rowStart(s); i < m.rowEnd(s); i++) {
                int l = m.label(i);
                long key = ((long) cls[l] << 32) | (m.targetAt(i) & 0xFFFF_FFFFL);
                Integer c = split.get(key);
                if (c == null) {
                    c = fresh++;
                    split.put(key, c);
                }
                cls[l] = c;
            }
        }
        // Renumber 1..k in order of first syscall; 0 stays the all-deny class.
        Map<Integer, Integer> renumber = new HashMap<>();
        int[] out = new int[cols];
        for (int l : alphabet) {
            out[l] = renumber.computeIfAbsent(cls[l], k -> renumber.size() + 1);
        }
        return out;
    }

    /** Start values of a machine scaled to what a layout's cursor holds (state ids or row offsets). */
    record Starts(List<String> entries, List<String> signals, int[] entryStart, int unionStart, int[] signalStart) {
        static Starts of(Machine m, int scale) {
            int[] es = new int[m.entries().size()];
            for (int e = 0; e < es.length; e++) {
                es[e] = m.entryStart(e) * scale;
            }
            int[] ss = Arrays.stream(m.signalStarts()).map(s -> s * scale).toArray();
            return new Starts(m.entries(), m.signals(), es, m.unionStart() * scale, ss);
        }
    }
}
