package heimdall.lab.child;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.sys.Cpus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A measured call that ends the runner with status 0 ({@code exit_group(0)}, number 231) must not pass
 * for a measured run: status 0 counts only after the runner's measuring phase, with every sample written.
 */
class UnmeasuredExitTest {
    static final int NR_EXIT_GROUP = 231;

    @ParameterizedTest
    @ValueSource(longs = {0, 10})
    void exitGroupAsTheMeasuredCallIsNotACompletedRun(long warmup) {
        ChildSpec spec = ChildSpec.of(Call.syscall(NR_EXIT_GROUP), warmup, 100).withCpu(Cpus.measuring());
        ChildResult r = MeasuredChild.run(spec);
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate(), r.fate().describe());
        assertEquals(0, e.code(), "exit_group(0) exits with 0");
        assertEquals(warmup > 0 ? Phase.WARMUP : Phase.MEASURE, e.phase());
        assertFalse(e.ok(), "exit status 0 before the runner's measuring ended");
        assertFalse(r.completed());
        assertEquals(0, r.samples().length);
        String phase = warmup > 0 ? "warm-up" : "measurement";
        assertTrue(
                r.outcome().contains("exited with 0 during " + phase + ", before it finished measuring")
                        && r.outcome().contains("0 of 100 samples"),
                r.outcome());
        Refusal refused = assertThrows(Refusal.class, r::requireCompleted);
        assertTrue(refused.getMessage().contains("before it finished measuring"), refused.getMessage());
    }

    @ParameterizedTest
    @EnumSource(
            value = ChildSpec.Mode.class,
            names = {"BATCH", "BATCH_CPUTIME"})
    void aBatchRunThatExitsEarlyIsNotCompletedEither(ChildSpec.Mode mode) {
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.syscall(NR_EXIT_GROUP), 0, 100)
                .withCpu(Cpus.measuring())
                .withMode(mode));
        assertFalse(r.completed(), r.outcome());
        assertTrue(r.outcome().contains("before it finished measuring"), r.outcome());
    }

    @ParameterizedTest
    @EnumSource(
            value = ChildSpec.Mode.class,
            names = {"PER_CALL", "BATCH", "TIMER"})
    void anOrdinaryRunStillCompletes(ChildSpec.Mode mode) {
        ChildSpec spec = mode == ChildSpec.Mode.TIMER
                ? ChildSpec.timer(Cpus.measuring(), 10, 100)
                : ChildSpec.of(Call.GETPPID, 10, 100).withCpu(Cpus.measuring()).withMode(mode);
        ChildResult r = MeasuredChild.run(spec);
        assertTrue(r.completed(), r.outcome());
        assertEquals(mode.batch() ? 0 : 100, r.samples().length);
        assertEquals("exited normally", r.outcome());
    }
}
