package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Errno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeLibTest {
    @Test
    void loadsInPlaceFromTargetClassesWithTheExpectedAbi() {
        assertEquals(NativeLib.ABI_VERSION, NativeLib.hl_abi_version());
        assertTrue(Files.isExecutable(NativeLib.runner()), NativeLib.runner() + " is not executable");
        assertTrue(NativeLib.directory().toString().contains("classes"), "used in place: " + NativeLib.directory());
    }

    @Test
    void extractionIsKeyedByContentAndDoneOnce(@TempDir Path tmp) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Path lib = Files.write(src.resolve("libheimdall.so"), new byte[] {1, 2, 3});
        Path runner = Files.write(src.resolve("heimdall-runner"), new byte[] {4, 5});
        Path root = tmp.resolve("cache");

        Path dir = NativeLib.extract(lib.toUri().toURL(), runner.toUri().toURL(), root);
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(dir.resolve("libheimdall.so")));
        assertTrue(Files.isExecutable(dir.resolve("heimdall-runner")));
        long stamp = Files.getLastModifiedTime(dir.resolve("heimdall-runner")).toMillis();

        assertEquals(dir, NativeLib.extract(lib.toUri().toURL(), runner.toUri().toURL(), root));
        assertEquals(
                stamp, Files.getLastModifiedTime(dir.resolve("heimdall-runner")).toMillis());

        Files.write(runner, new byte[] {4, 6});
        assertNotEquals(
                dir, NativeLib.extract(lib.toUri().toURL(), runner.toUri().toURL(), root));
    }

    /** Root loads what is extracted: a cache someone else could write into is not used. */
    @Test
    void extractionRefusesAFolderOthersCanWrite(@TempDir Path tmp) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Path lib = Files.write(src.resolve("libheimdall.so"), new byte[] {1, 2, 3});
        Path runner = Files.write(src.resolve("heimdall-runner"), new byte[] {4, 5});
        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        NativeLib.UntrustedDirectory e = assertThrows(
                NativeLib.UntrustedDirectory.class,
                () -> NativeLib.extract(lib.toUri().toURL(), runner.toUri().toURL(), shared.resolve("cache")));
        assertTrue(e.getMessage().contains(shared + " above it is writable by others"), e.getMessage());
        try (var s = Files.walk(shared)) {
            assertEquals(0, s.filter(Files::isRegularFile).count(), "nothing extracted there");
        }
    }

    @Test
    void closedOrNeverOpenedDescriptorsReadAsEbadf() {
        assertEquals(-Errno.EBADF, NativeLib.hl_fd_flags(987_654));
        assertEquals(-Errno.EBADF, NativeLib.hl_close(987_654));
    }
}
