package heimdall.lab.bench;

import heimdall.lab.ExitCodes;
import heimdall.lab.child.MeasuredChild;
import java.util.LinkedHashMap;
import java.util.List;
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
    /**
     * What stops a measurement, and how it is named to the user: a signal, a notebook interrupt, or a
     * run that failed ({@link #failed}). A class rather than an enum so that a failure can carry its
     * exception; the signals and {@link #NOTEBOOK} are constants compared by identity.
     */
    public static final class Cause {
        /** Ctrl-C. */
        public static final Cause SIGINT = new Cause("SIGINT", "INT", 2, "interrupted (Ctrl-C)", null);
        /** {@code kill}, a service manager, a container stop. */
        public static final Cause SIGTERM = new Cause("SIGTERM", "TERM", 15, "terminated (SIGTERM)", null);
        /** The terminal went away. */
        public static final Cause SIGHUP = new Cause("SIGHUP", "HUP", 1, "hung up (SIGHUP)", null);
        /** Not a signal: a Jupyter interrupt or jshell's Ctrl-C, asked through {@link #requestStop}. */
        public static final Cause NOTEBOOK =
                new Cause("NOTEBOOK", null, 2, "interrupted (notebook/jshell interrupt)", null);

        private static final List<Cause> SIGNALS = List.of(SIGINT, SIGTERM, SIGHUP);

        private final String name;
        private final String javaName;
        private final int number;
        private final String said;
        private final RuntimeException failure;

        private Cause(String name, String javaName, int number, String said, RuntimeException failure) {
            this.name = name;
            this.javaName = javaName;
            this.number = number;
            this.said = said;
            this.failure = failure;
        }

        /**
         * Not a signal: one run threw, so the measurement stopped as on Ctrl-C (what was measured is
         * kept, marked interrupted), naming the exception's class and message.
         */
        public static Cause failed(RuntimeException e) {
            return new Cause(
                    "FAILED",
                    null,
                    0,
                    "failed (" + e.getClass().getName()
                            + (e.getMessage() == null
                                    ? ""
                                    : ": " + e.getMessage().strip()) + ")",
                    e);
        }

        /** {@code SIGINT}, {@code SIGTERM}, {@code SIGHUP}, {@code NOTEBOOK} or {@code FAILED}. */
        public String name() {
            return name;
        }

        /** How the stop is named in messages and files: {@code "interrupted (Ctrl-C)"}. */
        public String said() {
            return said;
        }

        /** Whether a signal is behind it ({@link #NOTEBOOK} and a failure are not). */
        public boolean isSignal() {
            return javaName != null;
        }

        /** The exception behind a {@link #failed} stop; empty for a signal or an interrupt. */
        public Optional<RuntimeException> failure() {
            return Optional.ofNullable(failure);
        }

        /**
         * Throws the exception behind a {@link #failed} stop, for a caller that has written what it
         * keeps and now lets the error end the command as it would have (its message, its status);
         * nothing for a signal or an interrupt.
         */
        public void rethrowFailure() {
            if (failure != null) {
                throw failure;
            }
        }

        /** The signal's number on Linux (0 for a failure). */
        public int number() {
            return number;
        }

        /**
         * The status a shell gives a process that this signal ended: 128 + its number. For a failure,
         * the status {@code ./lab} gives that exception ({@link ExitCodes#of}, as {@code cli.ExitStatus}
         * prints it): 1 a
         * refusal, 2 bad input or a file error, 3 a bug.
         */
        public int exitStatus() {
            return failure == null ? ExitCodes.ofSignal(number) : ExitCodes.of(failure);
        }

        @Override
        public String toString() {
            return name;
        }

        static Cause of(Signal s) {
            for (Cause c : SIGNALS) {
                if (s.getName().equals(c.javaName)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(s.getName());
        }
    }

    /**
     * The registry of the running measurement, one per process: the interruption opened first and not
     * yet closed, which a signal or a notebook interrupt ({@link #requestStop}) stops. No measuring loop
     * reads it: each asks its own {@link Session}, which holds this interruption or a view of it.
     */
    private static final AtomicReference<Interruption> ACTIVE = new AtomicReference<>();

    private final AtomicReference<Cause> cause;
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final boolean owner;
    /** The interruption that caught the signals: this one, or the one a view shares its stop with. */
    private final Interruption root;
    /** Whether this is a measurement's (signals caught or joined): only then is a failure its stop. */
    private final boolean measuring;

    private volatile boolean closed;

    private Interruption(boolean measuring) {
        this.cause = new AtomicReference<>();
        this.owner = true;
        this.root = this;
        this.measuring = measuring;
    }

    /** A view of {@code open}: same stop; closing it restores nothing. */
    private Interruption(Interruption open) {
        this.cause = open.cause;
        this.owner = false;
        this.root = open;
        this.measuring = true;
    }

    /**
     * Starts catching SIGINT, SIGTERM and SIGHUP until {@link #close()}, and makes this the process's
     * stop flag. When one is already open (the reproduction framework opened it around a run), this
     * returns a view of that one: same flag, and closing it restores nothing.
     */
    public static Interruption catchSignals() {
        Interruption open = ACTIVE.get();
        if (open != null && !open.closed) {
            return new Interruption(open);
        }
        Interruption i = new Interruption(true);
        for (Cause c : Cause.SIGNALS) {
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
     * Whether the process's open measurement (if any) was asked to stop: for an observer outside
     * it (a test, a caller that started one). A measurement's own body asks its {@link Session}.
     */
    public static boolean stopRequested() {
        Interruption open = ACTIVE.get();
        return open != null && open.requested();
    }

    /**
     * Asks the open measurement to stop as a first signal would (its running child is ended), for a
     * caller that is not a signal: a notebook interrupt. This is the registry's one way in from
     * outside: the kernel's interrupt reaches the running session here. Returns whether a measurement
     * was open.
     */
    public static boolean requestStop(Cause c) {
        Interruption open = ACTIVE.get();
        if (open == null || open.closed) {
            return false;
        }
        open.stop(c);
        return true;
    }

    /** Stops this measurement with {@code c} unless something stopped it already; its live child is ended. */
    void stop(Cause c) {
        if (cause.compareAndSet(null, c)) {
            MeasuredChild.killLive();
        }
    }

    /**
     * A run inside this measurement threw: the measurement stops as on a first signal (its live
     * children are ended, the loop leaves off at its next check) with {@link Cause#failed} as the
     * cause, so that what was measured is written marked interrupted, naming the failure, and the
     * command then exits with the exception's status. A measuring loop calls this (through its
     * {@link Session}) from the catch around one run and rethrows when it returns false: this is not a
     * measurement's interruption ({@link #none()}, a caller outside the framework), so the exception
     * goes on as before. When a stop was already asked (a signal ended the child, which is why the run
     * threw), that stop stands and the exception is its consequence.
     *
     * @return whether this measurement took the failure as its stop
     */
    boolean stopOn(RuntimeException e) {
        if (closed || root.closed || !measuring) {
            return false;
        }
        stop(Cause.failed(e));
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
        return new Interruption(false);
    }

    /**
     * The process's open measurement, joined (same stop, closing it restores nothing), or
     * {@link #none()} when none is open: what a body run outside the framework stops by, as the
     * process's open measurement always decided.
     */
    static Interruption joinOpen() {
        Interruption open = ACTIVE.get();
        return open != null && !open.closed ? new Interruption(open) : none();
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

    /** Whether a signal, an interrupt or a failed run asked the measurement to stop. */
    public boolean requested() {
        return cause.get() != null;
    }

    /** What asked it, if anything did. */
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
