package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.testing.LabJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The private scratch folder and the exclusive, no-follow file creation every run's files go through. */
class ScratchTest {
    @TempDir
    Path tmp;

    private Path tmpdir() throws Exception {
        return Files.createDirectory(
                tmp.resolve("tmpdir"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    @Test
    void aScratchFolderIsPrivateRandomAndGoneAfterClose() throws Exception {
        Path td = tmpdir();
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Planted planted;
        Path first;
        Path second;
        try (AutoCloseable t = Planted.tmpdir(td)) {
            planted = Planted.in(outside, td).watch();
            try (Scratch a = Scratch.create("heimdall-lab-job-");
                    Scratch b = Scratch.create("heimdall-lab-job-")) {
                first = a.path();
                second = b.path();
                assertEquals(td, first.getParent());
                assertNotEquals(first, second, "random names");
                assertTrue(first.getFileName().toString().startsWith("heimdall-lab-job-"));
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first)));
                Path in = a.newDirectory("in");
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(in)));
                SafeFiles.writeNew(in.resolve("data.txt"), new byte[] {1});
                // links inside (to the canaries) are removed, never followed
                Files.createSymbolicLink(in.resolve("to-dir"), planted.canaryDir());
                Files.createSymbolicLink(a.path().resolve("to-outside"), outside);
                Planted.mkfifo(in.resolve("fifo"));
            }
            planted.assertUntouched("after close");
            assertFalse(Files.exists(first, LinkOption.NOFOLLOW_LINKS));
            assertFalse(Files.exists(second, LinkOption.NOFOLLOW_LINKS));
        }
    }

    @Test
    void anExceptionInsideStillRemovesTheFolder() throws Exception {
        Path td = tmpdir();
        Path[] seen = new Path[1];
        try (AutoCloseable t = Planted.tmpdir(td)) {
            assertThrows(IllegalStateException.class, () -> {
                try (Scratch s = Scratch.create("heimdall-lab-lanes-")) {
                    seen[0] = s.path();
                    SafeFiles.writeNew(s.path().resolve("lanes-input.bin"), new byte[1024]);
                    throw new IllegalStateException("mid-run failure");
                }
            });
        }
        assertNotNull(seen[0]);
        assertFalse(Files.exists(seen[0], LinkOption.NOFOLLOW_LINKS));
        try (var s = Files.list(td)) {
            assertEquals(List.of(), s.toList());
        }
    }

    /** SIGTERM (what Ctrl-C's SIGINT also leads to): the JVM's shutdown hook removes the folder. */
    @Test
    void aTerminatedJvmLeavesNoScratchFolder() throws Exception {
        assertEquals(List.of(), terminate(false), "nothing printed after the path");
    }

    /** With a grace period, a graceful stop still uses the folder after SIGTERM; then it is gone too. */
    @Test
    void aGracefulStopKeepsTheFolderUntilItCloses() throws Exception {
        assertEquals(List.of("late ok"), terminate(true));
    }

    /** Runs {@link ScratchChild}, SIGTERMs it once its folder exists; the lines it printed after the path. */
    private List<String> terminate(boolean grace) throws Exception {
        Path td = tmpdir();
        List<String> cmd = new java.util.ArrayList<>(
                LabJvm.of(ScratchChild.class).tmpdir(td).command());
        if (grace) {
            cmd.add("grace");
        }
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line = r.readLine();
            assertNotNull(line, "the child printed no folder");
            Path dir = Path.of(line);
            assertTrue(Files.isRegularFile(dir.resolve("in/data.txt")), "made before the signal");
            // SIGTERM by kill(1): Process.destroy would also close our end of its output
            assertEquals(
                    0,
                    new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid()))
                            .start()
                            .waitFor());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the child did not end on SIGTERM");
            List<String> after = r.lines().toList();
            assertFalse(Files.exists(dir, LinkOption.NOFOLLOW_LINKS), dir + " left behind");
            try (var s = Files.list(td)) {
                assertEquals(List.of(), s.toList());
            }
            return after;
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void newFilesRefuseWhateverIsPlantedAtTheNameWithoutBlocking() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Path dir = Files.createDirectory(tmp.resolve("dir"));
        Planted planted = Planted.in(outside, dir)
                .linkToFile(dir.resolve("link"))
                .linkToFile(dir.resolve("dangling-link-target-made-later"))
                .fifo(dir.resolve("fifo"))
                .watch();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (String name : List.of("link", "fifo", "dangling-link-target-made-later")) {
                assertThrows(
                        FileAlreadyExistsException.class,
                        () -> SafeFiles.writeNew(dir.resolve(name), new byte[] {9}),
                        name);
            }
        });
        planted.assertUntouched("exclusive creation");
        // a dangling link (its target does not exist yet) is not followed to create the target either
        Path missing = outside.resolve("not-yet");
        Files.createSymbolicLink(dir.resolve("dangling"), missing);
        assertThrows(
                FileAlreadyExistsException.class, () -> SafeFiles.writeNew(dir.resolve("dangling"), new byte[] {9}));
        assertFalse(Files.exists(missing));
    }

    @Test
    void namedOutputsReplaceRegularFilesButNeverFollowALinkOrOpenAFifo() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Path dir = Files.createDirectory(tmp.resolve("dir"));
        Files.writeString(dir.resolve("old.txt"), "a much longer old content");
        Planted planted = Planted.in(outside)
                .linkToFile(dir.resolve("link"))
                .fifo(dir.resolve("fifo"))
                .watch();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            BadInput link = assertThrows(
                    BadInput.class, () -> SafeFiles.writeOutput("-o", dir.resolve("link"), new byte[] {1}));
            assertTrue(
                    link.getMessage().contains("-o " + dir.resolve("link"))
                            && link.getMessage().contains("symbolic link"),
                    link.getMessage());
            BadInput fifo = assertThrows(
                    BadInput.class, () -> SafeFiles.writeOutput("-o", dir.resolve("fifo"), new byte[] {1}));
            assertTrue(fifo.getMessage().contains("not a regular file"), fifo.getMessage());
            BadInput noDir = assertThrows(
                    BadInput.class, () -> SafeFiles.writeOutput("-o", dir.resolve("no/such.txt"), new byte[] {1}));
            assertTrue(noDir.getMessage().contains("folder does not exist"), noDir.getMessage());
        });
        planted.assertUntouched("named outputs");
        SafeFiles.writeOutput("-o", dir.resolve("old.txt"), "new".getBytes(StandardCharsets.UTF_8));
        assertEquals("new", Files.readString(dir.resolve("old.txt")), "a regular file is truncated and rewritten");
        SafeFiles.writeOutput("-o", dir.resolve("fresh.txt"), "made".getBytes(StandardCharsets.UTF_8));
        assertEquals("made", Files.readString(dir.resolve("fresh.txt")));
    }

    @Test
    void folderSafety() throws Exception {
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertNull(SafeFiles.othersCanWrite(mine, false));
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertNotNull(SafeFiles.othersCanWrite(mine, false));
        assertNotNull(SafeFiles.othersCanWrite(mine, true), "world-writable and not sticky");
        Files.setAttribute(mine, "unix:mode", 01777);
        assertNull(SafeFiles.othersCanWrite(mine, true), "sticky, like /tmp");
        assertNotNull(SafeFiles.othersCanWrite(mine, false));
        assertNull(SafeFiles.othersCanWrite(Path.of("/tmp"), true));
        // a java.io.tmpdir others can rename entries in is refused
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwxrwxrwx"));
        Refusal r = assertThrows(Refusal.class, () -> Scratch.checkParent(mine));
        assertTrue(r.getMessage().contains("java.io.tmpdir " + mine), r.getMessage());
    }
}
