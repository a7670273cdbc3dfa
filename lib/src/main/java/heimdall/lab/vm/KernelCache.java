package heimdall.lab.vm;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.Refusal;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The downloaded kernel packages: {@code ~/.cache/heimdall-lab/kernels} (or under {@code $XDG_CACHE_HOME}),
 * made 0700 by us and refused when anyone else could write it. One folder per name ({@code debian-6.1/}) holds the
 * {@code .deb} and its {@code kernel.json} ({@link CachedKernel}); {@code apt/} holds the private apt state
 * ({@link PrivateApt}). A cached package is checked against its recorded SHA-256 before every use, and unpacked
 * ({@code dpkg-deb -x}) into the run's scratch folder, never into the cache.
 */
public final class KernelCache {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final Duration UNPACK_DEADLINE = Duration.ofMinutes(5);

    private final Path root;

    private KernelCache(Path root) {
        this.root = root;
    }

    /** The user's cache folder for kernels (not created). */
    public static Path defaultRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base =
                xdg != null && xdg.startsWith("/") ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("heimdall-lab").resolve("kernels");
    }

    /** The cache at {@code root}, its folders made 0700 where absent; refused when others could change it. */
    public static KernelCache open(Path root) {
        try {
            Path p = root.toAbsolutePath();
            // ~/.cache itself may be shared policy of the user's; heimdall-lab and kernels are ours
            for (Path d : List.of(p.getParent().getParent(), p.getParent(), p)) {
                if (Files.isSymbolicLink(d) && !d.equals(p.getParent().getParent())) {
                    throw new Refusal(
                            "kernel cache " + d + " is a symbolic link; the cache must be a real folder of ours");
                }
                if (!Files.isDirectory(d)) {
                    Files.createDirectories(d.getParent());
                    Files.createDirectory(
                            d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
            }
            for (Path d : List.of(p.getParent(), p)) {
                String why = SafeFiles.othersCanWrite(d, false);
                if (why != null) {
                    throw new Refusal(
                            "kernel cache " + d + " is " + why + "; a kernel others could replace is never booted");
                }
            }
            return new KernelCache(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the kernel cache " + root, e);
        }
    }

    /** The cache's folder. */
    public Path root() {
        return root;
    }

    private Path entry(NamedKernel k) {
        return root.resolve(k.folderName());
    }

    /** What the cache holds for {@code k}, as recorded (not yet verified); empty when nothing is cached. */
    public Optional<CachedKernel> cached(NamedKernel k) {
        Path json = entry(k).resolve("kernel.json");
        if (!Files.exists(json, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(json, LinkOption.NOFOLLOW_LINKS)) {
            throw new Refusal(json + ": not a regular file; remove " + entry(k) + " and fetch again");
        }
        try {
            CachedKernel c = JSON.readValue(Io.readString(json, 1 << 16), CachedKernel.class)
                    .checked(json);
            if (!c.name().equals(k.label())) {
                throw BadInput.at(json, "name", "'" + c.name() + "', not " + k.label());
            }
            return Optional.of(c);
        } catch (IOException | BadInput e) {
            throw new Refusal("verifying the cached " + k.label() + ": " + json + " is not a kernel record ("
                    + e.getMessage() + "); remove " + entry(k) + " and fetch again");
        }
    }

    /**
     * The cached package of {@code k} checked against its recorded SHA-256; a refusal when it changed (for
     * {@code ./lab vm kernels}; {@link #use} checks its own copy).
     */
    public CachedKernel verified(NamedKernel k, CachedKernel c) {
        verify(k, c, entry(k).resolve(c.deb()), entry(k).resolve(c.deb()));
        return c;
    }

    /**
     * Refuses unless {@code file} is a regular file (not followed) with the SHA-256 {@code c} records; {@code deb} is
     * the cached file it is (or is a copy of), named in the message.
     */
    private void verify(NamedKernel k, CachedKernel c, Path file, Path deb) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new Refusal("verifying the cached " + k.label() + ": " + deb
                    + " is missing; run ./lab vm fetch --kernel " + k.label());
        }
        String sha = Sha256.of(file);
        if (!sha.equals(c.debSha256())) {
            throw new Refusal("verifying the cached " + k.label() + ": " + deb + " has SHA-256 " + sha + ", not the "
                    + c.debSha256() + " recorded when it was fetched; it is not booted (./lab vm fetch --kernel "
                    + k.label() + " fetches it again)");
        }
    }

    /**
     * Fetches the current package of {@code k} with the private apt and records it, replacing what was cached;
     * progress said on {@code err}. Two runs never fetch into the cache at once (a lock file).
     */
    public CachedKernel fetch(NamedKernel k, DebianArchive archive, Path scratch, PrintStream err) {
        return fetch(k, archive, scratch, err, true);
    }

    /**
     * As above; unless {@code replace}, a package another run cached while we waited for the lock is taken as it is,
     * so two first runs fetch once.
     */
    private CachedKernel fetch(NamedKernel k, DebianArchive archive, Path scratch, PrintStream err, boolean replace) {
        try (FileChannel lockFile = FileChannel.open(
                        root.resolve(".lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS);
                FileLock lock = lockFile.lock()) {
            Optional<CachedKernel> meanwhile = replace ? Optional.empty() : cached(k);
            if (meanwhile.isPresent()) {
                return meanwhile.get();
            }
            Path aptDir = root.resolve("apt");
            if (!Files.isDirectory(aptDir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(
                        aptDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            PrivateApt apt = PrivateApt.in(aptDir.resolve(k.folderName()), k, archive);
            err.println("lab vm: fetching " + k.label() + ": apt-get update of " + k.suite() + " (private lists in "
                    + aptDir + ")");
            apt.update();
            PrivateApt.Candidate c = apt.candidate();
            err.println("lab vm: fetching " + k.label() + ": " + c.packageName() + " " + c.version());
            Path incoming = Files.createTempDirectory(
                    root,
                    ".incoming-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            try {
                Path deb = apt.download(c, incoming);
                String sha = Sha256.of(deb);
                if (!sha.equals(c.sha256())) {
                    throw new Refusal("fetching " + k.label() + ": " + deb.getFileName() + " has SHA-256 " + sha
                            + ", not the " + c.sha256() + " of the signed index");
                }
                Path unpacked = unpack(k.label(), deb, scratch.resolve("fetched"));
                String release = releaseIn(k.label(), unpacked);
                Path vmlinuz = unpacked.resolve("boot/vmlinuz-" + release);
                BzImage header = BzImage.read(vmlinuz, "the package's vmlinuz");
                if (!header.release().equals(release)) {
                    throw new Refusal("fetching " + k.label() + ": its vmlinuz says release " + header.release()
                            + ", its modules folder " + release);
                }
                CachedKernel record = new CachedKernel(
                                k.label(),
                                c.packageName(),
                                c.version(),
                                deb.getFileName().toString(),
                                sha,
                                release,
                                "boot/vmlinuz-" + release,
                                Sha256.of(vmlinuz),
                                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
                        .checked("the fetched package");
                SafeFiles.writeNew(incoming.resolve("kernel.json"), JSON.writeValueAsBytes(record));
                SafeFiles.removeTree(unpacked);
                Path entry = entry(k);
                Path old = root.resolve(
                        ".old-" + k.folderName() + "-" + ProcessHandle.current().pid());
                if (Files.exists(entry, LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(entry, old, StandardCopyOption.ATOMIC_MOVE);
                }
                Files.move(incoming, entry, StandardCopyOption.ATOMIC_MOVE);
                SafeFiles.removeTree(old);
                return record;
            } finally {
                SafeFiles.removeTree(incoming);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot fetch " + k.label() + " into the kernel cache " + root, e);
        }
    }

    /**
     * {@code k} ready to boot from the cache (fetched first when absent), unpacked into {@code scratch}; the .deb's
     * and the vmlinuz's SHA-256 checked against {@code kernel.json}.
     */
    public GuestKernel use(NamedKernel k, Path scratch, PrintStream err) {
        CachedKernel c = cached(k).orElseGet(() -> fetch(k, DebianArchive.ofMachine(), scratch, err, false));
        // checked and unpacked from one copy of ours, so a fetch that replaces the cached file meanwhile cannot slip
        // another package between the check and the unpacking
        Path copy = scratch.resolve("kernel.deb");
        Path deb = entry(k).resolve(c.deb());
        if (!Files.isRegularFile(deb, LinkOption.NOFOLLOW_LINKS)) {
            verify(k, c, deb, deb); // refuses, naming the missing file
        }
        try {
            Files.copy(deb, copy, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + deb + " into the scratch folder", e);
        }
        verify(k, c, copy, deb);
        Path unpacked = unpack(k.label(), copy, scratch.resolve("kernel"));
        try {
            Files.delete(copy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + copy, e);
        }
        Path vmlinuz = unpacked.resolve(c.vmlinuz());
        if (!Files.isRegularFile(vmlinuz, LinkOption.NOFOLLOW_LINKS)
                || !Sha256.of(vmlinuz).equals(c.vmlinuzSha256())) {
            throw new Refusal("verifying the cached " + k.label() + ": the unpacked " + c.vmlinuz()
                    + " is missing or its SHA-256"
                    + " is not the recorded " + c.vmlinuzSha256());
        }
        return new GuestKernel(
                k.label(),
                Optional.of(c.packageName()),
                Optional.of(c.version()),
                c.debSha256(),
                vmlinuz,
                modulesRoot(unpacked).resolve(c.release()),
                c.release());
    }

    /** {@code dpkg-deb -x deb into}; a refusal naming the step when it fails. */
    private static Path unpack(String label, Path deb, Path into) {
        Exec e = Exec.run(List.of("dpkg-deb", "-x", deb.toString(), into.toString()), null, UNPACK_DEADLINE);
        if (!e.ok()) {
            throw new Refusal("unpacking " + label + ": " + e.failure());
        }
        return into;
    }

    /** {@code lib/modules} of an unpacked package, or {@code usr/lib/modules} where the package installs into /usr. */
    private static Path modulesRoot(Path unpacked) {
        Path lib = unpacked.resolve("lib/modules");
        return Files.isDirectory(lib, LinkOption.NOFOLLOW_LINKS) ? lib : unpacked.resolve("usr/lib/modules");
    }

    /** The one release under {@code lib/modules} of an unpacked package. */
    private static String releaseIn(String label, Path unpacked) throws IOException {
        try (var s = Files.list(modulesRoot(unpacked))) {
            List<String> names = s.map(p -> p.getFileName().toString()).toList();
            if (names.size() != 1) {
                throw new Refusal(
                        "fetching " + label + ": the package holds " + names.size() + " module folders " + names);
            }
            return names.get(0);
        }
    }
}
