package heimdall.lab.bench;

import heimdall.lab.child.MeasuredChild;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP during a measurement: the first one ends the running child
 * and asks the measuring loop to stop, so that what was measured is written and marked as
 * interrupted; a second one ends the process at once (the JVM's own handling, or an exit with
 * 128 + the signal number).
 *
 * <p>Why not a shutdown hook: a hook cannot tell which signal arrived (SIGTERM was announced as
 * Ctrl-C), it races the JVM's halt, and once the JVM is shutting down nothing may exit normally. Here
 * the JVM keeps running, the measuring thread writes the folder and prints its last line, and the
 * command returns {@link #exitStatus()}.
 *
 * <p>Use with try-with-resources: {@link #close()} restores the handlers that were there before (a
 * Jupyter kernel's, for instance). A signal the JVM does not let us handle (ignored when the JVM
 * started, or reserved with {@code -Xrs}) keeps its old behaviour.
 */
public final class Interruption implements AutoCloseable {
    /** A signal that stops a measurement, and how it is named to the user. */
    public enum Cause {
        SIGINT("INT", 2, "interrupted (Ctrl-C)"),
        SIGTERM("TERM", 15, "terminated (SIGTERM)"),
        SIGHUP("HUP", 1, "hung up (SIGHUP)"),
        /** Not a signal: a Jupyter interrupt or jshell's Ctrl-C, asked through {@link #requestStop}. */
        NOTEBOOK(null, 2, "interrupted (notebook/jshell interrupt)");

        private final String javaName;
        private final int number;
        private final String said;

        Cause(String javaName, int number, String said) {
            this.javaName = javaName;
            this.number = number;
            this.said = said;
        }

        /** How the stop is named in messages and files: {@code "interrupted (Ctrl-C)"}. */
        public String said() {
            return said;
        }

        /** Whether a signal is behind it ({@link #NOTEBOOK} is not). */
        public boolean isSignal() {
            return javaName != null;
        }

        /** The signal's number on Linux. */
        public int number() {
            return number;
        }

        /** The status a shell gives a process that this signal ended: 128 + its number. */
        public int exitStatus() {
            return 128 + number;
        }

        static Cause of(Signal s) {
            for (Cause c : values()) {
                if (s.getName().equals(c.javaName)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(s.getName());
        }
    }

    /**
     * The measurement's stop flag, one per process: the interruption opened first and not yet closed.
     * Every measuring loop checks it ({@link #stopRequested()}, {@link #checkpoint()}) so that a signal,
     * a notebook interrupt or an exception stops every reproduction the same way.
     */
    private static final AtomicReference<Interruption> ACTIVE = new AtomicReference<>();

    private final AtomicReference<Cause> cause;
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final boolean owner;
    private volatile boolean closed;

    private Interruption() {
        this(new AtomicReference<>(), true);
    }

    private Interruption(AtomicReference<Cause> shared, boolean owner) {
        this.cause = shared;
        this.owner = owner;
    }

    /**
     * Starts catching SIGINT, SIGTERM and SIGHUP until {@link #close()}, and makes this the process's
     * stop flag. When one is already open (the reproduction framework opened it around a run), this
     * returns a view of that one: same flag, and closing it restores nothing.
     */
    public static Interruption catchSignals() {
        Interruption open = ACTIVE.get();
        if (open != null && !open.closed) {
            return new Interruption(open.cause, false);
        }
        Interruption i = new Interruption();
        for (Cause c : Cause.values()) {
            if (!c.isSignal()) {
                continue;
            }
            Signal s = new Signal(c.javaName);
            try {
                i.previous.put(s, Signal.handle(s, i::handle));
            } catch (IllegalArgumentException reserved) {
                // the JVM keeps this one (-Xrs, or ignored since start): its default applies
            }
        }
        ACTIVE.set(i);
        return i;
    }

    /**
     * Whether the process's open interruption (if any) asked the measurement to stop: the check a
     * measuring loop makes between runs, rounds and batches.
     */
    public static boolean stopRequested() {
        Interruption open = ACTIVE.get();
        return open != null && open.requested();
    }

    /** What asked the process's open measurement to stop, if anything did. */
    public static Optional<Cause> stopCause() {
        Interruption open = ACTIVE.get();
        return open == null ? Optional.empty() : open.cause();
    }

    /** Throws {@link Stopped} when {@link #stopRequested()}: for loops that keep nothing partial. */
    public static void checkpoint() {
        Interruption open = ACTIVE.get();
        if (open != null && open.requested()) {
            throw new Stopped(open.cause.get());
        }
    }

    /**
     * Asks the open measurement to stop as a first signal would (its running child is ended), for a
     * caller that is not a signal: a notebook interrupt. Returns whether a measurement was open.
     */
    public static boolean requestStop(Cause c) {
        Interruption open = ACTIVE.get();
        if (open == null || open.closed) {
            return false;
        }
        if (open.cause.compareAndSet(null, c)) {
            MeasuredChild.killLive();
        }
        return true;
    }

    /**
     * A measurement left off because a stop was requested, with nothing partial worth keeping; the
     * reproduction framework removes what the run wrote and exits with the cause's status.
     */
    public static final class Stopped extends RuntimeException {
        private final transient Cause cause;

        public Stopped(Cause cause) {
            super(cause.said(), null, false, false);
            this.cause = cause;
        }

        /** What asked the stop. */
        public Cause stopCause() {
            return cause;
        }
    }

    /** An interruption that no signal reaches, for callers that stop in their own way. */
    public static Interruption none() {
        return new Interruption();
    }

    private void handle(Signal s) {
        Cause c = Cause.of(s);
        if (closed) {
            passOn(s, c);
            return;
        }
        if (!cause.compareAndSet(null, c)) {
            // A second signal: the user does not want to wait for the folder to be written.
            passOn(s, c);
            return;
        }
        // The loop checks between children; a child that is running now is ended so it need not finish.
        MeasuredChild.killLive();
    }

    private void passOn(Signal s, Cause c) {
        SignalHandler old = previous.get(s);
        if (old != null && old != SignalHandler.SIG_DFL && old != SignalHandler.SIG_IGN) {
            old.handle(s);
        } else if (old != SignalHandler.SIG_IGN) {
            Runtime.getRuntime().exit(c.exitStatus());
        }
    }

    /** Whether a signal asked the measurement to stop. */
    public boolean requested() {
        return cause.get() != null;
    }

    /** The signal that asked it, if one did. */
    public Optional<Cause> cause() {
        return Optional.ofNullable(cause.get());
    }

    /** 128 + the signal's number when interrupted, else 0 (the caller's own status applies). */
    public int exitStatus() {
        return cause().map(Cause::exitStatus).orElse(0);
    }

    /** Restores the handlers that were installed before. */
    @Override
    public void close() {
        closed = true;
        if (!owner) {
            return;
        }
        ACTIVE.compareAndSet(this, null);
        previous.forEach((s, old) -> {
            try {
                Signal.handle(s, old);
            } catch (IllegalArgumentException e) {
                // cannot happen for a signal we could install ours on; nothing to restore
            }
        });
    }
}
