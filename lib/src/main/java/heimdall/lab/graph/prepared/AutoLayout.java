package heimdall.lab.graph.prepared;

import heimdall.lab.graph.Graph;
import heimdall.lab.graph.Trace;
import heimdall.lab.graph.Traces;
import heimdall.lab.graph.machine.Machine;
import java.util.Arrays;
import java.util.Locale;

/**
 * The layout {@code auto} picks for a graph, and why in one line.
 *
 * <p>Every DFA layout's step is one dependent load ({@code next[row + column]}); {@code dfa-compact}'s
 * {@code classOf[nr]} load depends only on the event, so it is off the dependent chain. What separates
 * the layouts (see {@link DfaLayouts} for the measurements):
 * <ul>
 *   <li>where the rows live: a row that misses L1 adds the L2 latency to the chain, so always the
 *       minimized machine (same decisions, never more states) with column classes, and 2-byte cells
 *       ({@code dfa-min-narrow}) when 4-byte cells exceed L1d and 2-byte cells fit it (a recorded
 *       python3 graph, 465 minimized states: 85 KB in 4-byte cells, 44 KB in 2-byte cells, against a
 *       48 KB L1d; the two measured within noise of each other, 1.7–2.3 ns, on a busy host);
 *       {@code dfa-min-offsets} only when classes save nothing and its table fits half of L1d;
 *   <li>how often walks end: a reset taken by a branch is mispredicted when walks end every few calls
 *       at irregular points, so when a uniform walk of the graph resets on at least
 *       {@link #RESET_RATE} of its events, {@code dfa-min-narrow} (reset columns) takes resets as
 *       table loads; below that {@code dfa-min-compact}'s branch is cheaper (a predicted reset also
 *       breaks the dependent chain, and the branch-free loop costs a little on every event).
 * </ul>
 *
 * @param layout the chosen layout
 * @param reason one line: sizes, classes, reset rate and the cache figures used
 */
public record AutoLayout(Layout layout, String reason) {
    /** Resets per event of a uniform walk above which the branch-free reset pays (abcdf: 16%, broker: 1–7%). */
    public static final double RESET_RATE = 0.10;

    /** Events of the uniform walk per thread entry that estimates the reset rate. */
    static final int WALK = 20_000;

    /** Chooses for graph {@code g}, whose minimized machine is {@code min}, on a host with {@code caches}. */
    public static AutoLayout choose(Graph g, Machine min, CacheSizes caches) {
        int columns = DfaLayouts.columns(min);
        int classes = Arrays.stream(DfaLayouts.classes(min, columns)).max().orElse(0) + 1;
        long offsets = (long) min.states() * columns * 4;
        long compact = DfaLayouts.compactPayload(min.states(), columns, classes, false, false);
        boolean fits = DfaNarrow.narrowFits((long) min.states() * DfaLayouts.compactStride(min, classes, true));
        long narrow = DfaLayouts.compactPayload(
                min.states(), columns, DfaLayouts.compactStride(min, classes, true), true, true);
        double resets = resetRate(g);
        long half = caches.l1d() / 2;
        Layout pick;
        String why;
        if (classes >= columns && offsets <= half) {
            pick = Layout.DFA_MIN_OFFSETS;
            why = "no column classes to share and the offsets table fits half of L1d";
        } else if (fits && resets >= RESET_RATE) {
            pick = Layout.DFA_MIN_NARROW;
            why = String.format(
                    Locale.ROOT,
                    "walks reset on %.1f%% of events (>= %.0f%%): resets as table loads, not branches",
                    100 * resets,
                    100 * RESET_RATE);
        } else if (fits && compact > caches.l1d() && narrow <= caches.l1d()) {
            pick = Layout.DFA_MIN_NARROW;
            why = "4-byte cells exceed L1d, 2-byte cells fit it";
        } else {
            pick = Layout.DFA_MIN_COMPACT;
            why = String.format(
                    Locale.ROOT,
                    "%s; walks reset on %.1f%% of events (< %.0f%%): a reset branch is cheaper",
                    compact <= caches.l1d() ? "4-byte cells fit L1d" : "2-byte cells would not fit L1d either",
                    100 * resets,
                    100 * RESET_RATE);
        }
        return new AutoLayout(
                pick,
                String.format(
                        Locale.ROOT,
                        "auto: %s (%d minimized states, %d column classes of %d columns; offsets %,d B, compact %,d "
                                + "B, narrow %,d B; "
                                + "%s; %s from %s)",
                        pick,
                        min.states(),
                        classes,
                        columns,
                        offsets,
                        compact,
                        narrow,
                        why,
                        caches,
                        caches.source()));
    }

    /** {@link #choose} with the host's caches from sysfs. */
    public static AutoLayout choose(Graph g, Machine min) {
        return choose(g, min, CacheSizes.read());
    }

    /** The largest share of reset events among uniform walks ({@link Traces}, no noise) from each thread entry. */
    static double resetRate(Graph g) {
        double worst = 0;
        for (String entry : g.threadEntries()) {
            int[] walk = Traces.walk(g, Traces.Spec.of(entry, WALK, 0x5e7L));
            long resets = Arrays.stream(walk).filter(e -> e == Trace.RESET).count();
            worst = Math.max(worst, walk.length == 0 ? 0 : (double) resets / walk.length);
        }
        return worst;
    }
}
