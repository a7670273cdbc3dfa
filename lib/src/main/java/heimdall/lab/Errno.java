package heimdall.lab;

import java.util.Map;

/** Names of the Linux errno values (x86_64) that the runs and the native library report. */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EBADF = 9;
    public static final int ECHILD = 10;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EINVAL = 22;
    public static final int EPIPE = 32;
    public static final int ENOSYS = 38;
    public static final int EPROTO = 71;
    public static final int ETIMEDOUT = 110;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "EPERM"),
            Map.entry(2, "ENOENT"),
            Map.entry(3, "ESRCH"),
            Map.entry(4, "EINTR"),
            Map.entry(5, "EIO"),
            Map.entry(7, "E2BIG"),
            Map.entry(9, "EBADF"),
            Map.entry(10, "ECHILD"),
            Map.entry(11, "EAGAIN"),
            Map.entry(12, "ENOMEM"),
            Map.entry(13, "EACCES"),
            Map.entry(14, "EFAULT"),
            Map.entry(16, "EBUSY"),
            Map.entry(17, "EEXIST"),
            Map.entry(20, "ENOTDIR"),
            Map.entry(21, "EISDIR"),
            Map.entry(22, "EINVAL"),
            Map.entry(24, "EMFILE"),
            Map.entry(28, "ENOSPC"),
            Map.entry(32, "EPIPE"),
            Map.entry(38, "ENOSYS"),
            Map.entry(40, "ELOOP"),
            Map.entry(71, "EPROTO"),
            Map.entry(95, "EOPNOTSUPP"),
            Map.entry(110, "ETIMEDOUT"),
            Map.entry(125, "ECANCELED"));

    private Errno() {}

    /** {@code "EPERM"}, or {@code "errno 123"} for a value without a name here. */
    public static String name(int errno) {
        String n = NAMES.get(errno);
        return n != null ? n : "errno " + errno;
    }
}
