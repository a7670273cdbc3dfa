package heimdall.lab.broker;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
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
 * <p>The path is read from the caller's memory once per call ({@code /proc/PID/mem}, then a check
 * that the call is still pending), into this view's buffer: {@link #readPath}, {@link #path} and the
 * comparisons all look at that one copy, however often a policy asks, and a {@link Answer#BROKER}
 * answer opens exactly that copy (it reads the path itself only when the policy never did). Another
 * thread of the caller may rewrite the name at any moment; that changes nothing the supervisor
 * decides on. A {@code CONTINUE} decision is another matter: the kernel then reads the caller's
 * memory again for the real call, so the copy says nothing about what that call opens.
 *
 * <p>{@link #call()} says which of the calls that open by name this is ({@code open}, {@code openat},
 * {@code openat2}, {@code creat}), {@link #readPath()} reads that call's name argument and
 * {@link #openFlags()} its flags; for {@code openat2} the {@code struct open_how} is read once from the
 * caller into the supervisor's copy, which the broker answer decides on too.
 *
 * <p>While {@link Policy#admit} runs, the {@code opened*} methods describe the file the broker looked
 * up for this call ({@code fstat} of an {@code O_PATH} descriptor): nothing is opened for reading
 * before the admission says yes.
 */
public final class Notification {
    /** x86_64 syscall numbers a policy is likely to look at ({@link OpenCall} names the four the broker serves). */
    public static final int OPEN = 2;

    public static final int CREAT = 85;
    public static final int OPENAT = 257;
    public static final int OPENAT2 = 437;
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
    private int pathArg = -1;

    /** A view whose broker answers apply {@code rules}, the policy's opt-ins ({@link SupervisorStart#rules}). */
    Notification(int listener, int rules) {
        this.listener = listener;
        this.slots = ByteBuffer.allocateDirect(BrokerNative.N_LONGS * 8).order(ByteOrder.nativeOrder());
        this.slotsAddress = address(slots);
        slots.putLong(BrokerNative.N_RULES * 8, rules); // the receive leaves this slot alone
        this.path = ByteBuffer.allocateDirect(PATH_MAX).order(ByteOrder.nativeOrder());
        this.pathAddress = address(path);
    }

    private static long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }

    /** What the answer sent by {@code hl_notif_answer_recv_wait} before this receive returned: 0 or -errno. */
    int sentResult() {
        return (int) slots.getLong(BrokerNative.N_SENT * 8);
    }

    long slotsAddress() {
        return slotsAddress;
    }

    long pathAddress() {
        return pathAddress;
    }

    /** Called by the supervisor after each receive: this call's path is not read yet. */
    void reset() {
        pathLength = -1;
        pathArg = -1;
        slots.putLong(BrokerNative.N_F_MODE * 8, 0);
        slots.putLong(BrokerNative.N_CALL_FOR * 8, ~id()); // its flags and open_how not read yet
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

    /** Which of the calls the broker serves this is ({@link OpenCall#OTHER} for any other); no read, no allocation. */
    public OpenCall call() {
        return OpenCall.of(arch(), nr());
    }

    /**
     * The open flags the call asked for: {@code open}'s and {@code openat}'s flags argument (as the int
     * the kernel uses), {@code creat}'s {@code O_CREAT|O_WRONLY|O_TRUNC}, and for {@code openat2} the
     * {@code flags} of the supervisor's one copy of the caller's {@code struct open_how} (read on first
     * use, the same copy the broker answer decides on). 0 for another call, or when the call's own
     * arguments are wrong ({@link #callError()}).
     */
    public long openFlags() {
        readCall();
        return slots.getLong(BrokerNative.N_CALL_FLAGS * 8);
    }

    /** The mode the call passed (a file's permission bits for a creating open); as {@link #openFlags()}. */
    public long openMode() {
        readCall();
        return slots.getLong(BrokerNative.N_CALL_MODE * 8);
    }

    /** {@code openat2}'s {@code resolve} bits from the supervisor's copy of its {@code open_how}; 0 for the others. */
    public long openResolve() {
        readCall();
        return slots.getLong(BrokerNative.N_CALL_RESOLVE * 8);
    }

    /**
     * The errno the call's own arguments earn before any name is looked at, as the kernel would answer
     * it ({@code openat2}: {@code EINVAL} for a size below the first {@code open_how}, unknown flag or
     * resolve bits, a mode without {@code O_CREAT}; {@code E2BIG} for non-zero bytes past the fields we
     * know or a size over a page; {@code EFAULT} unreadable), 0 if none. A broker answer answers it.
     */
    public int callError() {
        readCall();
        return (int) slots.getLong(BrokerNative.N_CALL_ERR * 8);
    }

    /** Reads the call's flags (openat2: its open_how) once per notification; later asks use the copy. */
    private void readCall() {
        if (slots.getLong(BrokerNative.N_CALL_FOR * 8) != id()) {
            // -ESRCH (the caller is gone) leaves the slots unread: flags read as 0, and any answer finds it gone
            BrokerJni.call(listener, slotsAddress);
        }
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
     * The NUL-terminated string that argument {@code argIndex} points to, copied from the caller into
     * this view's buffer without allocating. Read once: the first call for this notification copies
     * it (and checks the call is still pending), later calls for the same argument return the same
     * copy. Reading another argument replaces the copy.
     *
     * @return its length, or a negative errno ({@code -EFAULT} unreadable, {@code -ENAMETOOLONG} no NUL
     *     within {@link #PATH_MAX} bytes, {@code -ESRCH} the call is no longer pending)
     */
    public int readPath(int argIndex) {
        if (argIndex < 0 || argIndex > 5) {
            throw new IndexOutOfBoundsException("syscall argument " + argIndex);
        }
        if (argIndex == pathArg) {
            return pathLength;
        }
        long addr = arg(argIndex);
        pathLength = BrokerNative.hl_notif_read_path(listener, id(), pid(), addr, pathAddress, PATH_MAX);
        pathArg = argIndex;
        return pathLength;
    }

    /**
     * The name the call opens, read from the argument its {@link #call() kind} keeps it in ({@code open},
     * {@code creat}: 0; {@code openat}, {@code openat2}: 1), once, as {@link #readPath(int)} does.
     *
     * @return its length, a negative errno as {@link #readPath(int)}, or {@code -EINVAL} (-22) for a
     *     call that opens no name ({@link OpenCall#OTHER})
     */
    public int readPath() {
        int arg = call().pathArg();
        return arg < 0 ? -22 : readPath(arg);
    }

    /** The name the call opens (see {@link #readPath()}) as a String (allocates), or null when unreadable or none. */
    public String path() {
        int arg = call().pathArg();
        return arg < 0 ? null : path(arg);
    }

    /** The length of the copy of argument {@code argIndex}, or {@link BrokerNative#PATH_UNREAD} when not read yet. */
    int pathReadOf(int argIndex) {
        return argIndex == pathArg ? pathLength : BrokerNative.PATH_UNREAD;
    }

    /** Adopts the read the broker's open made into this view's buffer (slot N_PATH_LEN), if it made one. */
    void adoptBrokerRead(int argIndex) {
        int len = (int) slots.getLong(BrokerNative.N_PATH_LEN * 8);
        if (len != BrokerNative.PATH_UNREAD) {
            pathArg = argIndex;
            pathLength = len;
        }
    }

    /** The path argument of a call the broker serves (see {@link OpenCall#pathArg()}), or -1. */
    int brokerPathArg() {
        return call().pathArg();
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

    /**
     * The copy of path argument {@code argIndex} (see {@link #readPath}) as a String (allocates), or null when
     * unreadable.
     */
    public String path(int argIndex) {
        int n = readPath(argIndex);
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        path.get(0, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The kind of file a broker answer looked up: only these two ever reach the admission. */
    public enum FileType {
        REGULAR,
        DIRECTORY
    }

    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFDIR = 0040000;

    /** The looked-up file's type during {@link Policy#admit} (its O_PATH descriptor's); null when none was. */
    public FileType openedType() {
        int fmt = (int) slots.getLong(BrokerNative.N_F_MODE * 8) & S_IFMT;
        return fmt == S_IFREG ? FileType.REGULAR : fmt == S_IFDIR ? FileType.DIRECTORY : null;
    }

    /** The looked-up file's permission bits and type ({@code st_mode}), 0 when none was looked up. */
    public int openedMode() {
        return (int) slots.getLong(BrokerNative.N_F_MODE * 8);
    }

    /** The opened file's link count ({@code st_nlink}): more than one for a file with hard links. */
    public long openedLinks() {
        return slots.getLong(BrokerNative.N_F_NLINK * 8);
    }

    /** The opened file's size in bytes. */
    public long openedSize() {
        return slots.getLong(BrokerNative.N_F_SIZE * 8);
    }

    /** The opened file's device ({@code st_dev}). */
    public long openedDevice() {
        return slots.getLong(BrokerNative.N_F_DEV * 8);
    }

    /** The opened file's inode number. */
    public long openedInode() {
        return slots.getLong(BrokerNative.N_F_INO * 8);
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
