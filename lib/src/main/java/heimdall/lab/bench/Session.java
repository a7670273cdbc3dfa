package heimdall.lab.bench;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One run of a measurement, as its body sees it: the results folder it writes, where its progress
 * lines go, and its stop state. A measuring loop asks its session, and only its session, whether to
 * leave off ({@link #stopRequested()} between runs, rounds and batches; {@link #checkpoint()} where
 * nothing partial is kept) and hands it a run's failure ({@link #stopOn}).
 *
 * <p>What stops a session from outside: the first SIGINT, SIGTERM or SIGHUP while it is open, or a
 * notebook or jshell interrupt ({@link Interruption#requestStop}), both through the process's registry
 * of the running measurement ({@link Interruption}); the running child is ended at once. The framework
 * ({@code reproduce.Stoppable}) opens the session around a reproduction's run, decides from what the body
 * returns how the run ended, and alone writes or clears the folder on a stop.
 *
 * <p>Use with try-with-resources: {@link #close()} ends the session (the signal handlers that were
 * there before are restored by the session that caught them).
 */
public final class Session implements AutoCloseable {
    private final ResultsFolder folder;
    private final Consumer<String> progress;
    private final Interruption stop;
    private final boolean owner;

    private Session(ResultsFolder folder, Consumer<String> progress, Interruption stop, boolean owner) {
        this.folder = folder;
        this.progress = Objects.requireNonNull(progress, "progress");
        this.stop = stop;
        this.owner = owner;
    }

    /**
     * Opens a session that catches SIGINT, SIGTERM and SIGHUP until {@link #close()} (or joins the
     * measurement already open, sharing its stop) and takes a run's failure as its stop.
     */
    public static Session open(ResultsFolder folder, Consumer<String> progress) {
        return new Session(Objects.requireNonNull(folder, "folder"), progress, Interruption.catchSignals(), true);
    }

    /**
     * A session for a body called outside the framework: it shares the stop of the measurement open
     * in this process if there is one, else nothing stops it and a run's failure goes on as an
     * exception ({@link #stopOn} returns false), as such a call always behaved.
     */
    public static Session join(ResultsFolder folder, Consumer<String> progress) {
        return new Session(Objects.requireNonNull(folder, "folder"), progress, Interruption.joinOpen(), true);
    }

    /**
     * As {@link #join(ResultsFolder, Consumer)} for a measurement that writes no folder (a notebook's
     * {@code measure}): {@link #folder()} refuses.
     */
    public static Session join(Consumer<String> progress) {
        return new Session(null, progress, Interruption.joinOpen(), true);
    }

    /** The same session writing {@code other} (a part's own folder): same stop, same progress. */
    public Session in(ResultsFolder other) {
        return new Session(Objects.requireNonNull(other, "folder"), progress, stop, false);
    }

    /** The same session with its progress lines going to {@code lines} (a prefix, a part's own sink). */
    public Session reporting(Consumer<String> lines) {
        return new Session(folder, lines, stop, false);
    }

    /** The folder this run writes. */
    public ResultsFolder folder() {
        if (folder == null) {
            throw new IllegalStateException("this session writes no results folder");
        }
        return folder;
    }

    /** Where this run's progress lines go. */
    public Consumer<String> progress() {
        return progress;
    }

    /** Whether a signal, an interrupt or a failed run asked this run to stop. */
    public boolean stopRequested() {
        return stop.requested();
    }

    /** What asked this run to stop, if anything did. */
    public Optional<Interruption.Cause> stopCause() {
        return stop.cause();
    }

    /** Throws {@link Interruption.Stopped} once a stop was asked: for loops that keep nothing partial. */
    public void checkpoint() {
        Optional<Interruption.Cause> c = stop.cause();
        if (c.isPresent()) {
            throw new Interruption.Stopped(c.get());
        }
    }

    /** Asks this run to stop as a first signal would (its running child is ended). */
    public void requestStop(Interruption.Cause c) {
        stop.stop(Objects.requireNonNull(c, "cause"));
    }

    /**
     * One run threw: when this is a measurement's session the failure becomes its stop (what was
     * measured is kept, marked interrupted naming the failure) and this returns true; the caller
     * rethrows when it returns false. See {@link Interruption#stopOn}.
     */
    public boolean stopOn(RuntimeException e) {
        return stop.stopOn(e);
    }

    /** Ends the session; the session that caught the signals restores the handlers before it. */
    @Override
    public void close() {
        if (owner) {
            stop.close();
        }
    }
}
