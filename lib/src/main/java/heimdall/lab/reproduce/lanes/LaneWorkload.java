package heimdall.lab.reproduce.lanes;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import heimdall.lab.graph.Graph;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * The cooperative workload of seed {@code 002}'s {@code lane_workload}: foreground workers doing real
 * 4 KiB {@code pread}s from a prepared 1 MiB file and 4 KiB {@code write}s to {@code /dev/null}, and one
 * collector alternating {@code getrusage} (through JNA) and {@code sched_yield} ({@link Thread#yield},
 * which HotSpot implements as {@code sched_yield} on Linux). In a checked variant each thread owns a
 * cursor at its assigned entry over shared immutable tables and calls {@link Cursor#step} with the
 * syscall number before each call; the unchecked variant makes the same calls with no check.
 *
 * <p>The workload graph is supplied by construction ({@link #graph()}), for these measured loops
 * only: it is not a projection recorded from this JVM, whose startup, JIT, GC and other threads are
 * not followed. Startup, scheduler, signals and shutdown are not intercepted.
 *
 * <p>Each worker has its own file and {@code /dev/null} channels (a shared {@link FileChannel} would add
 * a lock the workload does not have). {@link FileChannel#read(ByteBuffer, long)} on a direct buffer is one
 * {@code pread64}; {@link FileChannel#write(ByteBuffer)} is one {@code write}. The file is page-cache
 * resident: this is a syscall-heavy loop, not disk throughput.
 */
public final class LaneWorkload {
    /** x86_64 numbers of the workload's calls. */
    public static final int PREAD64 = 17;

    public static final int WRITE = 1;
    public static final int GETRUSAGE = 98;
    public static final int SCHED_YIELD = 24;
    public static final String WORKER = "worker";
    public static final String COLLECTOR = "collector";
    public static final int BLOCK = 4096;
    public static final int FILE_SIZE = 1 << 20;
    static final int BLOCKS = FILE_SIZE / BLOCK;

    private LaneWorkload() {}

    /**
     * The workload graph: entry {@code worker} loops pread64 → write → pread64 ..., entry
     * {@code collector} loops getrusage → sched_yield → getrusage ...; no terminal sites (the loops are
     * cut by the iteration count, not by a thread exit the cursor sees).
     */
    public static Graph graph() {
        return Graph.builder()
                .site(1, PREAD64, "pread64", "worker_loop", false, WORKER)
                .site(2, WRITE, "write", "worker_loop", false)
                .site(3, GETRUSAGE, "getrusage", "collector_loop", false, COLLECTOR)
                .site(4, SCHED_YIELD, "sched_yield", "collector_loop", false)
                .next(1, 2)
                .next(2, 1)
                .next(3, 4)
                .next(4, 3)
                .build();
    }

    /** libc's getrusage and sched_setaffinity, bound directly (no varargs, no per-call allocation). */
    static final class LibcCalls {
        static {
            Native.register(LibcCalls.class, NativeLibrary.getInstance("c"));
        }

        private LibcCalls() {}

        /** {@code who} 0 is RUSAGE_SELF; {@code usage} holds a struct rusage (144 bytes on x86_64). */
        static native int getrusage(int who, long[] usage);

        /** {@code pid} 0: the calling thread. */
        static native int sched_setaffinity(int pid, long cpusetsize, long[] mask);
    }

    /** Restricts the calling thread to {@code cpus} (GRAPH_WORKLOAD_CPUS); null or empty leaves it alone. */
    static void restrictTo(List<Integer> cpus) {
        if (cpus == null || cpus.isEmpty()) {
            return;
        }
        long[] mask = new long[16];
        for (int c : cpus) {
            mask[c / 64] |= 1L << (c % 64);
        }
        if (LibcCalls.sched_setaffinity(0, mask.length * 8L, mask) != 0) {
            throw new IllegalStateException("sched_setaffinity to CPUs " + cpus + ": errno " + Native.getLastError());
        }
    }

    /**
     * Writes the 1 MiB input file (deterministic bytes) into {@code dir}, a folder of the run's own
     * (a {@link heimdall.lab.sys.Scratch}); created exclusively, so anything already at the name
     * (a planted link or FIFO) is an error, never written through.
     */
    public static Path prepareFile(Path dir) {
        Path f = dir.resolve("lanes-input.bin");
        try {
            return SafeFiles.writeNew(f, content());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the lanes input file " + f, e);
        }
    }

    static byte[] content() {
        byte[] data = new byte[FILE_SIZE];
        new SplittableRandom(0x1a9e5L).nextBytes(data);
        return data;
    }

    /** The block worker {@code w} reads at iteration {@code i}: a fixed walk over the file's 256 blocks. */
    static long position(int w, int i) {
        return (long) ((i * 97 + w * 31) % BLOCKS) * BLOCK;
    }

    /** The checksum worker {@code w} must compute over {@code iters} iterations. */
    public static long expectedChecksum(int w, int iters) {
        ByteBuffer all = ByteBuffer.wrap(content()).order(ByteOrder.LITTLE_ENDIAN);
        long sum = 0;
        for (int i = 0; i < iters; i++) {
            int p = (int) position(w, i);
            sum += all.getLong(p) ^ all.getLong(p + BLOCK - 8) * (i + 1);
        }
        return sum;
    }

    /** What one thread did in one batch. */
    public record Counts(
            long reads,
            long readBytes,
            long writes,
            long writtenBytes,
            long rusages,
            long yields,
            long checks,
            long denied,
            long checksum) {}

    /** One batch's outcome: wall nanoseconds from the barrier's release to the last join, and each thread's counts. */
    public record Batch(long nanos, List<Counts> workers, Counts collector) {}

    /**
     * Runs one batch: {@code workers} workers and one collector, {@code iters} iterations each. Threads
     * are created and their channels opened before the clock starts; the clock runs from the release
     * of the start latch to the last join.
     *
     * @param tables the shared tables, or null for the unchecked variant
     */
    public static Batch runBatch(Path file, int workers, int iters, Prepared tables) throws InterruptedException {
        return runBatch(file, workers, iters, tables, List.of());
    }

    /**
     * As {@link #runBatch(Path, int, int, Prepared)}, every thread restricted to {@code cpus} (empty: unrestricted).
     */
    public static Batch runBatch(Path file, int workers, int iters, Prepared tables, List<Integer> cpus)
            throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(workers + 1);
        CountDownLatch go = new CountDownLatch(1);
        Counts[] results = new Counts[workers + 1];
        RuntimeException[] failure = {null};
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            final int id = w;
            Cursor cursor = tables == null ? null : tables.cursor(WORKER);
            threads.add(new Thread(
                    () -> {
                        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
                                FileChannel out = FileChannel.open(Path.of("/dev/null"), StandardOpenOption.WRITE)) {
                            ByteBuffer buf = ByteBuffer.allocateDirect(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
                            restrictTo(cpus);
                            ready.countDown();
                            go.await();
                            results[id] = work(id, iters, in, out, buf, cursor);
                        } catch (IOException | InterruptedException | RuntimeException e) {
                            synchronized (failure) {
                                failure[0] = new IllegalStateException("worker " + id + ": " + e, e);
                            }
                            ready.countDown();
                        }
                    },
                    "lane-worker-" + w));
        }
        Cursor collectorCursor = tables == null ? null : tables.cursor(COLLECTOR);
        threads.add(new Thread(
                () -> {
                    long[] usage = new long[18];
                    try {
                        restrictTo(cpus);
                    } catch (RuntimeException e) {
                        synchronized (failure) {
                            failure[0] = e;
                        }
                    }
                    ready.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    results[workers] = collect(iters, usage, collectorCursor);
                },
                "lane-collector"));
        threads.forEach(Thread::start);
        ready.await();
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long t1 = System.nanoTime();
        if (failure[0] != null) {
            throw failure[0];
        }
        List<Counts> ws = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            ws.add(results[w]);
        }
        return new Batch(t1 - t0, ws, results[workers]);
    }

    static Counts work(int id, int iters, FileChannel in, FileChannel out, ByteBuffer buf, Cursor cursor)
            throws IOException {
        long reads = 0, readBytes = 0, writes = 0, written = 0, checks = 0, denied = 0, sum = 0;
        for (int i = 0; i < iters; i++) {
            if (cursor != null) {
                checks++;
                if (!cursor.step(PREAD64)) {
                    denied++;
                }
            }
            buf.clear();
            int n = in.read(buf, position(id, i));
            reads++;
            readBytes += n;
            sum += buf.getLong(0) ^ buf.getLong(BLOCK - 8) * (i + 1);
            buf.flip();
            if (cursor != null) {
                checks++;
                if (!cursor.step(WRITE)) {
                    denied++;
                }
            }
            written += out.write(buf);
            writes++;
        }
        return new Counts(reads, readBytes, writes, written, 0, 0, checks, denied, sum);
    }

    static Counts collect(int iters, long[] usage, Cursor cursor) {
        long rusages = 0, yields = 0, checks = 0, denied = 0, sum = 0;
        for (int i = 0; i < iters; i++) {
            if (cursor != null) {
                checks++;
                if (!cursor.step(GETRUSAGE)) {
                    denied++;
                }
            }
            if (LibcCalls.getrusage(0, usage) == 0) {
                rusages++;
            }
            if (cursor != null) {
                checks++;
                if (!cursor.step(SCHED_YIELD)) {
                    denied++;
                }
            }
            Thread.yield();
            yields++;
        }
        return new Counts(0, 0, 0, 0, rusages, yields, checks, denied, sum);
    }

    /**
     * What is wrong with a batch, or null: every worker read and wrote {@code iters} blocks of 4 KiB
     * with the expected checksum, the collector made {@code iters} getrusage and sched_yield calls,
     * and a checked variant checked every call with none denied.
     */
    public static String verify(Batch b, int workers, int iters, boolean checked, long[] expectedSums) {
        if (b.workers().size() != workers) {
            return "expected " + workers + " workers, got " + b.workers().size();
        }
        for (int w = 0; w < workers; w++) {
            Counts c = b.workers().get(w);
            long blocks = iters;
            if (c.reads() != blocks
                    || c.readBytes() != blocks * BLOCK
                    || c.writes() != blocks
                    || c.writtenBytes() != blocks * BLOCK) {
                return "worker " + w + ": " + c + " (expected " + blocks + " reads and writes of " + BLOCK + " bytes)";
            }
            if (c.checksum() != expectedSums[w]) {
                return "worker " + w + ": checksum " + c.checksum() + ", expected " + expectedSums[w];
            }
            if (c.checks() != (checked ? 2L * iters : 0) || c.denied() != 0) {
                return "worker " + w + ": " + c.checks() + " checks, " + c.denied() + " denied";
            }
        }
        Counts k = b.collector();
        if (k.rusages() != iters
                || k.yields() != iters
                || k.checks() != (checked ? 2L * iters : 0)
                || k.denied() != 0) {
            return "collector: " + k + " (expected " + iters + " getrusage and sched_yield"
                    + (checked ? ", all checked" : "") + ")";
        }
        return null;
    }
}
