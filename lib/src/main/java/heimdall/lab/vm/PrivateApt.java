package heimdall.lab.vm;

import heimdall.lab.Refusal;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * apt with a sources list, package lists and cache of its own, under the kernel cache
 * ({@code apt/<name>/}): the machine's apt configuration and state are never read for sources nor written
 * ({@code Dir::Etc::sourcelist}, {@code Dir::State::Lists}, {@code Dir::Cache}, {@code Dir::State::status} all
 * ours). Every entry is {@code signed-by} Debian's archive keyring, so apt checks the release files' signatures
 * and each package's hash against them; nothing is ever {@code trusted=yes}.
 */
final class PrivateApt {
    /** Debian's archive keyring (package debian-archive-keyring): every release's signing keys. */
    static final Path KEYRING = Path.of("/usr/share/keyrings/debian-archive-keyring.gpg");

    private static final Duration UPDATE_DEADLINE = Duration.ofMinutes(5);
    private static final Duration DOWNLOAD_DEADLINE = Duration.ofMinutes(15);

    /** A package apt can fetch: its name, version and the SHA-256 the signed index gives for it. */
    record Candidate(String packageName, String version, String sha256) {}

    private final Path dir;
    private final NamedKernel kernel;

    private PrivateApt(Path dir, NamedKernel kernel) {
        this.dir = dir;
        this.kernel = kernel;
    }

    /** The private apt of {@code kernel} in {@code dir} (made 0700 if absent), its sources list written afresh. */
    static PrivateApt in(Path dir, NamedKernel kernel, DebianArchive archive) {
        if (!Files.isRegularFile(KEYRING)) {
            throw new Refusal("fetching " + kernel.label() + ": Debian's archive keyring " + KEYRING
                    + " is missing (apt-get install debian-archive-keyring); packages are never fetched unchecked");
        }
        try {
            for (Path d : List.of(
                    dir,
                    dir.resolve("empty"),
                    dir.resolve("lists"),
                    dir.resolve("lists/partial"),
                    dir.resolve("cache"),
                    dir.resolve("cache/archives"),
                    dir.resolve("cache/archives/partial"))) {
                if (!Files.isDirectory(d)) {
                    Files.createDirectory(
                            d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                }
            }
            StringBuilder list = new StringBuilder(
                    "# written by ./lab vm for " + kernel.label() + "; the URIs are the machine's own\n");
            list.append(entry(archive.archive(), kernel.suite()));
            archive.security().ifPresent(s -> list.append(entry(s, kernel.suite() + "-security")));
            SafeFiles.replace(dir.resolve("sources.list"), list.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the private apt state in " + dir, e);
        }
        return new PrivateApt(dir, kernel);
    }

    private static String entry(String uri, String suite) {
        return "deb [signed-by=" + KEYRING + "] " + uri + " " + suite + " main\n";
    }

    /** The options that make apt use only our folder. */
    List<String> options() {
        List<String> o = new ArrayList<>();
        for (String[] kv : new String[][] {
            {"Dir::Etc::sourcelist", dir.resolve("sources.list").toString()},
            {"Dir::Etc::sourceparts", dir.resolve("empty").toString()},
            {"Dir::Etc::preferences", "/dev/null"},
            {"Dir::Etc::preferencesparts", dir.resolve("empty").toString()},
            {"Dir::State::Lists", dir.resolve("lists").toString()},
            {"Dir::State::status", "/dev/null"},
            {"Dir::Cache", dir.resolve("cache").toString()},
            // our folders are 0700 root's: apt's download sandbox user could not write them
            {"APT::Sandbox::User", "root"},
            {"Acquire::AllowInsecureRepositories", "false"},
            {"APT::Get::AllowUnauthenticated", "false"},
            {"Acquire::AllowDowngradeToInsecureRepositories", "false"}
        }) {
            o.add("-o");
            o.add(kv[0] + "=" + kv[1]);
        }
        return o;
    }

    private List<String> command(String tool, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(tool);
        argv.add("-q");
        argv.addAll(options());
        argv.addAll(List.of(args));
        return argv;
    }

    /** {@code apt-get update} of our lists; a refusal naming the step when the archive cannot be read or verified. */
    void update() {
        Exec e = Exec.run(command("apt-get", "update"), null, UPDATE_DEADLINE);
        // apt-get update exits 0 on some failures, saying them as W:/E: lines: a list not fetched or not verified
        Optional<String> problem = e.err()
                .lines()
                .filter(l -> l.startsWith("E:") || l.startsWith("W:"))
                .findFirst();
        if (!e.ok() || problem.isPresent()) {
            throw new Refusal("fetching " + kernel.label() + ": apt-get update of the private lists (" + dir
                    + ") failed: "
                    + problem.orElse(e.failure()));
        }
    }

    /** The release's current kernel package: the {@code -unsigned} twin of what {@code linux-image-amd64} needs. */
    Candidate candidate() {
        Exec deps = Exec.run(command("apt-cache", "depends", "linux-image-amd64"), null, UPDATE_DEADLINE);
        Optional<String> image = deps.out()
                .lines()
                .map(String::strip)
                .filter(l -> l.startsWith("Depends: linux-image-"))
                .map(l -> l.substring("Depends: ".length()).strip())
                .findFirst();
        if (!deps.ok() || image.isEmpty()) {
            throw new Refusal("fetching " + kernel.label() + ": " + kernel.suite()
                    + "'s linux-image-amd64 names no kernel"
                    + (deps.ok() ? "" : ": " + deps.failure()));
        }
        String name = image.get() + "-unsigned";
        if (!name.matches("linux-image-[0-9][A-Za-z0-9.+-]*-amd64-unsigned")) {
            throw new Refusal("fetching " + kernel.label() + ": unexpected kernel package name " + name);
        }
        Exec show = Exec.run(command("apt-cache", "show", "--no-all-versions", name), null, UPDATE_DEADLINE);
        String version = field(show.out(), "Version");
        String sha = field(show.out(), "SHA256");
        if (!show.ok() || version == null || sha == null || !name.equals(field(show.out(), "Package"))) {
            throw new Refusal("fetching " + kernel.label() + ": apt knows no package " + name
                    + (show.ok() ? "" : ": " + show.failure()));
        }
        if (!version.startsWith(kernel.versionPrefix())
                || !version.matches("[A-Za-z0-9.+~:-]+")
                || !sha.matches("[0-9a-f]{64}")) {
            throw new Refusal("fetching " + kernel.label() + ": " + name + " has version " + version + ", not a "
                    + kernel.versionPrefix() + "* kernel; the archive's " + kernel.suite() + " changed");
        }
        return new Candidate(name, version, sha);
    }

    /** Downloads {@code c} into {@code into} with {@code apt-get download} (apt checks its hash); the .deb's path. */
    Path download(Candidate c, Path into) {
        Exec e = Exec.run(command("apt-get", "download", c.packageName() + "=" + c.version()), into, DOWNLOAD_DEADLINE);
        if (!e.ok()) {
            throw new Refusal(
                    "fetching " + kernel.label() + ": apt-get download " + c.packageName() + " failed: " + e.failure());
        }
        try (var files = Files.list(into)) {
            List<Path> debs = files.filter(f -> f.getFileName().toString().endsWith(".deb"))
                    .toList();
            if (debs.size() != 1 || !Files.isRegularFile(debs.get(0), LinkOption.NOFOLLOW_LINKS)) {
                throw new Refusal("fetching " + kernel.label() + ": apt-get download left " + debs.size()
                        + " .deb files in " + into);
            }
            return debs.get(0);
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot list " + into, ex);
        }
    }

    /** A field of the first stanza of {@code apt-cache show}'s output, or null. */
    static String field(String stanza, String name) {
        for (String line : stanza.lines().toList()) {
            if (line.isEmpty()) {
                break;
            }
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2).strip();
            }
        }
        return null;
    }
}
