package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.sys.VmFacts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The parts of {@code ./lab vm} that need no guest: the archive's address, quoting, the files the guest hands back. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VmPartsTest {
    @TempDir
    Path dir;

    @Test
    void theArchiveComesFromTheMachinesDeb822SourcesAndSecurityIsTold() throws Exception {
        Path parts = Files.createDirectories(dir.resolve("sources.list.d"));
        Files.writeString(parts.resolve("debian.sources"), """
                Types: deb
                # http://snapshot.example/archive/debian/20250520T000000Z
                URIs: http://mirror.example/debian
                Suites: bookworm bookworm-updates
                Components: main
                Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

                Types: deb
                URIs: http://mirror.example/debian-security
                Suites: bookworm-security
                Components: main
                """);
        Files.writeString(
                parts.resolve("other.sources.disabled"), "Types: deb\nURIs: http://evil.example/\nSuites: trixie\n");
        DebianArchive a = DebianArchive.of(dir.resolve("absent.list"), parts);
        assertEquals("http://mirror.example/debian", a.archive());
        assertEquals(Optional.of("http://mirror.example/debian-security"), a.security());
    }

    @Test
    void oneLineEntriesCountAndAUriThatCouldCarryOptionsIsNeverUsed() throws Exception {
        Path list = Files.writeString(dir.resolve("sources.list"), """
                # deb http://commented.example/debian bookworm main
                deb [trusted=yes] http://bad.example/debian[trusted=yes] bookworm main
                deb [arch=amd64] http://good.example/debian bookworm main
                """);
        DebianArchive a = DebianArchive.of(list, dir.resolve("none"));
        assertEquals("http://good.example/debian", a.archive());
        assertEquals(Optional.empty(), a.security());
        assertFalse(DebianArchive.usableUri("http://x.example/ bookworm main\ndeb http://y.example/"));
        assertFalse(DebianArchive.usableUri("ftp://x.example/debian"));
        Refusal none = assertThrows(
                Refusal.class,
                () -> DebianArchive.of(
                        Files.writeString(dir.resolve("empty.list"), "# nothing\n"), dir.resolve("none")));
        assertTrue(none.getMessage().startsWith("finding Debian's archive"), none.getMessage());
    }

    @Test
    void theInitScriptQuotesEveryArgumentSoAShellGivesItBackVerbatim() throws Exception {
        List<String> hostile =
                List.of("it's", "$(touch " + dir.resolve("pwned") + ")", "`id`", "a\nb", "\"", "\\", "--", " ", "");
        for (String h : hostile) {
            Process p = new ProcessBuilder("sh", "-c", "printf '%s' " + InitScript.q(h)).start();
            String back = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            assertEquals(h, back, "quoted " + h);
        }
        assertFalse(Files.exists(dir.resolve("pwned")), "no command substitution ran");
        String init = InitScript.text(
                List.of("virtio_ring", "9p"),
                Path.of("/work/it's here"),
                Path.of("/tmp"),
                List.of("/work/it's here/lab", "--version"),
                Map.of("LAB_X", "a'b"),
                "vm-debian-6.1");
        Process n = new ProcessBuilder("sh", "-n").redirectErrorStream(true).start();
        n.getOutputStream().write(init.getBytes(StandardCharsets.UTF_8));
        n.getOutputStream().close();
        String said = new String(n.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(n.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, n.exitValue(), "the generated /init parses: " + said);
        assertTrue(init.lines().findFirst().orElse("").equals("#!/bin/busybox sh"));
        assertTrue(init.indexOf(InitScript.BOOTED) < init.indexOf("insmod"), "the boot marker comes first");
        assertTrue(init.indexOf("virtio_ring.ko") < init.indexOf("9p.ko"), "modules in the order given");
    }

    @Test
    void onlyLabVariablesAndJavaHomeReachTheGuest() {
        Map<String, String> kept = GuestEnvironment.passed(Map.of(
                "LAB_REQUIRE_KERNEL",
                "1",
                "JAVA_HOME",
                "/usr/lib/jvm/x",
                "AWS_SECRET_ACCESS_KEY",
                "s",
                "LD_PRELOAD",
                "/tmp/x.so",
                "lab_lower",
                "1",
                "LAB_",
                "1"));
        assertEquals(Map.of("LAB_REQUIRE_KERNEL", "1", "JAVA_HOME", "/usr/lib/jvm/x"), kept);
    }

    @Test
    void theExitStatusIsReadOnlyFromARegularFileAndOnlyAsANumber() throws Exception {
        Path share = Files.createDirectories(dir.resolve("share"));
        assertEquals(Optional.empty(), GuestRun.status(share));
        Files.writeString(share.resolve("status"), "143\n");
        assertEquals(Optional.of(143), GuestRun.status(share));
        Files.writeString(share.resolve("status"), "256\n");
        assertEquals(Optional.empty(), GuestRun.status(share), "not an exit status");
        Files.writeString(share.resolve("status"), "0; rm -rf /\n");
        assertEquals(Optional.empty(), GuestRun.status(share));
        // a planted link is not followed, even to a file saying 0
        Files.delete(share.resolve("status"));
        Files.createSymbolicLink(share.resolve("status"), Files.writeString(dir.resolve("zero"), "0\n"));
        assertEquals(Optional.empty(), GuestRun.status(share));
        // a FIFO is never opened (it would block)
        Files.delete(share.resolve("status"));
        Process mk = new ProcessBuilder("mkfifo", share.resolve("status").toString()).start();
        assertTrue(mk.waitFor(10, TimeUnit.SECONDS));
        assertEquals(Optional.empty(), GuestRun.status(share));
    }

    @Test
    void vmFactsAreReadOnlyWhenTheKernelCommandLineSaysThisIsAGuest() throws Exception {
        Path cmdline = Files.writeString(dir.resolve("cmdline"), "console=ttyS0 quiet\n");
        Path file = dir.resolve("vm.json");
        VmFacts facts = new VmFacts(
                "debian:6.1",
                "linux-image-6.1.0-57-amd64-unsigned",
                "6.1.192-3",
                "ab".repeat(32),
                "6.1.0-57-amd64",
                "tcg",
                2,
                4096,
                true);
        Files.write(file, facts.json());
        assertEquals(Optional.empty(), VmFacts.read(cmdline, file), "a host: no vm object");
        Files.writeString(cmdline, "console=ttyS0 " + VmFacts.CMDLINE_MARK + "\n");
        assertEquals(Optional.of(facts), VmFacts.read(cmdline, file));
        Files.delete(file);
        VmFacts unknown = VmFacts.read(cmdline, file).orElseThrow();
        assertEquals("unknown", unknown.kernel());
        assertTrue(unknown.emulated(), "a guest of unknown acceleration is never taken for native");
        Files.writeString(cmdline, "heimdall.vm=10\n");
        assertEquals(Optional.empty(), VmFacts.read(cmdline, file), "the mark is one whole word");
    }

    @Test
    void aHelperThatOutlivesItsDeadlineIsKilledAndSaidSo() {
        Exec e = Exec.run(List.of("sleep", "30"), null, Duration.ofMillis(300));
        assertTrue(e.timedOut());
        assertFalse(e.ok());
        assertTrue(e.failure().contains("did not finish in time"), e.failure());
    }
}
