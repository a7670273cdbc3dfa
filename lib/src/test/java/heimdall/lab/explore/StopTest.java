package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.Interruption;
import heimdall.lab.broker.Answer;
import heimdall.lab.testing.Requires;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A notebook interrupt (or Ctrl-C) during a block: the running child ends, none is left, the block says so. */
class StopTest {
    /** Runs {@code block} on another thread and interrupts it as a notebook would once it has run a while. */
    private static Object stopDuring(Supplier<Object> block) throws Exception {
        CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> {
            try {
                return block.get();
            } catch (Interruption.Stopped s) {
                return s;
            }
        });
        Thread.sleep(300);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Interruption.requestStop(Interruption.Cause.NOTEBOOK)) {
            assertTrue(System.nanoTime() < deadline && !f.isDone(), "the block never opened its stop flag");
            Thread.sleep(5);
        }
        return f.get(60, TimeUnit.SECONDS);
    }

    @Test
    void aStoppedMeasurementKeepsItsCompletedRunsAndLeavesNoChild() throws Exception {
        Requires.seccomp("kill_process", "allow");
        Leftovers left = Leftovers.now();
        Object got = stopDuring(() -> Lab.measure("getppid")
                .under(Lab.fixtureFloor("abcdf"))
                .runs(200)
                .warmup(0)
                .calls(1_000_000)
                .run());
        if (got instanceof Measurement m) {
            assertTrue(m.interrupted());
            assertTrue(m.runs().size() < 200, "stopped early: " + m.runs().size());
            assertEquals(200, m.runsAsked());
        } else {
            assertTrue(got instanceof Interruption.Stopped, String.valueOf(got));
        }
        left.assertNone();
    }

    @Test
    void aStoppedRoundTripLeavesNoChildAndNoScratch() throws Exception {
        Requires.seccomp("user_notif", "allow");
        Leftovers left = Leftovers.now();
        Object got = stopDuring(() -> Lab.broker(n -> Answer.CONTINUE)
                .runs(200)
                .warmup(0)
                .calls(100_000)
                .roundTrip());
        assertTrue(
                got instanceof Interruption.Stopped
                        || got instanceof RoundTrip rt && rt.measurement().interrupted(),
                String.valueOf(got));
        left.assertNone();
    }
}
