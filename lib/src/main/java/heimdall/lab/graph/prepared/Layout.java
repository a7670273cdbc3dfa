package heimdall.lab.graph.prepared;

/** The prepared layouts, by their names in results and on the command line. */
public enum Layout {
    /** The reference follower: hash maps, a vector of positions, event dispatch. */
    HASH("hash", false),
    /** 4-byte destinations indexed by {@code state * columns + nr}. */
    DFA_WORDS("dfa-words", false),
    /** Row offsets precomputed: the cursor holds {@code state * columns}, a step is one load plus an add. */
    DFA_OFFSETS("dfa-offsets", false),
    /** Syscall columns mapped to classes of identical columns. */
    DFA_COMPACT("dfa-compact", false),
    DFA_MIN_WORDS("dfa-min-words", true),
    DFA_MIN_OFFSETS("dfa-min-offsets", true),
    DFA_MIN_COMPACT("dfa-min-compact", true);

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

    /** Whether the layout is built over the minimized machine. */
    public boolean minimized() {
        return minimized;
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
