package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.Fact;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container job's entry script, {@code container/measure.sh}, run on this host as the README's
 * {@code RESULTS=DIR container/measure.sh --quick} (the same script is the image's entry point): a
 * complete results folder beneath RESULTS, its path on the last line, and the refusals (exit 2) for a
 * RESULTS that is missing, a link, or an unmounted {@code /results}, and for an {@code --out} of its own.
 *
 * <p>The script runs {@code ./lab}; here {@code LAB} points it at a launcher on the classes this build
 * just compiled, so the test does not start a second Maven build beneath the running one.
 */
class ContainerMeasureTest {
    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
    private static final Path SCRIPT = HOME.resolve("container/measure.sh");

    /** What one run of the script printed and returned. */
    private record Outcome(int status, String stdout, String stderr) {
        List<String> lines() {
            return stdout.lines().toList();
        }
    }

    @Test
    void writesACompleteResultsFolderBeneathResultsAndPrintsItsPath(@TempDir Path tmp) throws Exception {
        Requires.seccomp("kill_process", "user_notif");
        Path results = Files.createDirectory(tmp.resolve("results"));
        Path decoy = Files.createDirectory(tmp.resolve("decoy"));
        // Dangling links at the names the script would pick in the next seconds (a test for existence
        // that follows links misses them): it must step past them, never create through one.
        List<Path> planted = plantLinksAtComingNames(results, decoy.resolve("through-the-link"), 20);

        Outcome o = run(
                tmp,
                Map.of("RESULTS", results.toString()),
                "--quick",
                "--runs",
                "1",
                "--calls",
                "2000",
                "--broker-calls",
                "200");

        assertEquals(0, o.status(), o.stderr());
        List<Path> made = new ArrayList<>();
        try (Stream<Path> s = Files.list(results)) {
            s.filter(p -> !Files.isSymbolicLink(p)).forEach(made::add);
        }
        assertEquals(1, made.size(), "one new folder beneath RESULTS: " + made);
        Path folder = made.get(0);
        assertTrue(Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS));
        assertEquals(folder.toString(), o.lines().get(o.lines().size() - 1), "the folder's path is the last line");
        for (String name : List.of("summary.json", "environment.json", "table.md", "samples.arrow")) {
            Path f = folder.resolve(name);
            assertTrue(Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && Files.size(f) > 0, name + " in " + folder);
        }
        assertTrue(Files.isDirectory(folder.resolve("plots")));
        String summary = Files.readString(folder.resolve("summary.json"));
        assertTrue(summary.contains("getppid") && summary.contains("openat"), "the floor-cost rows, brokered too");
        assertTrue(Files.readString(folder.resolve("table.md")).contains("getppid"));
        for (Path link : planted) {
            assertTrue(Files.isSymbolicLink(link), "a planted link is left as it was: " + link);
        }
        try (Stream<Path> s = Files.list(decoy)) {
            assertEquals(0, s.count(), "nothing written through a planted link");
        }
    }

    @Test
    void refusesAResultsThatIsMissingALinkOrNotADirectory(@TempDir Path tmp) throws Exception {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        Path file = Files.writeString(tmp.resolve("file"), "x");

        Outcome missing = run(tmp, Map.of("RESULTS", tmp.resolve("absent").toString()), "--quick");
        assertEquals(2, missing.status(), missing.stderr());
        assertTrue(
                missing.stderr().contains("absent") && missing.stderr().contains("not a directory"), missing.stderr());

        Outcome linked = run(tmp, Map.of("RESULTS", link.toString()), "--quick");
        assertEquals(2, linked.status(), linked.stderr());
        assertTrue(linked.stderr().contains("symbolic link"), linked.stderr());

        Outcome plain = run(tmp, Map.of("RESULTS", file.toString()), "--quick");
        assertEquals(2, plain.status(), plain.stderr());

        try (Stream<Path> s = Files.list(real)) {
            assertEquals(0, s.count(), "nothing written through the link");
        }
        assertFalse(Files.exists(tmp.resolve("absent")), "a missing RESULTS is not created");
    }

    @Test
    void refusesAnOutOfItsOwnAndAFolderOthersCanWriteInto(@TempDir Path tmp) throws Exception {
        Path results = Files.createDirectory(tmp.resolve("results"));
        Outcome out = run(
                tmp,
                Map.of("RESULTS", results.toString()),
                "--quick",
                "--out",
                tmp.resolve("x").toString());
        assertEquals(2, out.status(), out.stderr());
        assertTrue(out.stderr().contains("--out"), out.stderr());
        assertFalse(Files.exists(tmp.resolve("x")));

        // A directory anyone can write into (not sticky): someone could swap the folder, ./lab refuses.
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Outcome o = run(tmp, Map.of("RESULTS", open.toString()), "--quick");
        assertEquals(2, o.status(), o.stderr());
        assertTrue(o.stderr().contains("writable by others"), o.stderr());
        try (Stream<Path> s = Files.list(open)) {
            assertEquals(0, s.count(), "no folder made in a directory others can write into");
        }
    }

    /** NODE_NAME (Kubernetes' downward API) becomes a path component: anything but a node name is refused. */
    @Test
    void refusesANodeNameThatIsNotOne(@TempDir Path tmp) throws Exception {
        Path results = Files.createDirectory(tmp.resolve("results"));
        for (String hostile : List.of("../../etc", "a/b", "..", "-n", "node name", "x..y", "node\nother")) {
            Outcome o = run(tmp, Map.of("RESULTS", results.toString(), "NODE_NAME", hostile), "--quick");
            assertEquals(2, o.status(), hostile + ": " + o.stderr());
            assertTrue(o.stderr().contains("is not a node name"), o.stderr());
        }
        try (Stream<Path> s = Files.list(results)) {
            assertEquals(0, s.count(), "no folder made for a refused node name");
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(
                    0,
                    s.filter(f -> f.getFileName().toString().startsWith("20")).count(),
                    "nothing above");
        }
    }

    @Test
    void withoutResultsItNeedsAMountedResultsDirectory(@TempDir Path tmp) throws Exception {
        // On a host /results is normally not a mount point; where it is, this case cannot be shown here.
        Requires.that(new Fact(
                "/results is not a mount point (/proc/self/mountinfo)",
                !mountPoints().contains("/results"),
                "/proc/self/mountinfo lists /results"));
        Outcome o = run(tmp, Map.of(), "--quick");
        assertEquals(2, o.status(), o.stderr());
        assertTrue(o.stderr().contains("/results is not a mounted directory"), o.stderr());
    }

    /** Runs the script with a clean RESULTS and the given environment; LAB is a launcher on this build. */
    private static Outcome run(Path tmp, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        Map<String, String> e = pb.environment();
        e.remove("RESULTS");
        e.put("LAB", launcher(tmp).toString());
        e.putAll(new HashMap<>(env));
        Path stdout = Files.createTempFile(tmp, "stdout", ".txt");
        Path stderr = Files.createTempFile(tmp, "stderr", ".txt");
        Process p = pb.redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("measure.sh did not finish in 180 s: " + Files.readString(stderr));
        }
        return new Outcome(
                p.exitValue(),
                Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    /** A launcher doing what ./lab does after its build step, on target/classes of this build. */
    private static Path launcher(Path tmp) throws IOException {
        Path l = tmp.resolve("lab-launcher");
        if (Files.exists(l, LinkOption.NOFOLLOW_LINKS)) {
            return l;
        }
        Files.writeString(
                l, LabJvm.lab().home(HOME).classPath(LabJvm.libraryClassPath()).script());
        Files.setPosixFilePermissions(l, PosixFilePermissions.fromString("rwx------"));
        return l;
    }

    /** Symbolic links to {@code target} at the names measure.sh would choose in the next {@code seconds}. */
    private static List<Path> plantLinksAtComingNames(Path results, Path target, int seconds) throws Exception {
        String host = hostName();
        DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmmss'Z'");
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        List<Path> links = new ArrayList<>();
        for (int s = 0; s < seconds; s++) {
            links.add(
                    Files.createSymbolicLink(results.resolve(now.plusSeconds(s).format(f) + "-" + host), target));
        }
        return links;
    }

    /** The short host name, as the script's {@code hostname -s} prints it. */
    private static String hostName() throws Exception {
        Process p =
                new ProcessBuilder("hostname", "-s").redirectErrorStream(true).start();
        String name = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, p.waitFor(), name);
        return name;
    }

    private static List<String> mountPoints() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                .map(l -> l.split(" ")[4])
                .toList();
    }
}
