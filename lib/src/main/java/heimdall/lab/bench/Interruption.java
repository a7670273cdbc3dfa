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
        SIGHUP("HUP", 1, "hung up (SIGHUP)");

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
                if (c.javaName.equals(s.getName())) {
                    return c;
                }
            }
            throw new IllegalArgumentException(s.getName());
        }
    }

    private final AtomicReference<Cause> cause = new AtomicReference<>();
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private volatile boolean closed;

    private Interruption() {}

    /** Starts catching SIGINT, SIGTERM and SIGHUP until {@link #close()}. */
    public static Interruption catchSignals() {
        Interruption i = new Interruption();
        for (Cause c : Cause.values()) {
            Signal s = new Signal(c.javaName);
            try {
                i.previous.put(s, Signal.handle(s, i::handle));
            } catch (IllegalArgumentException reserved) {
                // the JVM keeps this one (-Xrs, or ignored since start): its default applies
            }
        }
        return i;
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
        previous.forEach((s, old) -> {
            try {
                Signal.handle(s, old);
            } catch (IllegalArgumentException e) {
                // cannot happen for a signal we could install ours on; nothing to restore
            }
        });
    }
}
