package heimdall.lab.graph.prepared;

import java.util.List;

/** The prepared layouts, by their names in results and on the command line. */
public enum Layout {
    /** The reference follower: hash maps, a vector of positions, event dispatch. */
    HASH("hash", false),
    /**
     * The same reference follower over an off-the-shelf primitive map (fastutil's
     * {@code Long2IntOpenHashMap}) instead of its own: the honest hash baseline.
     */
    HASH_FASTUTIL("hash-fastutil", false),
    /** 4-byte destinations indexed by {@code state * columns + nr}. */
    DFA_WORDS("dfa-words", false),
    /** Row offsets precomputed: the cursor holds {@code state * columns}, a step is one load plus an add. */
    DFA_OFFSETS("dfa-offsets", false),
    /** Syscall columns mapped to classes of identical columns. */
    DFA_COMPACT("dfa-compact", false),
    DFA_MIN_WORDS("dfa-min-words", true),
    DFA_MIN_OFFSETS("dfa-min-offsets", true),
    DFA_MIN_COMPACT("dfa-min-compact", true),
    /**
     * {@code dfa-min-compact} with 2-byte unsigned cells ({@code char}) when every row offset fits
     * ({@code states * stride <= 65534}), else 4-byte cells, plus one reset column per start so that
     * replay takes a reset as one more table load instead of a branch. For tables whose 4-byte form
     * does not fit L1d and for graphs whose walks end every few calls (where the reset branch is
     * mispredicted often).
     */
    DFA_MIN_NARROW("dfa-min-narrow", true);

    /**
     * The seven layouts of seed 002 ({@code hash} and the six {@code dfa-*}), what {@code ./lab graph info}
     * lists; {@code hash-fastutil} and {@code dfa-min-narrow} came with issue 15.
     */
    public static final List<Layout> SEED =
            List.of(HASH, DFA_WORDS, DFA_OFFSETS, DFA_COMPACT, DFA_MIN_WORDS, DFA_MIN_OFFSETS, DFA_MIN_COMPACT);

    private final String wire;
    private final boolean minimized;

    Layout(String wire, boolean minimized) {
        this.wire = wire;
        this.minimized = minimized;
    }

    /** The name, e.g. {@code dfa-min-offsets}. */
    public String wire() {
        return wire;
    }

    /** Whether the cells may be 2 bytes ({@link #DFA_MIN_NARROW}). */
    public boolean narrow() {
        return this == DFA_MIN_NARROW;
    }

    /** Whether the table has reset columns ({@link #DFA_MIN_NARROW}). */
    public boolean resetColumns() {
        return this == DFA_MIN_NARROW;
    }

    /** Whether the layout is built over the minimized machine. */
    public boolean minimized() {
        return minimized;
    }

    /** Whether this is a reference follower over hash maps (no machine, no tables). */
    public boolean reference() {
        return this == HASH || this == HASH_FASTUTIL;
    }

    /** The layout named {@code name}, or null. */
    public static Layout parse(String name) {
        for (Layout l : values()) {
            if (l.wire.equals(name)) {
                return l;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return wire;
    }
}
