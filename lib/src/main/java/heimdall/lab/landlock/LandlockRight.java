package heimdall.lab.landlock;

import java.util.Collection;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * One Landlock right, with its bit in {@code <linux/landlock.h>} and the ABI that brought it. The bits are
 * checked against the installed header and against {@code hl_landlock.h} by {@code LandlockConstantsTest}.
 */
public enum LandlockRight {
    EXECUTE(Kind.FS, 0, 1),
    WRITE_FILE(Kind.FS, 1, 1),
    READ_FILE(Kind.FS, 2, 1),
    READ_DIR(Kind.FS, 3, 1),
    REMOVE_DIR(Kind.FS, 4, 1),
    REMOVE_FILE(Kind.FS, 5, 1),
    MAKE_CHAR(Kind.FS, 6, 1),
    MAKE_DIR(Kind.FS, 7, 1),
    MAKE_REG(Kind.FS, 8, 1),
    MAKE_SOCK(Kind.FS, 9, 1),
    MAKE_FIFO(Kind.FS, 10, 1),
    MAKE_BLOCK(Kind.FS, 11, 1),
    MAKE_SYM(Kind.FS, 12, 1),
    /** Link or rename a file into another directory (before ABI 2 always denied under a ruleset). */
    REFER(Kind.FS, 13, 2),
    /** truncate, ftruncate, open with O_TRUNC (before ABI 3 never confined). */
    TRUNCATE(Kind.FS, 14, 3),
    /** ioctl on a character or block device opened beneath (before ABI 5 never confined). */
    IOCTL_DEV(Kind.FS, 15, 5),
    /** bind(2) of a TCP socket (no port rule: every port). */
    BIND_TCP(Kind.NET, 0, 4),
    /** connect(2) of a TCP socket (no port rule: every port). */
    CONNECT_TCP(Kind.NET, 1, 4),
    /** Connecting to an abstract unix socket made outside the domain. */
    SCOPE_ABSTRACT_UNIX_SOCKET(Kind.SCOPE, 0, 6),
    /** Signalling a process outside the domain. */
    SCOPE_SIGNAL(Kind.SCOPE, 1, 6);

    /** Which field of the ruleset the right belongs to. */
    public enum Kind {
        /** {@code handled_access_fs}: {@code LANDLOCK_ACCESS_FS_*}. */
        FS("LANDLOCK_ACCESS_FS_"),
        /** {@code handled_access_net}: {@code LANDLOCK_ACCESS_NET_*}. */
        NET("LANDLOCK_ACCESS_NET_"),
        /** {@code scoped}: {@code LANDLOCK_SCOPE_*}. */
        SCOPE("LANDLOCK_");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    /** The newest ABI whose rights this enum lists (ABI 7 added audit flags, no right). */
    public static final int NEWEST_ABI = 7;

    /** The rights a rule on a file that is not a directory may carry (the kernel refuses the others there). */
    public static final Set<LandlockRight> FILE_RIGHTS =
            EnumSet.of(EXECUTE, WRITE_FILE, READ_FILE, TRUNCATE, IOCTL_DEV);

    private final Kind kind;
    private final int bit;
    private final int abi;

    LandlockRight(Kind kind, int bit, int abi) {
        this.kind = kind;
        this.bit = bit;
        this.abi = abi;
    }

    public Kind kind() {
        return kind;
    }

    /** Its value in its field: {@code 1L << bit}. */
    public long value() {
        return 1L << bit;
    }

    /** The first ABI that knows it. */
    public int abi() {
        return abi;
    }

    /** Its name in {@code <linux/landlock.h>}: {@code LANDLOCK_ACCESS_FS_READ_FILE}, {@code LANDLOCK_SCOPE_SIGNAL}. */
    public String cName() {
        return kind.prefix + name();
    }

    /** Lower-case words for tables: {@code read_file}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The rights ABI {@code abi} knows (none for 0 or less). */
    public static Set<LandlockRight> knownBy(int abi) {
        EnumSet<LandlockRight> s = EnumSet.noneOf(LandlockRight.class);
        for (LandlockRight r : values()) {
            if (r.abi <= abi) {
                s.add(r);
            }
        }
        return s;
    }

    /** The bits of the rights of {@code kind} among {@code rights}. */
    public static long mask(Collection<LandlockRight> rights, Kind kind) {
        long m = 0;
        for (LandlockRight r : rights) {
            if (r.kind == kind) {
                m |= r.value();
            }
        }
        return m;
    }
}
