package heimdall.lab.broker;

/**
 * The kind of a notified call, as the broker serves it: the four x86_64 calls that open a file by
 * name, each with the argument that holds its name, or {@link #OTHER}. A policy switches on this
 * instead of on syscall numbers, so it cannot check {@code openat} and forget {@code open}:
 * {@link Notification#readPath()} reads the right argument for each.
 */
public enum OpenCall {
    /** {@code open(path, flags, mode)}: the name in argument 0. */
    OPEN(BrokerNative.CALL_OPEN, Notification.OPEN, 0),
    /** {@code openat(dirfd, path, flags, mode)}: the name in argument 1; dirfd must be AT_FDCWD. */
    OPENAT(BrokerNative.CALL_OPENAT, Notification.OPENAT, 1),
    /**
     * {@code openat2(dirfd, path, how, size)}: the name in argument 1; its flags, mode and resolve bits
     * come from the supervisor's one copy of the caller's {@code struct open_how}.
     */
    OPENAT2(BrokerNative.CALL_OPENAT2, Notification.OPENAT2, 1),
    /** {@code creat(path, mode)}: the name in argument 0; always a write ({@code O_CREAT|O_WRONLY|O_TRUNC}). */
    CREAT(BrokerNative.CALL_CREAT, Notification.CREAT, 0),
    /** Any other call or architecture: not one the broker serves (a broker answer refuses it). */
    OTHER(BrokerNative.CALL_OTHER, -1, -1);

    private final int nativeKind;
    private final int nr;
    private final int pathArg;

    OpenCall(int nativeKind, int nr, int pathArg) {
        this.nativeKind = nativeKind;
        this.nr = nr;
        this.pathArg = pathArg;
    }

    /** The argument that holds the call's name, -1 for {@link #OTHER}. */
    public int pathArg() {
        return pathArg;
    }

    /** The x86_64 syscall number, -1 for {@link #OTHER}. */
    public int nr() {
        return nr;
    }

    /** The kind of call {@code nr} on {@code arch} (the same rule as the native broker's). */
    public static OpenCall of(int arch, int nr) {
        if (arch != Notification.ARCH_X86_64) {
            return OTHER;
        }
        return switch (nr) {
            case Notification.OPEN -> OPEN;
            case Notification.OPENAT -> OPENAT;
            case Notification.OPENAT2 -> OPENAT2;
            case Notification.CREAT -> CREAT;
            default -> OTHER;
        };
    }

    /** The native library's number for this kind ({@code HL_CALL_*}). */
    int nativeKind() {
        return nativeKind;
    }
}
