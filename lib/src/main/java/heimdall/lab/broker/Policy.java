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
 * {@code in/} with an {@code O_PATH} descriptor, which opens nothing, and refuses, with {@code EACCES},
 * anything but a regular file or a directory asked for with {@code O_DIRECTORY}: a FIFO, socket or
 * device is never opened. {@link #admit} then sees that file ({@link Notification#openedType()},
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
     * the file is never opened). Only regular files and requested directories reach this. The default
     * admits directories and files with exactly one link: a file with several links may be a name in
     * {@code in/} for a file outside it (a hard link crosses no directory, so {@code RESOLVE_BENEATH}
     * cannot see it). The native supervisor applies the same default.
     */
    default boolean admit(Notification call) {
        return call.openedType() == Notification.FileType.DIRECTORY || call.openedLinks() == 1;
    }

    /** This policy, admitting every file it brokers whatever its link count (hard links included). */
    default Policy allowingHardLinks() {
        Policy base = this;
        return new Policy() {
            @Override
            public Answer decide(Notification call) {
                return base.decide(call);
            }

            @Override
            public boolean admit(Notification call) {
                return true;
            }
        };
    }

    /** The same answer for every call. */
    static Policy always(Answer answer) {
        if (answer == null) {
            throw new IllegalArgumentException("answer is null");
        }
        return call -> answer;
    }
}
