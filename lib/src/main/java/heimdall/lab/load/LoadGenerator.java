package heimdall.lab.load;

import com.fasterxml.jackson.annotation.JsonValue;
import heimdall.lab.Refusal;
import heimdall.lab.sys.Cpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Host load made to order: one thread per {@link Worker}, pinned through JNA to its CPU, at its nice
 * level, busy (spinning or making system calls) for its intensity's share of every 10 ms. Start it,
 * measure, {@link #stop()} it: stop ends and joins every thread and reports what each actually ran
 * (the CPU and nice it was granted, its busy time, how many loops or calls it made).
 *
 * <pre>{@code
 * try (LoadGenerator load = LoadGenerator.start(Worker.everyCpu(0))) {
 *     ... measure ...
 *     LoadGenerator.Report report = load.stop();
 * }
 * }</pre>
 *
 * <p>The threads are daemon threads, so a forgotten generator never keeps the JVM alive; close it
 * anyway, since its threads take CPU from everything else until then.
 */
public final class LoadGenerator implements AutoCloseable {
    private final List<Runner> runners;
    private final long startedNs;
    private volatile boolean stopping;
    private Report report;

    /**
     * What one worker ran.
     *
     * @param tid its thread's kernel id
     * @param cpuGranted the CPU it ran on after pinning ({@code sched_getcpu}), or where it last ran if unpinned
     * @param niceGranted its nice value as the kernel reports it ({@code /proc/self/task/TID/stat})
     * @param loops spin iterations or system calls made
     * @param busyNs time spent busy
     * @param elapsedNs time from its start to its end
     */
    public record WorkerReport(
            Worker worker, int tid, int cpuGranted, int niceGranted, long loops, long busyNs, long elapsedNs) {
        /** The busy fraction achieved. */
        public double dutyCycle() {
            return elapsedNs == 0 ? 0 : (double) busyNs / elapsedNs;
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("worker", worker.toString());
            m.put("kind", worker.kind().name().toLowerCase(Locale.ROOT));
            m.put("cpu", worker.cpu());
            m.put("nice", worker.nice());
            m.put("intensity", worker.intensity());
            m.put("tid", tid);
            m.put("cpu_granted", cpuGranted);
            m.put("nice_granted", niceGranted);
            m.put("loops", loops);
            m.put("busy_ns", busyNs);
            m.put("elapsed_ns", elapsedNs);
            m.put("duty_cycle", Math.round(dutyCycle() * 1000) / 1000.0);
            return m;
        }
    }

    /** What the generator ran, worker by worker. */
    public record Report(List<WorkerReport> workers, long elapsedNs) {
        /** As {@code environment.json}'s {@code load_ran} holds it. */
        @JsonValue
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("elapsed_ns", elapsedNs);
            m.put("workers", workers.stream().map(WorkerReport::toMap).toList());
            return m;
        }
    }

    private LoadGenerator(List<Runner> runners) {
        this.runners = runners;
        this.startedNs = System.nanoTime();
    }

    /**
     * Starts one thread per worker and returns once every one is pinned, at its nice level and busy.
     *
     * @throws Refusal when a thread cannot be pinned or given its nice level (the others are stopped)
     */
    public static LoadGenerator start(List<Worker> workers) {
        CountDownLatch ready = new CountDownLatch(workers.size());
        List<Runner> runners = new ArrayList<>();
        LoadGenerator g = new LoadGenerator(runners);
        for (int i = 0; i < workers.size(); i++) {
            Runner r = new Runner(g, workers.get(i), ready);
            r.thread = new Thread(r, "heimdall-load-" + i + "-" + workers.get(i));
            r.thread.setDaemon(true);
            runners.add(r);
        }
        runners.forEach(r -> r.thread.start());
        try {
            if (!ready.await(10, TimeUnit.SECONDS)) {
                g.stop();
                throw new Refusal("load generator: the threads did not start within 10 s");
            }
        } catch (InterruptedException e) {
            g.stop();
            Thread.currentThread().interrupt();
            throw new Refusal("load generator: interrupted while starting");
        }
        for (Runner r : runners) {
            if (r.failure != null) {
                g.stop();
                throw new Refusal("load generator: worker " + r.worker + ": " + r.failure);
            }
        }
        return g;
    }

    /** The kernel ids of the running threads, in worker order. */
    public List<Integer> tids() {
        return runners.stream().map(r -> r.tid).toList();
    }

    /** Whether the threads run (started and not yet stopped). */
    public boolean running() {
        return !stopping;
    }

    /** Stops and joins every thread (idempotent) and says what they ran. */
    public synchronized Report stop() {
        if (report != null) {
            return report;
        }
        stopping = true;
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        for (Runner r : runners) {
            try {
                r.thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (r.thread.isAlive()) {
                throw new IllegalStateException("load thread " + r.thread.getName() + " did not stop within 10 s");
            }
        }
        // join() returns when the Java thread has ended; the kernel task goes a moment later.
        for (Runner r : runners) {
            Path task = Path.of("/proc/self/task/" + r.tid);
            while (r.tid > 0 && Files.exists(task) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(100_000);
            }
            if (r.tid > 0 && Files.exists(task)) {
                throw new IllegalStateException("load thread " + r.tid + " still exists 10 s after it was stopped");
            }
        }
        List<WorkerReport> reports = runners.stream()
                .map(r ->
                        new WorkerReport(r.worker, r.tid, r.cpuGranted, r.niceGranted, r.loops, r.busyNs, r.elapsedNs))
                .toList();
        report = new Report(reports, System.nanoTime() - startedNs);
        return report;
    }

    @Override
    public void close() {
        stop();
    }

    /** One worker's thread. Fields are written by the thread and read after join (or after the latch). */
    private static final class Runner implements Runnable {
        final LoadGenerator owner;
        final Worker worker;
        final CountDownLatch ready;
        Thread thread;
        volatile int tid = -1;
        volatile String failure;
        int cpuGranted = -1;
        int niceGranted;
        long loops;
        long busyNs;
        long elapsedNs;
        /** Spin results land here so the JIT cannot drop the loop. */
        @SuppressWarnings("unused")
        volatile long sink;

        Runner(LoadGenerator owner, Worker worker, CountDownLatch ready) {
            this.owner = owner;
            this.worker = worker;
            this.ready = ready;
        }

        @Override
        public void run() {
            try {
                tid = ThreadControl.gettid();
                if (worker.cpu() >= 0) {
                    cpuGranted = Cpus.pinCurrentThread(worker.cpu());
                }
                if (worker.nice() != 0
                        && ThreadControl.setpriority(ThreadControl.PRIO_PROCESS, tid, worker.nice()) != 0) {
                    throw new IllegalStateException("setpriority(" + worker.nice() + ") failed");
                }
                niceGranted = niceOf(tid);
                if (niceGranted != worker.nice()) {
                    throw new IllegalStateException("asked nice " + worker.nice() + ", the kernel says " + niceGranted);
                }
            } catch (RuntimeException e) {
                failure = e.getMessage();
                ready.countDown();
                return;
            }
            // The latch falls after the first chunk of work: start() returns with every thread busy.
            boolean counted = false;
            long start = System.nanoTime();
            long busyPerPeriod = (long) (worker.intensity() * Worker.PERIOD_NS);
            long acc = 0;
            while (!owner.stopping) {
                long periodStart = System.nanoTime();
                long busyEnd = periodStart + busyPerPeriod;
                long now;
                do {
                    if (worker.kind() == Worker.Kind.SPIN) {
                        for (int i = 0; i < 4096; i++) {
                            acc = acc * 6364136223846793005L + 1442695040888963407L;
                        }
                        loops += 4096;
                    } else {
                        for (int i = 0; i < 64; i++) {
                            acc += ThreadControl.getppid();
                        }
                        loops += 64;
                    }
                    now = System.nanoTime();
                    if (!counted) {
                        ready.countDown();
                        counted = true;
                    }
                } while (now < busyEnd && !owner.stopping);
                busyNs += now - periodStart;
                long rest = periodStart + Worker.PERIOD_NS - now;
                if (busyPerPeriod < Worker.PERIOD_NS && rest > 0 && !owner.stopping) {
                    LockSupport.parkNanos(rest);
                }
            }
            if (!counted) {
                ready.countDown();
            }
            sink = acc;
            elapsedNs = System.nanoTime() - start;
            if (worker.cpu() < 0) {
                cpuGranted = Cpus.current();
            }
        }
    }

    /** A thread's nice value, field 19 of {@code /proc/self/task/TID/stat}. */
    static int niceOf(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(f[16]);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the nice value of thread " + tid, e);
        }
    }
}
