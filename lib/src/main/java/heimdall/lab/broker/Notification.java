package heimdall.lab.broker;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * One notified call as a policy sees it: a reusable, mutable view over the Java supervisor's
 * preallocated native buffer, refilled for every call.
 *
 * <p>Why a view and not a record: a record per call would allocate on every round trip, and the Java
 * supervisor's figures are compared with the native one's; garbage there shows up as GC pauses in
 * the p99. The price is that a view is valid only while {@link Policy#decide} runs: a policy that
 * keeps something must copy it ({@link #snapshot()} makes an allocating copy).
 *
 * <p>Reading the path ({@link #readPath}) copies it from the caller's memory with
 * {@code process_vm_readv}; do not trust it for a {@code CONTINUE} decision (the caller may change it
 * after the read), only for error answers or for logging. The broker answer reads it again itself
 * and checks the notification is still valid.
 */
public final class Notification {
    /** x86_64 syscall numbers a policy is likely to look at. */
    public static final int OPEN = 2;
    public static final int OPENAT = 257;
    /** {@code AUDIT_ARCH_X86_64} */
    public static final int ARCH_X86_64 = 0xC000003E;
    /** The longest path {@link #readPath} reads, terminating NUL included (Linux's PATH_MAX). */
    public static final int PATH_MAX = 4096;

    private final int listener;
    private final ByteBuffer slots;
    private final long slotsAddress;
    private final ByteBuffer path;
    private final long pathAddress;
    private int pathLength = -1;

    Notification(int listener) {
        this.listener = listener;
        this.slots = ByteBuffer.allocateDirect(BrokerNative.N_LONGS * 8).order(ByteOrder.nativeOrder());
        this.slotsAddress = address(slots);
        this.path = ByteBuffer.allocateDirect(PATH_MAX).order(ByteOrder.nativeOrder());
        this.pathAddress = address(path);
    }

    private static long address(ByteBuffer direct) {
        return com.sun.jna.Pointer.nativeValue(com.sun.jna.Native.getDirectBufferPointer(direct));
    }

    long slotsAddress() {
        return slotsAddress;
    }

    /** Called by the supervisor after each receive. */
    void reset() {
        pathLength = -1;
    }

    /** The kernel's cookie for this call. */
    public long id() {
        return slots.getLong(BrokerNative.N_ID * 8);
    }

    /** The calling thread's id (in the supervisor's pid namespace). */
    public int pid() {
        return (int) slots.getLong(BrokerNative.N_PID * 8);
    }

    /** The system call number. */
    public int nr() {
        return (int) slots.getLong(BrokerNative.N_NR * 8);
    }

    /** The {@code AUDIT_ARCH_*} of the call. */
    public int arch() {
        return (int) slots.getLong(BrokerNative.N_ARCH * 8);
    }

    public long instructionPointer() {
        return slots.getLong(BrokerNative.N_IP * 8);
    }

    /** Argument {@code i} (0..5), as the kernel passed it. */
    public long arg(int i) {
        if (i < 0 || i > 5) {
            throw new IndexOutOfBoundsException("syscall argument " + i);
        }
        return slots.getLong((BrokerNative.N_ARG0 + i) * 8);
    }

    /**
     * Copies the NUL-terminated string that argument {@code argIndex} points to from the caller into
     * this view's buffer, without allocating.
     *
     * @return its length, or a negative errno ({@code -EFAULT} unreadable, {@code -ENAMETOOLONG},
     *     {@code -ESRCH} caller gone)
     */
    public int readPath(int argIndex) {
        pathLength = BrokerNative.hl_read_path(pid(), arg(argIndex), pathAddress, PATH_MAX);
        return pathLength;
    }

    /** The length of the last {@link #readPath}, or a negative errno. */
    public int pathLength() {
        return pathLength;
    }

    /** Byte {@code i} of the last path read. */
    public byte pathByte(int i) {
        if (i < 0 || i >= pathLength) {
            throw new IndexOutOfBoundsException("path byte " + i + " of " + pathLength);
        }
        return path.get(i);
    }

    /** Whether the last path read equals {@code bytes}; no allocation. */
    public boolean pathEquals(byte[] bytes) {
        if (pathLength != bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (path.get(i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the last path read contains {@code bytes}; no allocation. */
    public boolean pathContains(byte[] bytes) {
        outer:
        for (int start = 0; start + bytes.length <= pathLength; start++) {
            for (int i = 0; i < bytes.length; i++) {
                if (path.get(start + i) != bytes[i]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The path argument {@code argIndex} as a String (allocates), or null when unreadable. */
    public String path(int argIndex) {
        int n = readPath(argIndex);
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        path.get(0, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Whether the call is still waiting for its answer (its caller alive). */
    public boolean stillValid() {
        return BrokerNative.hl_notif_id_valid(listener, id()) == 0;
    }

    /** An allocating, immutable copy of the call for keeping. */
    public Snapshot snapshot() {
        long[] args = new long[6];
        for (int i = 0; i < 6; i++) {
            args[i] = arg(i);
        }
        return new Snapshot(id(), pid(), nr(), arch(), instructionPointer(), args);
    }

    /** An immutable copy of one notified call. */
    public record Snapshot(long id, int pid, int nr, int arch, long instructionPointer, long[] args) {}

    @Override
    public String toString() {
        return "Notification[id=" + id() + ", pid=" + pid() + ", nr=" + nr() + "]";
    }
}
