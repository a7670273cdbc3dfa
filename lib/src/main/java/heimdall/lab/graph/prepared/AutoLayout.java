package heimdall.lab.graph.prepared;

import heimdall.lab.graph.machine.Machine;
import java.util.Locale;

/**
 * The layout {@code auto} picks for a graph, and why in one line.
 *
 * <p>Every DFA layout's step is one dependent load ({@code next[row + column]}); {@code dfa-compact}'s
 * extra {@code classOf[nr]} load depends only on the event, not on the cursor, so it is off the
 * dependent chain and costs an issue slot, not latency. What separates the layouts is where the
 * table lives: a row touched per event that misses L1 adds the L2 latency to the chain. So the rule:
 * always the minimized machine (same decisions, never more states); {@code dfa-min-offsets} only when
 * column classes save nothing and its table fits half of L1d; {@code dfa-min-narrow} (2-byte cells)
 * when the 4-byte compact table exceeds half of L1d and its row offsets fit a {@code short};
 * otherwise {@code dfa-min-compact}, since a sign-extending 2-byte load costs about one cycle more
 * on the chain when the table is in L1 anyway. See {@link DfaLayouts} for the measurements.
 *
 * @param layout the chosen layout
 * @param reason one line: sizes, classes and the cache figures used
 */
public record AutoLayout(Layout layout, String reason) {
    /** Chooses for the minimized machine {@code min} on a host with {@code caches}. */
    public static AutoLayout choose(Machine min, CacheSizes caches) {
        int columns = DfaLayouts.columns(min);
        int classes = java.util.Arrays.stream(DfaLayouts.classes(min, columns)).max().orElse(0) + 1;
        int stride = DfaLayouts.compactStride(min, classes);
        long offsets = (long) min.states() * columns * 4;
        long compact = DfaLayouts.compactPayload(min.states(), columns, classes, stride, false);
        long narrow = DfaLayouts.compactPayload(min.states(), columns, classes, stride, true);
        long half = caches.l1d() / 2;
        Layout pick;
        String why;
        if (classes >= columns && offsets <= half) {
            pick = Layout.DFA_MIN_OFFSETS;
            why = "no column classes to share and the offsets table fits half of L1d";
        } else if (compact > half && narrow < compact) {
            pick = Layout.DFA_MIN_NARROW;
            why = String.format(Locale.ROOT, "4-byte cells exceed half of L1d, 2-byte cells %s", narrow <= half ? "fit it" : "halve the misses");
        } else {
            pick = Layout.DFA_MIN_COMPACT;
            why = compact <= half ? "the compact table fits half of L1d, so 4-byte cells (a short load costs a cycle more)"
                    : "row offsets do not fit 2-byte cells";
        }
        return new AutoLayout(pick, String.format(Locale.ROOT,
                "auto: %s (%d minimized states, %d column classes of %d columns; offsets %,d B, compact %,d B, narrow %,d B; "
                        + "%s; %s from %s)",
                pick, min.states(), classes, columns, offsets, compact, narrow, why, caches, caches.source()));
    }

    /** {@link #choose} with the host's caches from sysfs. */
    public static AutoLayout choose(Machine min) {
        return choose(min, CacheSizes.read());
    }
}
