package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.CreatorMark;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real guests of Debian's 6.1 under TCG (the kernel fetched into the user's cache on first use): a signal to
 * {@code ./lab vm run} reaches the guest's command, whose exit status becomes ours, and leaves no QEMU and no scratch
 * folder; a SIGKILL of our JVM still takes QEMU with it, and the next run reaps the scratch folder it left. Needs
 * root, QEMU and busybox-static (facts of the host: skipped loudly, or failed under LAB_REQUIRE_KERNEL=1).
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class VmGuestTest {
    static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    @BeforeAll
    static void needs() {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.onPath(QemuCommand.QEMU, "qemu-system-x86"),
                KernelFacts.file(Initramfs.BUSYBOX, "busybox-static"));
    }

    /** {@code ./lab vm run ARGS} as the script would run it, on this test's class path (no build of its own). */
    static Process lab(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Dheimdall.lab.home=" + Path.of("").toAbsolutePath().getParent(),
                "-cp",
                System.getProperty("java.class.path"),
                "heimdall.lab.cli.Main",
                "vm",
                "run"));
        argv.addAll(List.of(args));
        return new ProcessBuilder(argv).redirectErrorStream(true).start();
    }

    /** Reads the process's output until a line equals {@code marker}; all of it so far. */
    static String until(Process p, String marker, List<String> seen) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = r.readLine()) != null; ) {
            seen.add(line);
            if (line.equals(marker)) {
                // keep draining in the background so the process never blocks on a full pipe
                CompletableFuture.runAsync(() -> r.lines().forEach(seen::add));
                return String.join("\n", seen);
            }
        }
        throw new AssertionError("the guest ended before printing " + marker + ":\n" + String.join("\n", seen));
    }

    static List<ProcessHandle> qemuOf(Process p) {
        return p.descendants()
                .filter(h -> h.info().command().orElse("").endsWith(QemuCommand.QEMU))
                .toList();
    }

    /** The scratch folder {@code p} marked as its own. */
    static Optional<Path> scratchOf(Process p) throws IOException {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(TMP, StaleScratch.PREFIX + "*")) {
            for (Path d : dirs) {
                Path mark = d.resolve(CreatorMark.NAME);
                if (Files.isRegularFile(mark) && Files.readString(mark).contains("\npid " + p.pid() + "\n")) {
                    return Optional.of(d);
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void sigtermReachesTheGuestsCommandWhoseStatusIsOursAndNothingIsLeft() throws Exception {
        Process p = lab(
                "--kernel",
                "debian:6.1",
                "--accel",
                "tcg",
                "--exec",
                "--",
                "sh",
                "-c",
                "uname -r; trap 'echo got-term; exit 42' TERM; echo started; sleep 600 & wait");
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            String out = until(p, "started", seen);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("6.1.")), "the guest runs Debian's 6.1:\n" + out);
            List<ProcessHandle> qemu = qemuOf(p);
            assertEquals(1, qemu.size(), "one QEMU, ours");
            Path scratch = scratchOf(p).orElseThrow(() -> new AssertionError("no scratch folder marked by " + p.pid()));
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "ended after SIGTERM");
            assertEquals(
                    42, p.exitValue(), "the guest command's own status (its TERM trap):\n" + String.join("\n", seen));
            assertTrue(String.join("\n", seen).contains("got-term"), "the guest's command saw SIGTERM");
            for (ProcessHandle q : qemu) {
                assertTrue(q.onExit().get(10, TimeUnit.SECONDS) != null && !q.isAlive(), "QEMU ended");
            }
            assertFalse(Files.exists(scratch), "scratch folder removed: " + scratch);
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void sigkillOfOurJvmTakesQemuWithItAndTheNextRunReapsTheScratch() throws Exception {
        Process p = lab(
                "--kernel", "debian:6.1", "--accel", "tcg", "--exec", "--", "sh", "-c", "echo started; exec sleep 600");
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            until(p, "started", seen);
            List<ProcessHandle> qemu = qemuOf(p);
            assertEquals(1, qemu.size(), "one QEMU, ours");
            Path scratch = scratchOf(p).orElseThrow();
            p.destroyForcibly(); // SIGKILL: no hook of ours runs
            p.waitFor(30, TimeUnit.SECONDS);
            for (ProcessHandle q : qemu) {
                q.onExit().get(10, TimeUnit.SECONDS); // its parent-death signal
                assertFalse(q.isAlive(), "QEMU outlived the JVM that started it");
            }
            assertTrue(Files.exists(scratch), "a SIGKILL leaves the scratch folder (nothing of ours runs)");
            StaleScratch.reap(TMP);
            assertFalse(Files.exists(scratch), "the next run's reaping removes it");
        } finally {
            p.destroyForcibly();
        }
    }
}
