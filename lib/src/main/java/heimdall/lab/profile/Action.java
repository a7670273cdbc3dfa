package heimdall.lab.profile;

import java.util.Locale;
import java.util.Optional;

/**
 * A seccomp action and its data (the errno of ERRNO, the tracer's message of TRACE), with the 32-bit
 * value a filter returns for it ({@link #ret()}).
 *
 * @param kind the action
 * @param data the low 16 bits of the return value; 0 for actions that carry none
 */
public record Action(Kind kind, int data) {
    /** The actions of the OCI runtime spec, with their {@code SECCOMP_RET_*} values. */
    public enum Kind {
        KILL_PROCESS(0x80000000, "SCMP_ACT_KILL_PROCESS"),
        KILL_THREAD(0x00000000, "SCMP_ACT_KILL_THREAD"),
        TRAP(0x00030000, "SCMP_ACT_TRAP"),
        ERRNO(0x00050000, "SCMP_ACT_ERRNO"),
        NOTIFY(0x7fc00000, "SCMP_ACT_NOTIFY"),
        TRACE(0x7ff00000, "SCMP_ACT_TRACE"),
        LOG(0x7ffc0000, "SCMP_ACT_LOG"),
        ALLOW(0x7fff0000, "SCMP_ACT_ALLOW");

        /** The {@code SECCOMP_RET_*} value (action bits only). */
        public final int base;
        /** The name in profiles. */
        public final String jsonName;

        Kind(int base, String jsonName) {
            this.base = base;
            this.jsonName = jsonName;
        }

        /** Whether the action carries data (an errno or a tracer message). */
        public boolean hasData() {
            return this == ERRNO || this == TRACE;
        }
    }

    /** EPERM: what runc gives ERRNO and TRACE when a profile names no errnoRet. */
    public static final int DEFAULT_ERRNO = 1;

    public static final Action ALLOW = new Action(Kind.ALLOW, 0);
    public static final Action KILL_PROCESS = new Action(Kind.KILL_PROCESS, 0);
    public static final Action KILL_THREAD = new Action(Kind.KILL_THREAD, 0);
    public static final Action TRAP = new Action(Kind.TRAP, 0);
    public static final Action LOG = new Action(Kind.LOG, 0);
    public static final Action NOTIFY = new Action(Kind.NOTIFY, 0);

    public Action {
        if (kind == null) {
            throw new IllegalArgumentException("action kind is null");
        }
        if (data < 0 || data > 0xffff) {
            throw new IllegalArgumentException("action data " + data + " is outside 0..65535");
        }
        if (!kind.hasData() && data != 0) {
            throw new IllegalArgumentException(kind + " carries no data, got " + data);
        }
    }

    public static Action errno(int errno) {
        return new Action(Kind.ERRNO, errno);
    }

    public static Action trace(int msg) {
        return new Action(Kind.TRACE, msg);
    }

    /** The value a seccomp filter returns for this action. */
    public int ret() {
        return kind.base | data;
    }

    /** The action a filter's return value stands for, if its action bits are a known action. */
    public static Optional<Action> fromRet(int ret) {
        int bits = ret & 0xffff0000;
        for (Kind k : Kind.values()) {
            if (k.base == bits) {
                return Optional.of(new Action(k, k.hasData() ? ret & 0xffff : 0));
            }
        }
        return Optional.empty();
    }

    /** A profile's action name ({@code SCMP_ACT_KILL} is KILL_THREAD, as in libseccomp), if known. */
    public static Optional<Kind> kindOf(String jsonName) {
        if ("SCMP_ACT_KILL".equals(jsonName)) {
            return Optional.of(Kind.KILL_THREAD);
        }
        for (Kind k : Kind.values()) {
            if (k.jsonName.equals(jsonName)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }

    /** Readable form of a filter return value, e.g. {@code ERRNO(1)}, {@code ALLOW}. */
    public static String describe(int ret) {
        return fromRet(ret).map(Action::toString).orElse(String.format(Locale.ROOT, "0x%08x (unknown action)", ret));
    }

    @Override
    public String toString() {
        return kind.hasData() ? kind + "(" + data + ")" : kind.toString();
    }
}
