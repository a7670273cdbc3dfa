package heimdall.lab.broker;

/**
 * A notebook's own supervision rule: decides the {@link Answer} for each notified call. Run by the
 * Java supervisor on its pinned thread, once per call, so it should be quick and should not allocate
 * if its figures are to be compared with the native supervisor's.
 *
 * <p>The {@link Notification} passed in is a reusable view, valid only during the call to
 * {@link #decide} (and {@link #admit}); copy what you need to keep. Its path is the supervisor's one
 * copy of the caller's (see {@link Notification#readPath}): a {@link Answer#BROKER} answer opens
 * exactly the name the policy looked at, whatever the caller's other threads write meanwhile.
 *
 * <p>A broker answer is decided in two steps. {@link #decide} sees the call, its kind
 * ({@link Notification#call()}: {@code open}, {@code openat}, {@code openat2} or {@code creat}), its
 * flags and its path; after a {@code BROKER} answer the supervisor looks the path up beneath
 * {@code in/} with an {@code O_PATH} descriptor, which opens nothing, with the caller's credentials
 * (unless {@link #asSupervisor()}), and refuses, with {@code EACCES}, anything but a regular file or,
 * with {@link #allowingDirectories()}, a directory asked for with {@code O_DIRECTORY}: a FIFO, socket
 * or device is never opened. {@link #admit} then sees that file ({@link Notification#openedType()},
 * {@link Notification#openedLinks()}, ...) and says whether it is handed over; only then is it opened
 * for reading. Refused, the call fails with {@code EACCES}.
 *
 * <p>The rule below covers every kind: {@link Notification#readPath()} reads the name from the
 * argument each kind keeps it in (0 for {@code open} and {@code creat}, 1 for {@code openat} and
 * {@code openat2}), so a policy cannot check {@code openat} and serve {@code open} unchecked. The
 * broker itself refuses writes ({@code creat} always), so {@code BROKER} is safe for all four.
 *
 * <pre>{@code
 * byte[] secret = "secret".getBytes();
 * Policy p = n -> switch (n.call()) {
 *     case OPEN, OPENAT, OPENAT2, CREAT -> n.readPath() > 0 && n.pathContains(secret)
 *             ? Answer.error(13) : Answer.BROKER;   // EACCES for the secret, the broker for the rest
 *     case OTHER -> Answer.error(1);                // no name to check: EPERM
 * };
 * }</pre>
 */
@FunctionalInterface
public interface Policy {
    /** The answer for one notified call. */
    Answer decide(Notification call);

    /**
     * After a {@link Answer#BROKER} answer, with the file looked up but not opened (an {@code O_PATH}
     * descriptor): whether to open it for reading and hand it over (false answers {@code EACCES}, and
     * the file is never opened). Only regular files and, with {@link #allowingDirectories()}, requested
     * directories reach this. The default admits directories and files with exactly one link: a file
     * with several links may be a name in {@code in/} for a file outside it (a hard link crosses no
     * directory, so {@code RESOLVE_BENEATH} cannot see it). The native supervisor applies the same
     * default.
     */
    default boolean admit(Notification call) {
        return call.openedType() == Notification.FileType.DIRECTORY || call.openedLinks() == 1;
    }

    /** The one answer this policy gives every call ({@link #always}), or null when it decides each call. */
    default Answer fixedAnswer() {
        return null;
    }

    /** Whether the broker may hand this policy's callers a directory ({@link #allowingDirectories()}). */
    default boolean allowsDirectories() {
        return false;
    }

    /** Whether the broker opens with its own rights rather than the caller's ({@link #asSupervisor()}). */
    default boolean opensAsSupervisor() {
        return false;
    }

    /** Whether every brokered file is admitted whatever its link count ({@link #allowingHardLinks()}). */
    default boolean allowsHardLinks() {
        return false;
    }

    /**
     * This policy, admitting every file it brokers whatever its link count (hard links included): a
     * hard link in {@code in/} to a file outside it then serves that file.
     */
    default Policy allowingHardLinks() {
        return new Opted(this, true, false, false);
    }

    /**
     * This policy, letting the broker hand over directories ({@code O_DIRECTORY} opens); by default
     * they are refused with {@code EACCES}, and so is anything that resolves to a directory.
     *
     * <p>What a directory descriptor gives a child: every {@code *at} call relative to it
     * ({@code fstatat}, {@code mkdirat}, {@code symlinkat}, {@code execveat}, ...) and, after an
     * {@code fchdir} to it, every call by a relative path resolves from it, and {@code ..} climbs above
     * it: from a directory of the host, a jailed child (its own mount namespace, an empty root) is back
     * in the host's tree with no open the broker judges. So the broker never hands over the directory
     * itself: it hands over a detached clone of its mount rooted at that directory ({@code open_tree}
     * with {@code OPEN_TREE_CLONE}, not recursive), made read-only, {@code nosuid}, {@code nodev},
     * {@code noexec} and private. At the root of a mount with no parent {@code ..} stays where it is,
     * so nothing relative to that descriptor reaches above the directory, and nothing beneath it can be
     * made, changed or run through it; the child can list and {@code stat} what is beneath it with its
     * own rights, and still opens files only through the broker, by names beneath {@code in/} (an
     * {@code openat} relative to the descriptor is refused). The floor that goes with it must keep the
     * mount API from the child ({@code open_tree}, {@code move_mount}, {@code mount_setattr},
     * {@code fsmount}, ...: attaching or changing that clone), which the default broker floor does
     * ({@code Floors.OPEN_WITHOUT_NAME}, killed); a floor that also kills {@code fchdir} and the
     * {@code *at} calls is not needed, and could not be had: seccomp cannot read the path, and glibc's
     * own {@code fstat} is {@code newfstatat(fd, "", AT_EMPTY_PATH)}. Needs a supervisor with
     * {@code CAP_SYS_ADMIN} (to clone the mount); without it a directory is refused.
     */
    default Policy allowingDirectories() {
        return new Opted(this, false, true, false);
    }

    /**
     * This policy, with the broker opening as the supervisor rather than as the caller: a confused
     * deputy on purpose. By default the lookup beneath {@code in/} and the open run with the calling
     * thread's fsuid, fsgid and supplementary groups (read from {@code /proc/TID/status} for each call,
     * checked still pending afterwards, taken on by the supervisor's opening thread alone), so a child
     * reads nothing its own credentials could not; a supervisor that cannot switch to them (not root)
     * refuses the call. With this, a child running as {@code nobody} reads whatever the supervisor
     * (root) can beneath {@code in/}: a root-owned {@code 0600} file, a file in a {@code 0700} folder.
     */
    default Policy asSupervisor() {
        return new Opted(this, false, false, true);
    }

    /**
     * Whether this is {@link #relativeReadsBrokered()}, the one deciding policy the native supervisor runs
     * too (as its own rule, {@code HL_RULE_CONTINUE_OTHERS}).
     */
    default boolean brokersRelativeReadsOnly() {
        return false;
    }

    /**
     * {@link Answer#BROKER} for a read-only {@code open} or {@code openat} from the working folder
     * ({@code AT_FDCWD}) of a relative name (its first byte, of the supervisor's one copy, is not {@code /}),
     * not asking for a directory: a program's input files, opened beneath {@code in/} (its working folder, for
     * workload-cost); {@link Answer#CONTINUE} for every other notified call ({@code openat2}, {@code creat}, a
     * write, an {@code O_DIRECTORY} open such as {@code find}'s of {@code .}, which the broker would refuse by
     * default, an absolute name, another descriptor's folder), as the program asked it. Both supervisors run
     * it: the Java one decides here, the native one in C with the same tests ({@code HL_RULE_CONTINUE_OTHERS},
     * {@code native/broker/notif.c}). CONTINUE is no security decision (the kernel's own warning): a policy to
     * measure the broker answer on a real program's inputs, not a sandbox.
     */
    static Policy relativeReadsBrokered() {
        return RelativeReads.INSTANCE;
    }

    /** {@link #relativeReadsBrokered()}. */
    final class RelativeReads implements Policy {
        static final RelativeReads INSTANCE = new RelativeReads();

        /** AT_FDCWD, as the kernel passes it in a 64-bit register. */
        private static final int AT_FDCWD = -100;

        private static final long O_ACCMODE = 3;
        private static final long O_CREAT = 0100;
        private static final long O_DIRECTORY = 0200000;

        private RelativeReads() {}

        @Override
        public Answer decide(Notification n) {
            boolean fromCwd = switch (n.call()) {
                case OPEN -> true;
                case OPENAT -> (int) n.arg(0) == AT_FDCWD;
                default -> false; // openat2 and creat: as the program asked
            };
            if (!fromCwd || (n.openFlags() & (O_ACCMODE | O_CREAT | O_DIRECTORY)) != 0) {
                return Answer.CONTINUE;
            }
            return n.readPath() > 0 && n.pathByte(0) != '/' ? Answer.BROKER : Answer.CONTINUE;
        }

        @Override
        public boolean brokersRelativeReadsOnly() {
            return true;
        }
    }

    /** The same answer for every call. */
    static Policy always(Answer answer) {
        if (answer == null) {
            throw new IllegalArgumentException("answer is null");
        }
        return new Always(answer);
    }

    /** {@link #always}: a policy that can say its answer, so the native supervisor can give it. */
    record Always(Answer answer) implements Policy {
        @Override
        public Answer decide(Notification call) {
            return answer;
        }

        @Override
        public Answer fixedAnswer() {
            return answer;
        }
    }

    /** A policy with opt-ins added to those it has: hard links, directories, the supervisor's rights. */
    record Opted(Policy base, boolean links, boolean dirs, boolean own) implements Policy {
        @Override
        public Answer decide(Notification call) {
            return base.decide(call);
        }

        @Override
        public boolean admit(Notification call) {
            return links || base.admit(call);
        }

        @Override
        public Answer fixedAnswer() {
            return base.fixedAnswer();
        }

        @Override
        public boolean allowsDirectories() {
            return dirs || base.allowsDirectories();
        }

        @Override
        public boolean opensAsSupervisor() {
            return own || base.opensAsSupervisor();
        }

        @Override
        public boolean allowsHardLinks() {
            return links || base.allowsHardLinks();
        }

        @Override
        public boolean brokersRelativeReadsOnly() {
            return base.brokersRelativeReadsOnly();
        }
    }
}
