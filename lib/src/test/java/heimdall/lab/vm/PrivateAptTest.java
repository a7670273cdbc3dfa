package heimdall.lab.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private apt against Debian's archive (the one this machine's apt configuration names): it finds each named
 * kernel's current package, and the machine's apt configuration and state are exactly as they were (every file's
 * name, size and modification time under /etc/apt, /var/lib/apt, /var/cache/apt and dpkg's status).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PrivateAptTest {
    @TempDir
    Path cache;

    static final Path[] MACHINE = {
        Path.of("/etc/apt"), Path.of("/var/lib/apt"), Path.of("/var/cache/apt"), Path.of("/var/lib/dpkg/status")
    };

    static Map<String, String> snapshot() throws IOException {
        Map<String, String> seen = new TreeMap<>();
        for (Path root : MACHINE) {
            if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.toList()) {
                    seen.put(
                            p.toString(),
                            Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                                    ? Files.size(p) + " " + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                                    : "-");
                }
            }
        }
        return seen;
    }

    @Test
    void eachNamedKernelIsFoundAndTheMachinesAptIsUntouched() throws Exception {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.onPath("apt-get", "apt"),
                KernelFacts.file(PrivateApt.KEYRING, "debian-archive-keyring"));
        Map<String, String> before = snapshot();
        DebianArchive archive = DebianArchive.ofMachine();
        for (NamedKernel k : NamedKernel.values()) {
            PrivateApt apt = PrivateApt.in(cache.resolve(k.folderName()), k, archive);
            apt.update();
            PrivateApt.Candidate c = apt.candidate();
            assertTrue(
                    c.packageName().startsWith("linux-image-" + k.versionPrefix())
                            && c.packageName().endsWith("-amd64-unsigned"),
                    k.label() + ": " + c);
            assertTrue(c.version().startsWith(k.versionPrefix()), k.label() + ": " + c);
            String list = Files.readString(cache.resolve(k.folderName()).resolve("sources.list"));
            assertTrue(list.contains("[signed-by=" + PrivateApt.KEYRING + "]") && !list.contains("trusted"), list);
        }
        assertEquals(before, snapshot(), "the machine's apt configuration and state are unchanged");
    }

    @Test
    void anArchiveThatCannotBeReadIsARefusalNamingTheStep() throws Exception {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.onPath("apt-get", "apt"),
                KernelFacts.file(PrivateApt.KEYRING, "debian-archive-keyring"));
        PrivateApt apt = PrivateApt.in(
                cache.resolve("apt"),
                NamedKernel.DEBIAN_6_1,
                new DebianArchive("file:" + cache.resolve("no-archive-here"), java.util.Optional.empty()));
        heimdall.lab.Refusal e = org.junit.jupiter.api.Assertions.assertThrows(heimdall.lab.Refusal.class, apt::update);
        assertTrue(
                e.getMessage().startsWith("fetching debian:6.1: apt-get update of the private lists"), e.getMessage());
    }

    @Test
    void anUnsignedArchiveIsRefusedNeverTrusted() throws Exception {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.onPath("apt-get", "apt"),
                KernelFacts.file(PrivateApt.KEYRING, "debian-archive-keyring"));
        // a well-formed archive whose Release file nobody signed, offering a "kernel" package
        Path repo = cache.resolve("repo");
        Path bin = Files.createDirectories(repo.resolve("dists/bookworm/main/binary-amd64"));
        String packages = """
                Package: linux-image-amd64
                Version: 6.1.999-1
                Architecture: amd64
                Depends: linux-image-6.1.0-99-amd64
                Filename: pool/main/l/x.deb
                Size: 1
                SHA256: %s

                """.formatted("0".repeat(64));
        Files.writeString(bin.resolve("Packages"), packages);
        String sha = Sha256.of(bin.resolve("Packages"));
        Files.writeString(
                repo.resolve("dists/bookworm/Release"), """
                Suite: bookworm
                Codename: bookworm
                Architectures: amd64
                Components: main
                SHA256:
                 %s %d main/binary-amd64/Packages
                """.formatted(sha, Files.size(bin.resolve("Packages"))));
        PrivateApt apt = PrivateApt.in(
                cache.resolve("apt"),
                NamedKernel.DEBIAN_6_1,
                new DebianArchive("file:" + repo, java.util.Optional.empty()));
        heimdall.lab.Refusal e = org.junit.jupiter.api.Assertions.assertThrows(heimdall.lab.Refusal.class, apt::update);
        assertTrue(e.getMessage().contains("is not signed"), e.getMessage());
    }
}
