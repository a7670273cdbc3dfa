package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;

import heimdall.lab.graph.prepared.Cursor;
import heimdall.lab.graph.prepared.Prepared;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.testing.Fact;
import heimdall.lab.testing.Requires;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Ordinary steps allocate nothing: measured with the JVM's per-thread allocation counter. */
class AllocationTest {
    static final int EVENTS = 1_000_000;

    @Test
    void stepsOnEveryLayoutAllocateZeroBytes() {
        var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        boolean supported = bean.isThreadAllocatedMemorySupported() && bean.isThreadAllocatedMemoryEnabled();
        // a fact of the JVM we run on (HotSpot counts; another VM may not), not of our code
        Requires.that(new Fact(
                "per-thread allocation counting in this JVM",
                supported,
                "ThreadMXBean.isThreadAllocatedMemorySupported/Enabled: " + supported));
        SyntheticGraph s = SyntheticGraph.build(4096, 3);
        PreparedGraph p = PreparedGraph.prepare(s.graph(), PreparedGraph.Options.defaults());
        int[] trace = Traces.walk(
                s.graph(), s.broadSpec(EVENTS, 1).withInvalidRate(0.05).withSignalRate(0.01));
        for (Prepared l : p.layouts().values()) {
            // the hash reference follower is included: its frames are preallocated vectors too
            Cursor c = l.cursor(SyntheticGraph.MAIN);
            for (int warm = 0; warm < 5; warm++) { // let the JIT compile both loops before measuring
                stepAll(c, trace);
                c.replay(trace);
            }
            long empty = allocatedAround(bean, () -> {});
            long stepping = allocatedAround(bean, () -> stepAll(c, trace));
            long replaying = allocatedAround(bean, () -> c.replay(trace));
            assertEquals(empty, stepping, l.layout() + ": bytes allocated by " + EVENTS + " step/deliver/reset calls");
            assertEquals(empty, replaying, l.layout() + ": bytes allocated by replay of " + EVENTS + " events");
        }
    }

    private static long allocatedAround(com.sun.management.ThreadMXBean bean, Runnable r) {
        long before = bean.getCurrentThreadAllocatedBytes();
        r.run();
        return bean.getCurrentThreadAllocatedBytes() - before;
    }

    private static int stepAll(Cursor c, int[] trace) {
        int allowed = 0;
        for (int ev : trace) {
            if (GraphTesting.apply(c, ev)) {
                allowed++;
            }
        }
        return allowed;
    }
}
