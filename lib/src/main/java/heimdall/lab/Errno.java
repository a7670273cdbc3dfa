package heimdall.lab;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * The Linux errno values (x86_64) the runs, the broker and the native library use or report, in one place:
 * every class names them from here (no private copies), and {@code CConstantsTest} compares each with
 * {@code <errno.h>} as the C compiler of this machine sees it.
 */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int ECHILD = 10;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENOTDIR = 20;
    public static final int EISDIR = 21;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    public static final int ENOSPC = 28;
    public static final int EROFS = 30;
    public static final int EPIPE = 32;
    public static final int ENAMETOOLONG = 36;
    public static final int ENOSYS = 38;
    public static final int ENOTEMPTY = 39;
    public static final int ELOOP = 40;
    public static final int EPROTO = 71;
    public static final int EOPNOTSUPP = 95;
    public static final int ETIMEDOUT = 110;
    public static final int EALREADY = 114;
    public static final int ECANCELED = 125;

    /** The names above by value, read from the fields so that a new constant is named without a second edit. */
    private static final Map<Integer, String> NAMES = names();

    private Errno() {}

    /** {@code "EPERM"}, or {@code "errno 123"} for a value without a name here. */
    public static String name(int errno) {
        String n = NAMES.get(errno);
        return n != null ? n : "errno " + errno;
    }

    /** Every name above with its value (for the test that compares them with {@code <errno.h>}). */
    public static Map<String, Integer> all() {
        Map<String, Integer> all = new HashMap<>();
        NAMES.forEach((value, name) -> all.put(name, value));
        return Map.copyOf(all);
    }

    private static Map<Integer, String> names() {
        Map<Integer, String> names = new HashMap<>();
        for (Field f : Errno.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (f.getType() == int.class && Modifier.isStatic(m) && Modifier.isPublic(m)) {
                try {
                    if (names.put(f.getInt(null), f.getName()) != null) {
                        throw new IllegalStateException("two errno names for " + f.getInt(null));
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Map.copyOf(names);
    }
}
