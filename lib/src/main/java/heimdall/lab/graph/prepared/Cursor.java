package heimdall.lab.graph.prepared;

/**
 * One thread's position in a prepared graph: the current frame and the interrupted frames below it
 * (one per open signal handler). Owned by one thread; not thread-safe, and needs no lock because the
 * tables it reads are immutable. On the DFA layouts a frame is one int and no method allocates.
 *
 * <p>Bounded depth: at most {@code maxDepth} signal frames can be open. A delivery beyond that is
 * refused ({@link #deliver} returns false, the cursor is unchanged): the follower never grows without
 * bound and never forgets a frame to make room. An embedding runtime should treat that refusal like a
 * denied call.
 */
public interface Cursor {
    /** Signal frames a cursor can hold unless told otherwise. */
    int DEFAULT_DEPTH = 8;

    /**
     * Judges syscall {@code nr} in the current frame. Allowed: the frame moves (or, for an allowed
     * {@code rt_sigreturn} in a signal frame, is popped) and true is returned. Denied: false, and the
     * cursor is exactly where it was.
     */
    boolean step(int nr);

    /**
     * Delivers signal number {@code signal} (its position in the graph's signal entries): pushes a
     * frame at that entry's start. False, with the cursor unchanged, for an unknown signal or when
     * {@code maxDepth} frames are already open.
     */
    boolean deliver(int signal);

    /** Back to the start (the thread ended and a new one begins at the same entry). */
    void reset();

    /** Open signal frames (0 when none). */
    int depth();

    /**
     * The state of the current frame in the machine the layout was built from, or -1 for the hash
     * layout (whose frames are sets of positions).
     */
    int state();

    /**
     * Applies a trace (see {@link heimdall.lab.graph.Trace} for the encoding) and returns the rejection
     * count: denied calls plus refused deliveries. This is the loop benchmarks time.
     */
    int replay(int[] trace);
}
