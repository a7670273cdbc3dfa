package heimdall.lab.bench;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;

/**
 * The kernel's notify loop ({@code native/lib/notify-loop.c}): the least a supervisor can do, as
 * {@code perf bench sched seccomp-notify} (Linux 6.6) describes it: receive a notification, answer it
 * CONTINUE, again; no policy, no lookup, no counter. A C thread of this process on a listener it owns,
 * placed as a supervisor would be; the floor of every brokered round trip in floor-cost.
 *
 * <p>Besides the child's per-call times, the loop times itself as the kernel's benchmark does: the
 * supervisor's clock from its receive of the first timed call to its answer of the last, over the
 * timed calls ({@link Result#wallNsPerCall()}).
 */
final class NotifyLoop implements AutoCloseable {
    private static final int ITERATIONS = 0;
    private static final int TIMED_NS = 1;
    private static final int TIMED = 2;
    private static final int ERRNO = 3;
    private static final int CPU = 4;
    private static final int NOUT = 5;

    private static final String LOAD_PROBLEM;

    static {
        String problem = null;
        try {
            Native.register(
                    NotifyLoop.class,
                    NativeLibrary.getInstance(NativeLib.file("libheimdall.so").toString()));
        } catch (RuntimeException | LinkageError e) {
            problem = "libheimdall.so could not be loaded: " + e.getMessage();
        }
        LOAD_PROBLEM = problem;
    }

    private static native long hl_kloop_start(int listener, int cpu, long cpuSet, int sync, long warmup, long count);

    private static native int hl_kloop_stop(long handle, long[] out, int n);

    /**
     * What a loop did.
     *
     * @param iterations notifications answered
     * @param wallNsPerCall the supervisor's clock over the timed calls, divided by their number (the kernel
     *     benchmark's figure), or -1 when the loop did not answer every timed call
     * @param cpu the CPU it was pinned to, -1 on a set
     */
    record Result(long iterations, double wallNsPerCall, int cpu) {}

    private long handle;
    private Result result;

    private NotifyLoop(long handle) {
        this.handle = handle;
    }

    /**
     * Starts the loop on {@code listener} (owned by the loop from here on; after a failed start it stays
     * the caller's), pinned to {@code cpu} or, with -1, free on {@code cpuSet} (0: where it starts).
     *
     * @param warmup the calls the child makes before timing
     * @param count the timed calls
     * @throws Refusal when the library is missing, the synchronous wake-up is unsupported (Linux 6.6) or
     *     the CPU cannot be granted
     */
    static NotifyLoop start(int listener, int cpu, long cpuSet, boolean sync, long warmup, long count) {
        if (LOAD_PROBLEM != null) {
            throw new Refusal(LOAD_PROBLEM);
        }
        long h = hl_kloop_start(listener, cpu, cpuSet, sync ? 1 : 0, warmup, count);
        if (h < 0) {
            int e = (int) -h;
            if (sync && e == Errno.EINVAL) {
                throw new Refusal("the kernel's notify loop: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP is not supported "
                        + "(Linux 6.6 added it)");
            }
            throw new Refusal("the kernel's notify loop could not start (CPU " + cpu + ", set 0x"
                    + Long.toHexString(cpuSet) + "): " + Errno.name(e));
        }
        return new NotifyLoop(h);
    }

    /** Stops the loop, closes its listener and returns what it did (idempotent). */
    Result stop() {
        if (handle != 0) {
            long[] out = new long[NOUT];
            hl_kloop_stop(handle, out, NOUT);
            handle = 0;
            if (out[ERRNO] != 0) {
                throw new Refusal("the kernel's notify loop ended early: " + Errno.name((int) out[ERRNO]));
            }
            double wall = out[TIMED] > 0 ? (double) out[TIMED_NS] / out[TIMED] : -1;
            result = new Result(out[ITERATIONS], wall, (int) out[CPU]);
        }
        return result;
    }

    @Override
    public void close() {
        stop();
    }
}
