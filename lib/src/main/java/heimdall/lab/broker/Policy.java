package heimdall.lab.broker;

/**
 * A notebook's own supervision rule: decides the {@link Answer} for each notified call. Run by the
 * Java supervisor on its pinned thread, once per call, so it should be quick and should not allocate
 * if its figures are to be compared with the native supervisor's.
 *
 * <p>The {@link Notification} passed in is a reusable view, valid only during the call to
 * {@link #decide}; copy what you need to keep.
 *
 * <pre>{@code
 * byte[] secret = "secret".getBytes();
 * Policy p = n -> n.nr() == Notification.OPENAT && n.readPath(1) > 0 && n.pathContains(secret)
 *         ? Answer.error(13) : Answer.BROKER;
 * }</pre>
 */
@FunctionalInterface
public interface Policy {
    Answer decide(Notification call);

    /** The same answer for every call. */
    static Policy always(Answer answer) {
        if (answer == null) {
            throw new IllegalArgumentException("answer is null");
        }
        return call -> answer;
    }
}
