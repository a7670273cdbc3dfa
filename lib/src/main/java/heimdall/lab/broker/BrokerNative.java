package heimdall.lab.broker;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;

/**
 * The broker's entry points in {@code libheimdall.so} (see {@code native/include/hl_broker.h}), bound
 * with JNA's direct mapping: primitive arguments only, so a call allocates nothing on the Java heap.
 * Buffer arguments are native addresses (of direct {@link java.nio.ByteBuffer}s).
 */
final class BrokerNative {
    static final int ANSWER_CONTINUE = 0;
    static final int ANSWER_BROKER = 1;
    static final int ANSWER_ERROR = 2;
    static final int ANSWER_VALUE = 3;

    static final int C_RECEIVED = 0;
    static final int C_CONTINUED = 1;
    static final int C_BROKERED = 2;
    static final int C_ERRORED = 3;
    static final int C_VALUED = 4;
    static final int C_REFUSED = 5;
    static final int C_GONE = 6;
    static final int C_FAILURES = 7;
    static final int C_CPU = 8;
    static final int C_ENDED = 9;
    static final int C_HELD = 10;
    static final int C_LAST_ERRNO = 11;
    static final int C_STALLED = 12;
    static final int C_TIMED_OUT = 13;
    static final int NCOUNTERS = 14;

    static final int SUP_SYNC_WAKEUP = 1;
    static final int SUP_POLL_WAIT = 2;
    static final long SYNC_WAKE_UP_FLAG = 1;

    static final int RECV_STOPPED = 1;
    static final int RECV_HUNGUP = 2;

    static final int N_ID = 0;
    static final int N_PID = 1;
    static final int N_NR = 2;
    static final int N_ARCH = 3;
    static final int N_IP = 4;
    static final int N_ARG0 = 5;
    static final int N_F_MODE = 11;
    static final int N_F_NLINK = 12;
    static final int N_F_SIZE = 13;
    static final int N_F_DEV = 14;
    static final int N_F_INO = 15;
    static final int N_PATH_LEN = 16;
    static final int N_CALL_KIND = 17;
    static final int N_CALL_FLAGS = 18;
    static final int N_CALL_MODE = 19;
    static final int N_CALL_RESOLVE = 20;
    static final int N_CALL_ERR = 21;
    static final int N_CALL_FOR = 22;
    /** The result of the answer {@code hl_notif_answer_recv_wait} sent: 0 or -errno. */
    static final int N_SENT = 23;
    /** The policy's opt-ins (RULE_*), set once per buffer by the supervisor. */
    static final int N_RULES = 24;

    static final int N_LONGS = 25;

    static final int RULE_DIRECTORIES = 1;
    static final int RULE_AS_SUPERVISOR = 2;
    static final int RULE_HARD_LINKS = 4;
    /** The native supervisor's {@link Policy#relativeReadsBrokered()} (HL_RULE_CONTINUE_OTHERS). */
    static final int RULE_CONTINUE_OTHERS = 8;
    /** The opt-ins ride in hl_sup_start's flags, shifted by this. */
    static final int SUP_RULES_SHIFT = 8;
    /** SECCOMP_USER_NOTIF_FLAG_CONTINUE. */
    static final int NOTIF_FLAG_CONTINUE = 1;

    static final int CALL_OTHER = 0;
    static final int CALL_OPEN = 1;
    static final int CALL_OPENAT = 2;
    static final int CALL_OPENAT2 = 3;
    static final int CALL_CREAT = 4;

    static final int PATH_UNREAD = Integer.MIN_VALUE;

    /**
     * Both supervisors' deadlines and limits (HL_READ_DEADLINE_NS and the rest in hl_broker.h, which says
     * what each bounds): a read of the caller's memory blocked this long is handed off to its own thread.
     */
    static final long READ_DEADLINE_NS = 40L * 1000 * 1000;
    /** How often the watchdog looks at the serving loop; every {@link #WATCH_STEP_MS} while a read is on. */
    static final int WATCH_PERIOD_MS = 10;

    static final int WATCH_STEP_MS = 5;
    /** The default age at which a handed-off read is given up and its call answered EIO. */
    static final long GIVE_UP_NS = 10L * 1000 * 1000 * 1000;
    /** Stopping a supervisor returns within this, whatever its loop (or a policy) is doing. */
    static final long STOP_DEADLINE_NS = 900L * 1000 * 1000;
    /** Handed-off threads out at once, at most. */
    static final int MAX_PARKED = 64;
    /** Given-up threads still blocked, at most: one more and the supervisor fails closed. */
    static final int MAX_STUCK = 4;
    /** An hl_watch's slots, and its {@code started} once abandoned. */
    static final int WATCH_LONGS = 4;

    static final long WATCH_ABANDONED = -1;

    static final int BROKER_GONE = -100000;
    static final int BROKER_REFUSED = -200000;
    static final int BROKER_FAILED = -300000;

    private static final String LOAD_PROBLEM;

    static {
        String problem = null;
        try {
            NativeLibrary lib =
                    NativeLibrary.getInstance(NativeLib.file("libheimdall.so").toString());
            Native.register(BrokerNative.class, lib);
        } catch (RuntimeException | LinkageError e) {
            problem = "libheimdall.so could not be loaded: " + e.getMessage();
        }
        LOAD_PROBLEM = problem;
    }

    private BrokerNative() {}

    /** Null when the library is loaded, else why not. */
    static String loadProblem() {
        return LOAD_PROBLEM;
    }

    /** Throws a refusal when the library is not loaded. */
    static void require() {
        if (LOAD_PROBLEM != null) {
            throw new Refusal(LOAD_PROBLEM);
        }
    }

    static native int hl_notif_supported();

    static native int hl_notif_set_flags(int listener, long flags);

    static native int hl_notif_continue(int listener, long id);

    static native int hl_notif_error(int listener, long id, int err);

    static native int hl_notif_value(int listener, long id, long val);

    static native int hl_notif_id_valid(int listener, long id);

    static native int hl_notif_read_path(int listener, long id, int pid, long addr, long bufAddr, int cap);

    static native int hl_broker_answer(int listener, long notifAddr, long pathAddr, int inDirfd);

    static native int hl_broker_open_dir(String path);

    static native int hl_eventfd();

    static native int hl_eventfd_signal(int fd);

    static native int hl_close(int fd);

    static native int hl_dup_cloexec(int fd);

    static native int hl_pidfd_getfd(int pid, int fd);

    static native long hl_sup_start(int listener, int cpu, int answer, long value, int inDirfd, int flags);

    static native long hl_sup_start_set(
            int listener, int cpu, long cpuSet, int answer, long value, int inDirfd, int flags);

    static native int hl_sup_stop(long handle);

    static native int hl_sup_stats(long handle, long[] out, int n);

    static native void hl_sup_free(long handle);

    static native int hl_sup_hold_next(long handle);

    static native int hl_sup_resume(long handle);

    static native int hl_sup_stop_signal();

    static native int hl_sup_thread_prepare();

    static native int hl_sup_thread_signal(int tid);

    static native int hl_watch_attach(long watchAddr);

    static native long hl_watch_abandon(long watchAddr, long deadlineNs);

    static native int hl_watch_leave(long watchAddr);

    static native long hl_watch_check(long watchAddr, long deadlineNs, long stateAddr);

    static native int hl_retire_fd(int fd);

    static native int hl_sup_set_give_up(long handle, long ns);
}
