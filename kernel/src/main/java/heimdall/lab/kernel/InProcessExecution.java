package heimdall.lab.kernel;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jshell.execution.DirectExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * Runs JShell snippets inside the kernel's own JVM, so a cell's value is the live object (an image,
 * a table, a chart) that the kernel can render, not JShell's string form of it.
 *
 * <p>Each snippet runs on a fresh worker thread so that a timeout ({@code IJAVA_TIMEOUT}) or an
 * interrupt from Jupyter can abandon it without taking the kernel's message loop down with it. The
 * value handed back to JShell is a key; {@link #take(String)} exchanges it for the object.
 */
final class InProcessExecution extends DirectExecutionControl {
    private static final String KEY_PREFIX = "\u0000heimdall-value-";

    private final Map<String, Object> values = new ConcurrentHashMap<>();
    private final AtomicLong nextKey = new AtomicLong();
    private final long timeoutMillis;
    private final AtomicReference<Thread> running = new AtomicReference<>();
    private volatile String stopReason;

    InProcessExecution(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
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

    @Override
    protected String invoke(Method doit) throws Exception {
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            try {
                result.set(doit.invoke(null));
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        }, "cell");
        worker.setDaemon(true);
        // Service lookups in user code should see jars added with %classpath/%jars.
        worker.setContextClassLoader(doit.getDeclaringClass().getClassLoader());
        running.set(worker);
        worker.start();
        try {
            boolean finished = timeoutMillis > 0
                    ? done.await(timeoutMillis, TimeUnit.MILLISECONDS)
                    : awaitForever(done);
            if (!finished) {
                stopReason = "Evaluation timed out after " + timeoutMillis + " ms (IJAVA_TIMEOUT).";
                kill(worker);
                throw new StoppedException();
            }
        } finally {
            running.set(null);
        }
        if (stopReason != null) {
            throw new StoppedException();
        }
        Throwable t = failure.get();
        if (t != null) {
            if (t instanceof ThreadDeath) {
                throw new StoppedException();
            }
            throw (Exception) (t instanceof Exception ? t : new java.lang.reflect.InvocationTargetException(t));
        }
        String key = KEY_PREFIX + nextKey.incrementAndGet();
        Object value = result.get();
        if (value != null) {
            values.put(key, value);
        }
        return key;
    }

    private static boolean awaitForever(CountDownLatch done) throws InterruptedException {
        done.await();
        return true;
    }

    /** Interrupts the running snippet (Jupyter's interrupt request). */
    @Override
    public void stop() {
        Thread worker = running.get();
        if (worker != null) {
            stopReason = "Evaluation interrupted.";
            Thread reaper = new Thread(() -> {
                try {
                    kill(worker);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "cell-reaper");
            reaper.setDaemon(true);
            reaper.start();
        }
    }

    /**
     * A snippet that ignores interruption is stopped the hard way; user code in a notebook has no
     * invariants the kernel relies on, and the alternative is a kernel that never answers again.
     */
    @SuppressWarnings({"deprecation", "removal"})
    private static void kill(Thread worker) throws InterruptedException {
        worker.interrupt();
        worker.join(1000);
        if (worker.isAlive()) {
            try {
                worker.stop();
            } catch (UnsupportedOperationException e) {
                // JDK 20+ removed Thread.stop: the snippet keeps its thread until it ends by itself.
                System.err.println("heimdall-lab kernel: cannot stop a snippet that ignores interrupts on this JDK;"
                        + " restart the kernel to get its CPU back");
            }
            worker.join(1000);
        }
    }
}
