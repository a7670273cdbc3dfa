package heimdall.lab.graph;

/**
 * The event encoding of a trace ({@code int[]}), shared by every cursor's {@code replay} and by
 * {@link Traces}:
 *
 * <ul>
 *   <li>{@code nr >= 0}: the thread makes syscall {@code nr} (any value; numbers beyond the tables'
 *       columns are denied);
 *   <li>{@link #RESET} ({@code -1}): the thread ended on a terminal path and a new one starts at the
 *       same entry; the cursor returns to its start with no signal frame open;
 *   <li>{@code -2 - k} ({@link #signal(int)}): signal number {@code k} (its position in
 *       {@link Graph#signalEntries()}) is delivered: a frame is pushed at that entry's start.
 * </ul>
 *
 * A signal frame ends with an allowed {@code rt_sigreturn} (15), which appears as an ordinary call.
 */
public final class Trace {
    private Trace() {}

    public static final int RESET = -1;

    /** The event delivering signal number {@code k}. */
    public static int signal(int k) {
        if (k < 0) {
            throw new IllegalArgumentException("signal number " + k);
        }
        return -2 - k;
    }

    public static boolean isSignal(int event) {
        return event <= -2;
    }

    /** The signal number of a delivery event. */
    public static int signalOf(int event) {
        return -2 - event;
    }
}
