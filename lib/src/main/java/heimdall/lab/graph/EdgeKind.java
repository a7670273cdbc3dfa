package heimdall.lab.graph;

/** The two kinds of edge in an executable syscall projection. */
public enum EdgeKind {
    /** An ordinary succession: the destination's call may follow the source's. */
    NEXT("next"),
    /**
     * Taken only when the call repeats the last call and no {@code next} successor carries it (a
     * loop around one call site, e.g. a partial write retried).
     */
    AGAIN("again");

    private final String wire;

    EdgeKind(String wire) {
        this.wire = wire;
    }

    /** The spelling in the {@code kind} column. */
    public String wire() {
        return wire;
    }

    /** The kind spelled {@code text}, or null when it is neither {@code next} nor {@code again}. */
    public static EdgeKind parse(String text) {
        for (EdgeKind k : values()) {
            if (k.wire.equals(text)) {
                return k;
            }
        }
        return null;
    }
}
