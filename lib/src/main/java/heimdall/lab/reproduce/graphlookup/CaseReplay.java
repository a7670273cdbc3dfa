package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.bench.Session;
import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.Prepared;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;

/**
 * graph-lookup's timed loop, on the pinned replay thread: the JVM's own warm-up of every layout's
 * {@code replay}, then the batches, one {@code System.nanoTime} pair around each layout's replay of the
 * whole trace. Kept apart from the run around it so that what is timed is all in one short place;
 * graph-jmh's own harness ({@code reproduce.graphjmh}) times this same loop, through
 * {@link GraphLookup#replayCase}, to set beside JMH's figure.
 */
final class CaseReplay {
    private CaseReplay() {}

    /**
     * Replays one case: batches x layouts, the order rotating by one each batch; a stop of the session
     * leaves off between batches. Returns the batches completed ({@link GraphLookup#replayCase} turns a
     * short count into a stop).
     */
    static int untilStopped(
            GraphLookup.Case k,
            List<Layout> layouts,
            int batches,
            long[][] nanos,
            int[][] rejections,
            Session session) {
        Cursor[] cursors = new Cursor[layouts.size()];
        for (int l = 0; l < layouts.size(); l++) {
            Prepared p = k.prepared().layouts().get(layouts.get(l));
            cursors[l] = p == null ? null : k.entry() == null ? p.unidentifiedCursor() : p.cursor(k.entry());
        }
        int[] events = k.events();
        warmJit(cursors, events);
        for (int b = 0; b < batches; b++) {
            if (session.stopRequested()) {
                return b;
            }
            for (int i = 0; i < layouts.size(); i++) {
                int l = (i + b) % layouts.size();
                Cursor cur = cursors[l];
                if (cur == null) {
                    continue;
                }
                cur.reset();
                long t0 = System.nanoTime();
                int r = cur.replay(events);
                long t1 = System.nanoTime();
                nanos[l][b] = t1 - t0;
                rejections[l][b] = r;
            }
        }
        return batches;
    }

    /** Untimed replays per layout before a case's batches: enough invocations for a full (not only OSR) compile. */
    static final int JIT_WARMUP_CALLS = 800;
    /** Events of the trace prefix replayed by each untimed warm-up call. */
    static final int JIT_WARMUP_EVENTS = 4096;

    /**
     * The JVM's part of warming up, before the seed's warm-up batch: each layout's {@code replay} is
     * called {@link #JIT_WARMUP_CALLS} times on the first {@link #JIT_WARMUP_EVENTS} events of the
     * case's trace (untimed, results discarded), so that the optimising compiler has compiled the
     * method itself rather than only an on-stack-replacement of its loop, then we wait until the JIT
     * has been idle for 100 ms (at most 2 s). Without it the first cases run partly in profiling code.
     */
    static void warmJit(Cursor[] cursors, int[] events) {
        int[] prefix = Arrays.copyOf(events, Math.min(events.length, JIT_WARMUP_EVENTS));
        for (Cursor cur : cursors) {
            if (cur == null) {
                continue;
            }
            for (int i = 0; i < JIT_WARMUP_CALLS; i++) {
                cur.reset();
                cur.replay(prefix);
            }
        }
        awaitJitIdle();
    }

    /** Waits until the JIT's total compilation time has not moved for 100 ms, at most 2 s. */
    static void awaitJitIdle() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        long last = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = jit.getTotalCompilationTime();
            if (now == last) {
                return;
            }
            last = now;
        }
    }
}
