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
 * <p>A broker answer is decided in two steps. {@link #decide} sees the call and its path; after a
 * {@code BROKER} answer the supervisor opens the path beneath {@code in/} (non-blocking, read-only)
 * and refuses, with {@code EACCES}, anything but a regular file or a directory asked for with
 * {@code O_DIRECTORY}: a FIFO, socket or device is never served. {@link #admit} then sees the opened
 * file ({@link Notification#openedType()}, {@link Notification#openedLinks()}, ...) and says whether
 * it is handed over; refused, the call fails with {@code EACCES}.
 *
 * <pre>{@code
 * byte[] secret = "secret".getBytes();
 * Policy p = n -> n.nr() == Notification.OPENAT && n.readPath(1) > 0 && n.pathContains(secret)
 *         ? Answer.error(13) : Answer.BROKER;
 * }</pre>
 */
@FunctionalInterface
public interface Policy {
    /** The answer for one notified call. */
    Answer decide(Notification call);

    /**
     * After a {@link Answer#BROKER} answer, with the file opened: whether to hand it over (false
     * answers {@code EACCES}). Only regular files and requested directories reach this. The default
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
