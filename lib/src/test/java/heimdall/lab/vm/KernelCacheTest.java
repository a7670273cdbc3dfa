package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel cache read as hostile: a record naming a file outside its folder, unknown fields, a package changed
 * after it was fetched, links planted for the record or the package, a cache folder others can write. Each is a
 * refusal naming the kernel and the step, and nothing is booted. No network: the records are written here.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelCacheTest {
    @TempDir
    Path home;

    static final String SHA = "0".repeat(64);

    KernelCache cache() {
        return KernelCache.open(home.resolve("heimdall-lab/kernels"));
    }

    Path entry(KernelCache c) throws Exception {
        return Files.createDirectories(c.root().resolve("debian-6.1"));
    }

    static String record(String deb, String debSha) {
        return """
                {"name": "debian:6.1", "package": "linux-image-6.1.0-57-amd64-unsigned", "version": "6.1.192-3",
                 "deb": "%s", "deb_sha256": "%s", "release": "6.1.0-57-amd64",
                 "vmlinuz": "boot/vmlinuz-6.1.0-57-amd64", "vmlinuz_sha256": "%s", "fetched": "2026-12-01T13:50:00Z"}
                """.formatted(deb, debSha, SHA);
    }

    @Test
    void theCacheFoldersAreMadePrivate() throws Exception {
        KernelCache c = cache();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(c.root())));
        assertEquals(
                "rwx------",
                PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(c.root().getParent())));
        assertEquals(Optional.empty(), c.cached(NamedKernel.DEBIAN_6_1));
    }

    @Test
    void aCacheOthersCanWriteIsRefused() throws Exception {
        Path root = cache().root();
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        Refusal e = assertThrows(Refusal.class, () -> KernelCache.open(root));
        assertTrue(e.getMessage().contains("writable by others"), e.getMessage());
    }

    @Test
    void aCacheFolderThatIsALinkIsRefused() throws Exception {
        Path real = Files.createDirectories(home.resolve("elsewhere"));
        Files.createDirectories(home.resolve("heimdall-lab"));
        Files.createSymbolicLink(home.resolve("heimdall-lab/kernels"), real);
        Refusal e = assertThrows(Refusal.class, () -> KernelCache.open(home.resolve("heimdall-lab/kernels")));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aRecordNamingAFileOutsideItsFolderIsRefused() throws Exception {
        KernelCache c = cache();
        Files.writeString(entry(c).resolve("kernel.json"), record("../../../etc/shadow.deb", SHA));
        Refusal e = assertThrows(Refusal.class, () -> c.cached(NamedKernel.DEBIAN_6_1));
        assertTrue(e.getMessage().startsWith("verifying the cached debian:6.1"), e.getMessage());
        assertTrue(e.getMessage().contains("deb"), e.getMessage());
    }

    @Test
    void aRecordWithAnUnknownFieldOrAnotherNameIsRefused() throws Exception {
        KernelCache c = cache();
        Files.writeString(
                entry(c).resolve("kernel.json"),
                record("k.deb", SHA).replace("{\"name\"", "{\"trusted\": true, \"name\""));
        assertThrows(Refusal.class, () -> c.cached(NamedKernel.DEBIAN_6_1));
        Files.writeString(entry(c).resolve("kernel.json"), record("k.deb", SHA).replace("debian:6.1", "debian:6.12"));
        Refusal e = assertThrows(Refusal.class, () -> c.cached(NamedKernel.DEBIAN_6_1));
        assertTrue(e.getMessage().contains("not debian:6.1"), e.getMessage());
    }

    @Test
    void aPackageChangedAfterItWasFetchedIsNotBooted() throws Exception {
        KernelCache c = cache();
        Path deb = Files.writeString(entry(c).resolve("k.deb"), "the package as fetched");
        String sha = Sha256.of(deb);
        Files.writeString(entry(c).resolve("kernel.json"), record("k.deb", sha));
        CachedKernel r = c.cached(NamedKernel.DEBIAN_6_1).orElseThrow();
        assertEquals(r, c.verified(NamedKernel.DEBIAN_6_1, r));
        Files.writeString(deb, "the package as changed");
        Refusal e = assertThrows(Refusal.class, () -> c.verified(NamedKernel.DEBIAN_6_1, r));
        assertTrue(e.getMessage().contains(sha) && e.getMessage().contains("not booted"), e.getMessage());
    }

    @Test
    void plantedLinksForTheRecordOrThePackageAreNotFollowed() throws Exception {
        KernelCache c = cache();
        Path outside = Files.writeString(home.resolve("outside.deb"), "someone else's");
        Files.createSymbolicLink(entry(c).resolve("k.deb"), outside);
        Files.writeString(entry(c).resolve("kernel.json"), record("k.deb", Sha256.of(outside)));
        CachedKernel r = c.cached(NamedKernel.DEBIAN_6_1).orElseThrow();
        Refusal e = assertThrows(Refusal.class, () -> c.verified(NamedKernel.DEBIAN_6_1, r));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
        Path json = Files.writeString(home.resolve("outside.json"), record("k.deb", SHA));
        Files.delete(entry(c).resolve("kernel.json"));
        Files.createSymbolicLink(entry(c).resolve("kernel.json"), json);
        Refusal l = assertThrows(Refusal.class, () -> c.cached(NamedKernel.DEBIAN_6_1));
        assertTrue(l.getMessage().contains("not a regular file"), l.getMessage());
    }
}
