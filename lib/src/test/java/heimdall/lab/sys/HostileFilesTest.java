package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The opener every hostile input goes through: a FIFO never blocks, a link is never followed, only
 * regular files are read, and the read is bounded; each refusal names the file and the reason.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostileFilesTest {
    @TempDir
    Path dir;

    private static String refusal(Runnable r) {
        return assertThrows(BadInput.class, r::run).getMessage();
    }

    @Test
    void aRegularFileIsReadWhole() throws Exception {
        Path f = Files.writeString(dir.resolve("p.json"), "{}\n");
        assertArrayEquals("{}\n".getBytes(StandardCharsets.UTF_8), HostileFiles.read(f, 100));
        try (FileChannel ch = HostileFiles.channel(f)) {
            ByteBuffer b = ByteBuffer.allocate(10);
            assertEquals(3, ch.read(b));
        }
        assertEquals(Optional.empty(), HostileFiles.readIfExists(dir.resolve("absent"), 100));
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = dir.resolve("SHA256SUMS");
        Planted.mkfifo(fifo);
        for (Runnable r : new Runnable[] {
            () -> HostileFiles.read(fifo, 100),
            () -> HostileFiles.readIfExists(fifo, 100),
            () -> HostileFiles.channel(fifo)
        }) {
            String m = refusal(r);
            assertTrue(m.startsWith(fifo + ": not a regular file: is a FIFO"), m);
        }
        try (HostileFiles.Folder folder = HostileFiles.Folder.open(dir, "not a folder of ours")) {
            String m = refusal(() -> folder.read("SHA256SUMS", 100));
            assertTrue(m.contains("is a FIFO"), m);
        }
    }

    @Test
    void aLinkAtTheNameIsNotFollowedEvenToARegularFile() throws Exception {
        Path outside = Files.createDirectory(dir.resolve("outside"));
        Path work = Files.createDirectory(dir.resolve("work"));
        Planted planted = Planted.in(outside, work)
                .linkToFile(work.resolve("profile.json"))
                .watch();
        Path link = work.resolve("profile.json");
        String m = refusal(() -> HostileFiles.read(link, 1000));
        assertEquals(link + ": is a symbolic link; not followed (name the file it points to)", m);
        assertTrue(refusal(() -> HostileFiles.channel(link)).contains("symbolic link"));
        // a dangling link is a link, not "nothing there"
        Path dangling = Files.createSymbolicLink(work.resolve("gone"), outside.resolve("none"));
        assertTrue(refusal(() -> HostileFiles.readIfExists(dangling, 10)).contains("symbolic link"));
        Files.delete(dangling);
        planted.assertUntouched("read through a link");
        // Links in the folders above are the user's choice.
        Path viaLinkedFolder = Files.createSymbolicLink(dir.resolve("alias"), work);
        Files.writeString(work.resolve("real.json"), "x");
        assertEquals(1, HostileFiles.read(viaLinkedFolder.resolve("real.json"), 10).length);
        // ...but not at a folder opened as a folder
        String f = refusal(() -> HostileFiles.Folder.open(viaLinkedFolder, "not a results folder"));
        assertTrue(f.startsWith(viaLinkedFolder + ": not a results folder: is a symbolic link"), f);
    }

    @Test
    void directoriesDevicesAndEmptyNamesAreRefusedWithTheReason() {
        assertTrue(refusal(() -> HostileFiles.read(dir, 10)).contains(dir + ": not a regular file: is a directory"));
        assertTrue(refusal(() -> HostileFiles.read(Path.of("/dev/null"), 10)).contains("is a character device"));
        assertTrue(refusal(() -> HostileFiles.read(Path.of("/dev/zero"), 10)).contains("is a character device"));
        assertEquals("empty file name: name a file", refusal(() -> HostileFiles.read(Path.of(""), 10)));
        Path gone = dir.resolve("gone.json");
        assertEquals(gone + ": cannot read: no such file or directory", refusal(() -> HostileFiles.read(gone, 10)));
        assertTrue(refusal(() -> HostileFiles.Folder.open(dir.resolve("missing"), "not a results folder"))
                .endsWith("not a results folder: no such folder"));
    }

    @Test
    void theReadIsBounded() throws Exception {
        Path big = Files.write(dir.resolve("big"), new byte[4097]);
        String m = refusal(() -> HostileFiles.read(big, 4096));
        assertTrue(m.startsWith(big + ": cannot read: 4,097 bytes, over the limit"), m);
        assertEquals(4096, HostileFiles.read(Files.write(dir.resolve("edge"), new byte[4096]), 4096).length);
    }
}
