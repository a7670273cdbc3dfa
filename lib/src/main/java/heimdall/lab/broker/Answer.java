package heimdall.lab.broker;

import heimdall.lab.BadInput;
import java.util.Locale;

/**
 * How a supervisor answers one notified call.
 *
 * <ul>
 *   <li>{@link #CONTINUE}: the kernel runs the real call (the bare round trip). The kernel's own
 *       warning applies: the call's arguments may have changed since the supervisor looked, so this
 *       is not a security decision.
 *   <li>{@link #BROKER}: the supervisor reads the path from the caller once, into its own buffer,
 *       looks that copy up itself beneath the job's {@code in/} ({@code openat2} with {@code O_PATH},
 *       {@code RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV}), decides on that
 *       descriptor's {@code fstat}, and only then opens the file for reading (non-blocking, through
 *       {@code /proc/self/fd}) and injects the descriptor as the call's result. Refused with
 *       {@code EACCES}: a path escaping {@code in/} or crossing a mount in it, write access
 *       ({@code creat} always), a dirfd other than {@code AT_FDCWD}, {@code RESOLVE_IN_ROOT}, a FIFO,
 *       socket or device, a directory (unless the policy allows them,
 *       {@link Policy#allowingDirectories()}, and then only with {@code O_DIRECTORY}), a file with more
 *       than one link unless the policy admits it ({@link Policy#admit}), and a file the caller's own
 *       credentials could not open (looked up and opened with them unless {@link Policy#asSupervisor()});
 *       none of them is ever opened for reading. Other failures answer the kernel's own errno
 *       ({@code ENOENT}, {@code ENAMETOOLONG} for a name of {@code PATH_MAX} bytes or more,
 *       {@code openat2}'s {@code EINVAL}/{@code E2BIG} for its {@code open_how}, ...). {@code open},
 *       {@code openat}, {@code openat2} and {@code creat} can be brokered ({@link OpenCall}); any other
 *       call is refused.
 *   <li>{@link #error(int)}: the call fails with that errno, not run.
 *   <li>{@link #value(long)}: the call returns that value, not run.
 * </ul>
 *
 * <p>The factories return shared instances for the common answers ({@code CONTINUE}, {@code BROKER},
 * every errno, values -1 to 1023), so a policy that uses them allocates nothing per call.
 *
 * @param kind what to do
 * @param value the errno for {@code ERROR}, the return value for {@code VALUE}, 0 otherwise
 */
public record Answer(Kind kind, long value) {
    /** The kinds of answer. */
    public enum Kind {
        CONTINUE,
        BROKER,
        ERROR,
        VALUE
    }

    /** Let the real call run. */
    public static final Answer CONTINUE = new Answer(Kind.CONTINUE, 0);
    /** Open beneath {@code in/} in the supervisor and inject the descriptor. */
    public static final Answer BROKER = new Answer(Kind.BROKER, 0);

    private static final Answer[] ERRORS = new Answer[4096];
    private static final Answer[] VALUES = new Answer[1025];

    static {
        for (int e = 1; e < ERRORS.length; e++) {
            ERRORS[e] = new Answer(Kind.ERROR, e);
        }
        for (int v = -1; v < VALUES.length - 1; v++) {
            VALUES[v + 1] = new Answer(Kind.VALUE, v);
        }
    }

    public Answer {
        if (kind == null) {
            throw new IllegalArgumentException("answer kind is null");
        }
        if (kind == Kind.ERROR && (value < 1 || value > 4095)) {
            throw new IllegalArgumentException("errno must be 1..4095, not " + value);
        }
        if ((kind == Kind.CONTINUE || kind == Kind.BROKER) && value != 0) {
            throw new IllegalArgumentException(kind + " takes no value");
        }
    }

    /** The call fails with {@code errno} (1..4095). */
    public static Answer error(int errno) {
        if (errno < 1 || errno >= ERRORS.length) {
            throw new IllegalArgumentException("errno must be 1..4095, not " + errno);
        }
        return ERRORS[errno];
    }

    /** The call returns {@code value} without running. */
    public static Answer value(long value) {
        return value >= -1 && value < VALUES.length - 1 ? VALUES[(int) value + 1] : new Answer(Kind.VALUE, value);
    }

    /**
     * Parses {@code continue}, {@code broker}, {@code error:N} or {@code value:N} (the command line's
     * spelling); bad input naming {@code what} otherwise.
     */
    public static Answer parse(String text, String what) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.equals("continue")) {
                return CONTINUE;
            }
            if (t.equals("broker")) {
                return BROKER;
            }
            if (t.startsWith("error:")) {
                return error(Integer.parseInt(t.substring(6)));
            }
            if (t.startsWith("value:")) {
                return value(Long.parseLong(t.substring(6)));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInput(what + ": '" + text + "': " + e.getMessage());
        }
        throw new BadInput(what + ": '" + text + "' is not an answer (continue, broker, error:N, value:N)");
    }

    /** The command line's spelling, the inverse of {@link #parse}. */
    public String label() {
        return switch (kind) {
            case CONTINUE -> "continue";
            case BROKER -> "broker";
            case ERROR -> "error:" + value;
            case VALUE -> "value:" + value;
        };
    }
}
