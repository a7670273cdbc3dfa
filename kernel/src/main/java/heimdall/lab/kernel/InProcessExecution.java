package heimdall.lab.kernel;

import heimdall.lab.bench.Interruption;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControl.UserException;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * Runs JShell snippets inside the kernel's own JVM, so a cell's value is the live object (an image,
 * a table, a chart) that the kernel can render, not JShell's string form of it.
 *
 * <p>Each snippet runs on a fresh worker thread so that a timeout ({@code IJAVA_TIMEOUT}) or an
 * interrupt from Jupyter can abandon it without taking the kernel's message loop down with it. The
 * value handed back to JShell is a key; {@link #take(String)} exchanges it for the object.
 *
 * <p>How a snippet is stopped (a notebook interrupt, jshell's Ctrl-C, the timeout), in this order:
 * <ol>
 *   <li>cooperatively: when a measurement of the library is running, its stop flag is raised
 *       ({@link Interruption#requestStop}, the same flag Ctrl-C raises in {@code ./lab reproduce}: the
 *       running child is ended, the measuring loop leaves off between runs and writes what it measured
 *       marked interrupted) and the snippet gets {@link #GRACE_MILLIS} to end by itself. The thread is
 *       not interrupted meanwhile: an interrupt closes the NIO channels the results folder is being
 *       written through (ClosedByInterruptException), which would lose what was measured. The flag is
 *       asked for again while the snippet runs, so a measurement that opens just after the stop
 *       (Ctrl-C while {@code run()} prepares it) is stopped the same way. Otherwise (after
 *       {@link #PENDING_MILLIS}, or once the grace is over) the worker thread is interrupted
 *       ({@link Thread#interrupt}: sleeps, waits and interruptible I/O end) and given
 *       {@link #SHORT_GRACE_MILLIS};</li>
 *   <li>snippet code that checks nothing (a spinning loop written in the cell): since JShell stopped
 *       using Thread.stop (JDK 22+; checked here on Temurin 25), its {@link LocalExecutionControl}
 *       puts a stop check before every branch instruction of every snippet class it loads, and its
 *       {@code stop()} makes those checks throw ThreadDeath, so the loop ends (library code is not
 *       instrumented: it stops through the flag above). On JDK 17 to 19 the worker is ended with
 *       {@code Thread.stop} after the grace. On JDK 20 and 21 (not installed here to check) Thread.stop
 *       throws and, if that JShell still relies on it, a loop that checks nothing keeps its thread and
 *       a CPU until the kernel is restarted, said on stderr;</li>
 *   <li>the kernel answers either way: the cell ends with "Evaluation interrupted." and the next
 *       cell runs.</li>
 *   <li>a snippet that ended by itself keeps its own outcome, stopped or not: its value (the
 *       interrupted measurement, in a variable it declares), or its exception
 *       ({@link Interruption.Stopped}: stopped before a run completed). One stopped the hard way
 *       reports {@link Interruption.Stopped} with the reason: the jshell tool never shows a silent
 *       {@code null}.</li>
 * </ol>
 */
final class InProcessExecution extends LocalExecutionControl {
    private static final String KEY_PREFIX = "\u0000heimdall-value-";

    /**
     * How long an interrupted snippet gets to end by itself (a measurement ending its child and
     * writing its results folder) before it is stopped the hard way or abandoned.
     */
    static final long GRACE_MILLIS = 20_000;

    /** How long an interrupted snippet of the user's own gets before it is stopped the hard way. */
    static final long SHORT_GRACE_MILLIS = 1_000;

    /**
     * How long a stop keeps asking for a measurement to take it before the snippet's thread is
     * interrupted: a Ctrl-C a moment before {@code run()} opens its measurement still stops it
     * cooperatively (an interrupted thread would fail the measurement's own waits instead).
     */
    static final long PENDING_MILLIS = 500;

    private static final long POLL_MILLIS = 20;

    private final Map<String, Object> values = new ConcurrentHashMap<>();
    private final AtomicLong nextKey = new AtomicLong();
    private final long timeoutMillis;
    private final AtomicReference<Thread> running = new AtomicReference<>();
    private final AtomicReference<CountDownLatch> stopping = new AtomicReference<>();
    private volatile String stopReason;
    private volatile boolean measuring;
    private final boolean liveValues;

    InProcessExecution(long timeoutMillis) {
        this(timeoutMillis, true);
    }

    /**
     * @param liveValues whether values are handed back as keys for {@link #take} (the kernel renders
     *     the objects) or as JShell's usual strings (the jshell tool, {@link JShellExecution})
     */
    InProcessExecution(long timeoutMillis, boolean liveValues) {
        this.timeoutMillis = timeoutMillis;
        this.liveValues = liveValues;
    }

    /** A provider that hands JShell this one instance, so the kernel keeps a handle on it. */
    ExecutionControlProvider provider() {
        InProcessExecution self = this;
        return new ExecutionControlProvider() {
            @Override
            public String name() {
                return "heimdall-in-process";
            }

            @Override
            public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
                return self;
            }
        };
    }

    /**
     * The object behind a value string JShell reported, removed from the table; {@code null} when the
     * string is not one of ours (JShell's own rendering of a value).
     */
    Object take(String valueString) {
        if (valueString == null || !valueString.startsWith(KEY_PREFIX)) {
            return null;
        }
        return values.remove(valueString);
    }

    static boolean isKey(String valueString) {
        return valueString != null && valueString.startsWith(KEY_PREFIX);
    }

    /** Why the last snippet was stopped (timeout or interrupt), or null; reading clears it. */
    String takeStopReason() {
        String r = stopReason;
        stopReason = null;
        return r;
    }

    /** Does nothing: run through {@link LocalExecutionControl}'s own invoke to arm its stop checks. */
    public static void arm() {
        // JShell 22+ resets its "stop every snippet" flag (and loads the class its checks call) in invoke
    }

    private static final Method ARM;

    static {
        try {
            ARM = InProcessExecution.class.getMethod("arm");
            ARM.setAccessible(true); // JShell's module calls it; the class is not public
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    protected String invoke(Method doit) throws Exception {
        // LocalExecutionControl's own invoke (a no-op here) clears a stop left from the last interrupt
        // and, on JDK 22+, loads the class the instrumented snippet code calls for its stop checks.
        // It also sets the JVM's default uncaught-exception handler (to catch its own threads' stops):
        // the kernel's is put back.
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        try {
            super.invoke(ARM);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
        stopReason = null; // the jshell tool never takes it: a stop is this snippet's only
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        Thread worker = new Thread(
                () -> {
                    try {
                        result.set(doit.invoke(null));
                    } catch (Throwable t) {
                        failure.set(t);
                    } finally {
                        done.countDown();
                        stop.countDown();
                    }
                },
                "cell");
        worker.setDaemon(true);
        // Service lookups in user code should see jars added with %classpath/%jars.
        worker.setContextClassLoader(doit.getDeclaringClass().getClassLoader());
        // Notebook.eval runs a snippet from inside a running one: the outer one is put back after it.
        Thread outer = running.get();
        CountDownLatch outerStopping = stopping.get();
        stopping.set(stop);
        running.set(worker);
        worker.start();
        try {
            boolean ended = timeoutMillis > 0 ? stop.await(timeoutMillis, TimeUnit.MILLISECONDS) : awaitForever(stop);
            if (!ended) {
                stopReason = "Evaluation timed out after " + timeoutMillis + " ms (IJAVA_TIMEOUT).";
                askToStop(worker);
            }
            if (done.getCount() > 0) {
                stopAndWait(worker, done);
            }
        } finally {
            running.set(outer);
            stopping.set(outerStopping);
            measuring = false;
        }
        Throwable t = failure.get();
        boolean ended = done.getCount() == 0;
        if (stopReason != null
                && (!ended || t instanceof InvocationTargetException ite && ite.getCause() instanceof ThreadDeath)) {
            // Stopped the hard way, or abandoned: no value, and the user is told why (JShell's own
            // StoppedException prints nothing in the jshell tool, and a variable stays null silently).
            throw stoppedWithoutValue();
        }
        // Ended by itself, stopped or not: its own outcome stands. A measurement stopped cooperatively
        // returns the runs completed (marked interrupted) or throws Interruption.Stopped with its reason.
        if (t != null) {
            if (t instanceof InvocationTargetException ite && ite.getCause() instanceof ThreadDeath) {
                throw stoppedWithoutValue();
            }
            throw (Exception) (t instanceof Exception ? t : new InvocationTargetException(t));
        }
        if (!liveValues) {
            return valueString(result.get());
        }
        String key = KEY_PREFIX + nextKey.incrementAndGet();
        Object value = result.get();
        if (value != null) {
            values.put(key, value);
        }
        return key;
    }

    /**
     * The stop sequence, once a stop was asked and the snippet still runs. A measurement may open only
     * after the stop arrived (the snippet was still preparing it: the stop flag is per measurement), so
     * the flag is asked for again and again while the snippet runs; once a measurement took it, the
     * snippet gets {@link #GRACE_MILLIS} to end its child and return what it measured. Otherwise, after
     * {@link #PENDING_MILLIS}, the worker is interrupted (and JShell's own stop armed), then given
     * {@link #SHORT_GRACE_MILLIS}, then stopped the hard way.
     */
    private void stopAndWait(Thread worker, CountDownLatch done) throws InterruptedException {
        long now = System.nanoTime();
        long interruptAt = now + TimeUnit.MILLISECONDS.toNanos(measuring ? GRACE_MILLIS : PENDING_MILLIS);
        long hardAt = Long.MAX_VALUE;
        boolean took = measuring;
        while (!done.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            now = System.nanoTime();
            if (Interruption.requestStop(Interruption.Cause.NOTEBOOK) && !took) {
                took = true;
                measuring = true;
                interruptAt = now + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
                hardAt = Long.MAX_VALUE;
            }
            if (hardAt == Long.MAX_VALUE && now - interruptAt >= 0) {
                interrupt(worker);
                hardAt = now + TimeUnit.MILLISECONDS.toNanos(SHORT_GRACE_MILLIS);
            } else if (hardAt != Long.MAX_VALUE && now - hardAt >= 0) {
                hardStop(worker, done);
                return;
            }
        }
    }

    /** What a snippet stopped before it returned reports: {@link Interruption.Stopped} and why. */
    private UserException stoppedWithoutValue() {
        String why = stopReason != null ? stopReason : "Evaluation interrupted.";
        return new UserException(
                Interruption.Cause.NOTEBOOK.said() + ": " + why
                        + " The snippet was stopped before it returned: no value (a variable it declares stays unset).",
                Interruption.Stopped.class.getName(),
                new StackTraceElement[0]);
    }

    private static boolean awaitForever(CountDownLatch done) throws InterruptedException {
        done.await();
        return true;
    }

    /** Stops the running snippet (Jupyter's interrupt request, jshell's Ctrl-C). */
    @Override
    public void stop() {
        Thread worker = running.get();
        if (worker != null) {
            stopReason = "Evaluation interrupted.";
            askToStop(worker);
        }
    }

    /**
     * The cooperative stop: the library's stop flag when a measurement is open (its child ended, its
     * loop leaves off and writes what it measured). Then {@link #invoke} stops waiting and goes on
     * with {@link #stopAndWait}: the flag again for a measurement opened later, the thread's interrupt.
     */
    private void askToStop(Thread worker) {
        measuring = Interruption.requestStop(Interruption.Cause.NOTEBOOK);
        CountDownLatch s = stopping.get();
        if (s != null) {
            s.countDown();
        }
    }

    /** The thread's interrupt, and JShell's own stop (JDK 22+: the snippet classes' stop checks throw). */
    private void interrupt(Thread worker) {
        worker.interrupt();
        try {
            super.stop();
        } catch (Exception | Error e) {
            // JDK 17-21: JShell's stop uses Thread.stop on its own threads (none of ours); nothing to do
        }
    }

    /**
     * A snippet that ignored every cooperative stop: ended with Thread.stop where the JDK still has
     * it (17-19); user code in a notebook has no invariants the kernel relies on, and the alternative
     * is a kernel that never answers again. Where it does not (20+), the thread is abandoned.
     */
    @SuppressWarnings({"deprecation", "removal"})
    private static void hardStop(Thread worker, CountDownLatch done) throws InterruptedException {
        try {
            worker.stop();
            done.await(1000, TimeUnit.MILLISECONDS);
        } catch (UnsupportedOperationException e) {
            System.err.println("heimdall-lab kernel: the interrupted snippet checks no interrupt and this JDK ("
                    + Runtime.version().feature()
                    + ") can stop it neither with Thread.stop nor with JShell's stop checks; it keeps running on its "
                    + "own thread"
                    + " (restart the kernel to get its CPU back). The kernel goes on with the next cell.");
        }
    }
}
