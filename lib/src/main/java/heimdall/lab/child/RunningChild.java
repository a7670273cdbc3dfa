package heimdall.lab.child;

import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;
import java.time.Duration;
import java.util.Arrays;

/**
 * A measured child that is running (or has ended and not been reaped). Thread-safe: one thread may
 * {@link #await()} while another takes the {@link #listenerFd()} and serves it, and any thread may
 * {@link #kill()}. {@link #close()} kills the child if it still runs, reaps it and frees everything,
 * the listener included; the handle is useless afterwards.
 */
public final class RunningChild implements AutoCloseable {
    private final ChildSpec spec;
    private final long handle;
    private final int pid;

    // Lock order: waiting -> listening -> state. Only `state` is held briefly; the two blocking native
    // calls (wait, listener receipt) hold their own lock, so kill() always gets through.
    private final Object state = new Object(); // guards freed and the quick native calls
    private final Object listening = new Object(); // serialises listener receipt and close
    private final Object waiting = new Object(); // serialises await and the final reap
    private boolean freed;
    private ChildResult result;
    private int listener = -1;
    private boolean listenerGone;

    RunningChild(ChildSpec spec, long handle) {
        this.spec = spec;
        this.handle = handle;
        this.pid = NativeLib.hl_run_pid(handle);
    }

    public ChildSpec spec() {
        return spec;
    }

    /** The child's process id (for /proc lookups; signal it through {@link #kill()}, which cannot hit a reused pid). */
    public int pid() {
        return pid;
    }

    /**
     * The step the child has reached, as it published it (read from shared memory, no system call in
     * the child). After the child ended, the phase it ended in.
     */
    public Phase phase() {
        synchronized (state) {
            if (freed) {
                return result != null ? phaseOf(result.fate()) : Phase.SPAWNED;
            }
            return Phase.of(NativeLib.hl_run_phase(handle));
        }
    }

    /**
     * Waits until the child has published {@code phase} or a later one, or has ended; for a supervisor
     * that must know the child is past its handover and into its calls. Polls every 100 µs.
     *
     * @return whether the phase was reached (false: the timeout passed, or the child ended before it)
     */
    public boolean awaitPhase(Phase phase, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (phase().compareTo(phase) < 0) {
            if (!alive()) {
                return phase().compareTo(phase) >= 0; // it may have published the phase just before ending
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(0, 100_000);
        }
        return true;
    }

    /** Whether the child is still running (it may have ended and not yet be reaped). */
    public boolean alive() {
        synchronized (state) {
            return !freed && NativeLib.hl_run_alive(handle) == 1;
        }
    }

    private static Phase phaseOf(Fate fate) {
        return fate instanceof Fate.Killed k ? k.phase() : ((Fate.Exited) fate).phase();
    }

    /** {@link #listenerFd(Duration)} with a 10 s timeout. */
    public int listenerFd() {
        return listenerFd(Duration.ofSeconds(10));
    }

    /**
     * The seccomp listener the child handed over ({@code spec.newListener()}), received on first use.
     * It stays owned by this object: it is closed by {@link #closeListener()} or {@link #close()},
     * never by the caller.
     *
     * @throws Refusal when the spec asked for no listener, the child died before handing it over,
     *     the timeout passed, or the listener was already closed
     */
    public int listenerFd(Duration timeout) {
        synchronized (listening) {
            if (!spec.newListener()) {
                throw new IllegalStateException("the spec asked for no listener");
            }
            if (listenerGone) {
                throw new IllegalStateException("the listener was closed");
            }
            if (listener >= 0) {
                return listener;
            }
            synchronized (state) {
                checkOpen();
            }
            long ms = Math.max(0, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
            int fd = NativeLib.hl_run_listener(handle, (int) ms);
            if (fd < 0) {
                String why = fd == -Errno.ETIMEDOUT
                        ? "none arrived within " + timeout
                        : fd == -Errno.EPIPE ? "the child ended without handing it over" : Errno.name(-fd);
                throw new Refusal("no seccomp listener from child " + pid + ": " + why);
            }
            listener = fd;
            return fd;
        }
    }

    /**
     * Closes the parent's listener. With the child's own copy closed too, no supervisor is left: a
     * notified call then fails with {@code ENOSYS} instead of waiting.
     */
    public void closeListener() {
        synchronized (listening) {
            if (listener >= 0) {
                NativeLib.hl_close(listener);
                listener = -1;
            }
            listenerGone = true;
        }
    }

    /**
     * Starts the partner of a {@link Call#PINGPONG} (or {@link Call.Kind#PINGPONG_OPENAT}) child: a native thread of
     * this process that answers
     * each byte the child writes with one byte back, pinned to {@code cpu}, or with -1 free to run on the
     * CPUs of {@code cpuSet} (0: this thread's affinity). It ends when the child does (its pipe closes)
     * and is joined when the child is freed. Start it once, before {@link #await()}: until then the child
     * waits for its first answer.
     *
     * @throws IllegalStateException for a child that is no ping-pong, a partner already started, or a
     *     thread that could not be started (the errno named)
     */
    public void startPartner(int cpu, long cpuSet) {
        if (!spec.call().pingsPartner()) {
            throw new IllegalStateException(
                    "a partner answers a ping-pong child, not " + spec.call().label());
        }
        synchronized (state) {
            if (freed) {
                throw new IllegalStateException("the child is already freed");
            }
            int r = NativeLib.hl_pong_start(handle, cpu, cpuSet);
            if (r < 0) {
                throw new IllegalStateException("cannot start the ping-pong partner (CPU " + cpu + ", set 0x"
                        + Long.toHexString(cpuSet) + "): " + Errno.name(-r));
            }
        }
    }

    /** Sends SIGKILL (through a pidfd, so never to a reused pid); a no-op once the child is reaped. */
    public void kill() {
        synchronized (state) {
            if (!freed) {
                NativeLib.hl_run_kill(handle);
            }
        }
    }

    /** Waits for the child to end, reaps it and returns what it left; later calls return the same result. */
    public ChildResult await() {
        synchronized (waiting) {
            if (result != null) {
                return result;
            }
            synchronized (state) {
                checkOpen();
            }
            long[] samples = new long[spec.mode().batch() ? 0 : (int) spec.count()];
            long[] r = new long[NativeLib.R_LEN];
            // No lock on state here: kill() must get through while this blocks. free() waits on `waiting`.
            int rc = NativeLib.hl_run_wait(handle, samples, samples.length, r, r.length);
            if (rc < 0) {
                throw new IllegalStateException("waitid for child " + pid + ": " + Errno.name(-rc));
            }
            result = toResult(r, samples);
            MeasuredChild.forget(this);
            return result;
        }
    }

    /** Kills the child if it still runs, reaps it, closes the listener and frees the native handle. */
    @Override
    public void close() {
        kill();
        synchronized (waiting) {
            synchronized (state) {
                if (freed) {
                    return;
                }
            }
            if (result == null) {
                await();
            }
            synchronized (listening) {
                if (listener >= 0) {
                    NativeLib.hl_close(listener);
                    listener = -1;
                }
                synchronized (state) {
                    NativeLib.hl_run_free(handle);
                    freed = true;
                }
            }
        }
        MeasuredChild.forget(this);
    }

    private void checkOpen() {
        if (freed) {
            throw new IllegalStateException("child " + pid + " was closed");
        }
    }

    private ChildResult toResult(long[] r, long[] samples) {
        Phase phase = Phase.of(r[NativeLib.R_PHASE]);
        int program = (int) r[NativeLib.R_PROG];
        Fate fate = r[NativeLib.R_HOW] == 1
                ? new Fate.Exited((int) r[NativeLib.R_CODE], phase, program, (int) r[NativeLib.R_SETUP_ERRNO])
                : new Fate.Killed((int) r[NativeLib.R_CODE], phase, program, spec.call(), r[NativeLib.R_HOW] == 3);
        long done = r[NativeLib.R_DONE];
        if (done < samples.length) {
            samples = Arrays.copyOf(samples, (int) Math.max(0, done));
        }
        return new ChildResult(
                spec,
                samples,
                r[NativeLib.R_BATCH_NS],
                (int) r[NativeLib.R_CPU],
                fate,
                r[NativeLib.R_LAST_RET],
                (int) r[NativeLib.R_LAST_ERRNO],
                (int) r[NativeLib.R_LANDLOCK_ABI],
                (int) r[NativeLib.R_LANDLOCK_STEP]);
    }
}
