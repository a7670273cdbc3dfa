package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.graph.FixtureGraphs;
import heimdall.lab.graph.machine.Machine;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The follower's bounds: the map limit, the tables' encoding, and a run's time limit. */
class LimitsTest {
    @Test
    void aGraphOverTheMapLimitIsRefusedWithItsFigures() {
        assertEquals(8192L * 512, KernelTables.checkSize(8192, 512), "exactly at the limit");
        Refusal r = assertThrows(Refusal.class, () -> KernelTables.checkSize(8193, 512));
        assertTrue(
                r.getMessage().contains("8,193 states x 512 columns")
                        && r.getMessage().contains("limit 4,194,304 cells"),
                r.getMessage());
    }

    @Test
    void theCellsAreTheMinimizedMachineWithTerminalDestinationsFlagged() {
        KernelTables t = KernelTables.of(FixtureGraphs.abcdf());
        assertEquals(t.states() * t.columns(), t.cells().length);
        int a = t.cells()[t.mainStart() + FixtureGraphs.A_GETPPID];
        assertTrue(a >= 0 && (a & KernelTables.TERMINAL_BIT) == 0, "A is allowed at the start, not terminal");
        assertEquals(Machine.DENY, t.cells()[t.mainStart() + FixtureGraphs.B_GETUID], "B before A");
        int f = t.cells()[a + FixtureGraphs.F_GETEGID];
        assertTrue(f >= 0 && (f & KernelTables.TERMINAL_BIT) != 0, "F is terminal: the kernel resets the thread");
        assertTrue(t.signalStarts()[10] >= 0, "SIGUSR1 (10) has an entry");
        assertEquals(-1, t.signalStarts()[12], "SIGUSR2 has none");
    }

    @Test
    void aChildThatOutlivesItsTimeIsKilledAndReaped() throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Refusal r = assertThrows(
                Refusal.class,
                () -> FollowedRun.run(
                        KernelTables.allowingEverything(),
                        Hook.SYSCALL_TRACEPOINT,
                        false,
                        List.of("/bin/sleep", "30"),
                        Duration.ofMillis(500)));
        Matcher m = Pattern.compile("followed child (\\d+) still ran").matcher(r.getMessage());
        assertTrue(m.find(), r.getMessage());
        assertFalse(Files.exists(Path.of("/proc/" + m.group(1))), "the child is gone (killed and reaped)");
    }
}
