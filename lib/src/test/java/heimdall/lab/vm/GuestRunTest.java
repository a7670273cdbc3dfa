package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GuestRun}'s deadlines, watchdog and status with a shell script standing in for QEMU: it prints what a
 * guest's console would (the markers of {@link InitScript}, kernel lines) and writes into the share as the guest's
 * /init would. Every failure is a refusal naming the step, and the stand-in is dead afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuestRunTest {
    @TempDir
    Path share;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();

    GuestRun guest(String script) throws Exception {
        Files.write(share.resolve("stdout"), new byte[0]);
        Files.write(share.resolve("stderr"), new byte[0]);
        return new GuestRun(
                List.of("sh", "-c", script, "fake-qemu", share.toString()),
                share,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Duration.ofSeconds(2));
    }

    static final String BOOTED = "echo '" + InitScript.BOOTED + "'; ";
    static final String RUNNING = "echo '" + InitScript.RUNNING + "'; ";

    int finish(GuestRun g, int watchdogS, int timeoutS) {
        return g.finish(
                Duration.ofSeconds(5),
                Duration.ofSeconds(timeoutS),
                Duration.ofSeconds(watchdogS),
                Interruption.none());
    }

    static void assertDead(GuestRun g) {
        assertFalse(g.process().orElseThrow().isAlive(), "the stand-in for QEMU was killed");
    }

    @Test
    void aGuestThatPrintsNoBootMarkerByItsDeadlineIsKilled() throws Exception {
        GuestRun g = guest("echo 'SeaBIOS'; exec sleep 60");
        GuestRun.NotBooted e =
                assertThrows(GuestRun.NotBooted.class, () -> g.boot(Duration.ofSeconds(2), Interruption.none()));
        assertTrue(e.getMessage().contains("no boot marker within 2 s"), e.getMessage());
        assertDead(g);
    }

    @Test
    void qemuEndingBeforeTheBootSaysWhatQemuSaid() throws Exception {
        GuestRun g = guest("echo 'qemu-system-x86_64: failed to initialize kvm: Permission denied' >&2; exit 1");
        GuestRun.NotBooted e =
                assertThrows(GuestRun.NotBooted.class, () -> g.boot(Duration.ofSeconds(20), Interruption.none()));
        assertTrue(e.getMessage().contains("QEMU ended before the guest booted"), e.getMessage());
        assertTrue(e.getMessage().contains("failed to initialize kvm"), e.getMessage());
    }

    @Test
    void aFailedSetupStepIsNamed() throws Exception {
        GuestRun g = guest(BOOTED + "echo '" + InitScript.FAILED + "mounting the host root (9p)'; exec sleep 60");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        Refusal e = assertThrows(Refusal.class, () -> finish(g, 30, 30));
        assertTrue(e.getMessage().startsWith("guest setup: mounting the host root (9p) failed"), e.getMessage());
        assertDead(g);
    }

    @Test
    void aSilentCommandIsKilledByTheWatchdog() throws Exception {
        GuestRun g = guest(BOOTED + RUNNING + "exec sleep 60");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        long t0 = System.nanoTime();
        Refusal e = assertThrows(Refusal.class, () -> finish(g, 2, 50));
        assertTrue(e.getMessage().startsWith("guest stalled: no output"), e.getMessage());
        assertTrue(
                System.nanoTime() - t0 < Duration.ofSeconds(20).toNanos(), "killed at the watchdog, not the timeout");
        assertDead(g);
    }

    @Test
    void kernelStallReportsAreNotProgressAndEndTheGuestAfterTheirGrace() throws Exception {
        GuestRun g = guest(BOOTED + RUNNING
                + "while :; do echo '[   42.000001] rcu: INFO: rcu_preempt self-detected stall on CPU'; "
                + "sleep 0.3; done");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        Refusal e = assertThrows(Refusal.class, () -> finish(g, 40, 50));
        assertTrue(
                e.getMessage().startsWith("guest stalled: its kernel reported a stall (rcu: INFO: rcu_preempt"),
                e.getMessage());
        assertTrue(
                err.toString(StandardCharsets.UTF_8).contains("vm console: [   42.000001] rcu: INFO"),
                "shown on stderr");
        assertDead(g);
    }

    @Test
    void aCommandThatKeepsPrintingIsStillEndedByTheTimeout() throws Exception {
        GuestRun g = guest(BOOTED + RUNNING + "while :; do echo tick >> \"$1/stdout\"; sleep 0.2; done");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        Refusal e = assertThrows(Refusal.class, () -> finish(g, 2, 10));
        assertTrue(e.getMessage().startsWith("running the guest: not finished within --timeout 10 s"), e.getMessage());
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("tick\n"), "its output was copied as it grew");
        assertDead(g);
    }

    @Test
    void theCommandsOutputAndStatusBecomeOurs() throws Exception {
        GuestRun g = guest(BOOTED + RUNNING + "printf 'hello\\n' >> \"$1/stdout\"; printf 'oops\\n' >> \"$1/stderr\"; "
                + "echo 7 > \"$1/status\"; echo '" + InitScript.EXIT + "7'; echo '[   3.1] reboot: Power down'");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        assertEquals(7, finish(g, 30, 30));
        assertEquals("hello\n", out.toString(StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("oops\n"), e);
        assertFalse(e.contains("Power down"), "nothing after the exit marker is shown: " + e);
    }

    @Test
    void aGuestThatPowersOffWithoutAStatusIsARefusal() throws Exception {
        GuestRun g = guest(
                BOOTED + RUNNING + "echo '[    9.9] Kernel panic - not syncing: Attempted to kill init!'; exit 0");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        Refusal e = assertThrows(Refusal.class, () -> finish(g, 30, 30));
        assertTrue(
                e.getMessage().startsWith("running the guest: it powered off without its command's exit status"),
                e.getMessage());
        assertTrue(e.getMessage().contains("Kernel panic"), "the console's last words are said: " + e.getMessage());
    }

    @Test
    void aStopBeforeTheCommandStartsKillsQemuAtOnce() throws Exception {
        GuestRun g = guest("exec sleep 60");
        try (Interruption i = Interruption.catchSignals()) {
            assertTrue(Interruption.requestStop(Interruption.Cause.SIGTERM));
            long t0 = System.nanoTime();
            assertThrows(GuestRun.StoppedEarly.class, () -> g.boot(Duration.ofSeconds(30), i));
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos(), "not after the boot deadline");
            assertDead(g);
        }
    }

    @Test
    void aStopWhileTheCommandRunsIsOneLineOnTheGuestsConsole() throws Exception {
        GuestRun g = guest(BOOTED + RUNNING + "read -r line; printf '%s' \"$line\" > \"$1/got\"; "
                + "echo 143 > \"$1/status\"; echo '" + InitScript.EXIT + "143'");
        g.boot(Duration.ofSeconds(20), Interruption.none());
        try (Interruption i = Interruption.catchSignals()) {
            assertTrue(Interruption.requestStop(Interruption.Cause.SIGTERM));
            assertEquals(143, g.finish(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), i));
        }
        assertEquals(InitScript.STOP + " TERM", Files.readString(share.resolve("got")));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("passing SIGTERM to the guest's command"));
    }
}
