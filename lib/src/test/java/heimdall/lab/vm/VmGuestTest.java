package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.sys.CreatorMark;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
 * folder; a SIGKILL of our JVM still takes QEMU with it, and the next run reaps the scratch folder it left. The first
 * guest's command also attacks the checkout it shares: a link, a device node, a setuid file and a chown there leave
 * the host only plain files of QEMU's, mode 0644 ({@code security_model=mapped-xattr}), and a host file it chmods,
 * chowns and gives root-only extended attributes keeps its mode, owner and attributes. Needs
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
        List<String> argv = new ArrayList<>(List.of("vm", "run"));
        argv.addAll(List.of(args));
        argv = LabJvm.lab().home(Path.of("").toAbsolutePath().getParent()).command(argv);
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

    /**
     * What the guest's command does first, in a folder of the checkout: plants a link to the host's
     * {@code /etc/shadow}, a device node ({@code /dev/null}'s numbers), a setuid copy of {@code true}, a file given
     * to another owner, and prints how it sees them.
     */
    static String attack(Path d) {
        String q = InitScript.q(d.toString());
        return "d=" + q + "; echo plain > $d/plain; mkdir $d/sub; ln -s /etc/shadow $d/link; mknod $d/null c 1 3;"
                + " cp /bin/true $d/suid; chmod 4755 $d/suid; echo o > $d/owned; chown 1234:1234 $d/owned;"
                + " stat -c 'guest-sees %n %F %a %u' $d/link $d/null $d/suid $d/owned;"
                // a file the host made: its mode and owner changed, root-only extended attributes set
                + " chown 1234:1234 $d/hostfile; chmod 4755 $d/hostfile; stat -c 'guest-sees %n %a %u' $d/hostfile;"
                + " python3 -c 'import os, sys\nfor n in (\"trusted.heimdall\", \"security.heimdall\"):\n"
                + "    try:\n        os.setxattr(sys.argv[1], n, b\"1\"); print(\"guest-xattr\", n, \"set\")\n"
                + "    except OSError as e:\n        print(\"guest-xattr\", n, \"refused\")' $d/hostfile; ";
    }

    /** A file of the host's in the folder the guest attacks: mode 0640, root's. */
    static Path hostFile(Path d) throws IOException {
        Path f = Files.writeString(d.resolve("hostfile"), "the host's\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        return f;
    }

    static int mode(Path p) throws IOException {
        return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    }

    /** After the guest: none of what it planted is on the host as it asked; each is a plain file of QEMU's. */
    static void assertNothingPlantedReachedTheHost(Path d, String out) throws IOException {
        for (String said : List.of(
                "link symbolic link 777 0",
                "null character special file 644 0",
                "suid regular file 4755 0",
                "owned regular file 644 1234")) {
            assertTrue(out.contains("guest-sees " + d + "/" + said), "the guest did it (" + said + "):\n" + out);
        }
        Path link = d.resolve("link");
        assertFalse(Files.isSymbolicLink(link), "a guest's link is no link on the host");
        assertEquals("/etc/shadow", Files.readString(link), "a host reader gets the link's text, not the host file");
        for (String f : List.of("link", "null", "suid", "owned", "plain")) {
            Path p = d.resolve(f);
            assertEquals(
                    0100644,
                    mode(p),
                    f + ": a regular file, mode 0644 (no device, no setuid, no exec): "
                            + Integer.toOctalString(mode(p)));
            assertEquals(0, (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS), f + ": QEMU's");
            assertEquals(0, (Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS), f + ": QEMU's");
        }
        assertEquals(040755, mode(d.resolve("sub")), "a guest's folder: 0755 on the host");
        Path host = d.resolve("hostfile");
        assertTrue(out.contains("guest-sees " + host + " 4755 1234"), "the guest changed it, as it sees it:\n" + out);
        assertEquals(0100640, mode(host), "the host's file keeps its mode: " + Integer.toOctalString(mode(host)));
        assertEquals(0, (Integer) Files.getAttribute(host, "unix:uid", LinkOption.NOFOLLOW_LINKS), "and its owner");
        for (String ns : List.of("trusted", "security")) {
            assertTrue(out.contains("guest-xattr " + ns + ".heimdall refused"), ns + ".* never reaches it:\n" + out);
        }
        assertEquals("plain\n", Files.readString(d.resolve("plain")), "its files are readable");
    }

    @Test
    void sigtermReachesTheGuestsCommandWhoseStatusIsOursAndNothingIsLeft() throws Exception {
        // a folder of the checkout (this module's target/), which the guest shares read-write
        Path planted = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "vm-attack-");
        hostFile(planted);
        Process p = lab(
                "--kernel",
                "debian:6.1",
                "--accel",
                "tcg",
                "--exec",
                "--",
                "sh",
                "-c",
                attack(planted) + "uname -r; trap 'echo got-term; exit 42' TERM; echo started; sleep 600 & wait");
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            String out = until(p, "started", seen);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("6.1.")), "the guest runs Debian's 6.1:\n" + out);
            assertNothingPlantedReachedTheHost(planted, out);
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
            SafeFiles.removeTree(planted);
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
