package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./lab jshell} and {@code ./lab kernel} on a checkout laid out as a build leaves it, with
 * stand-ins for {@code mvn}, {@code jshell} and {@code java} that record their calls: a built clone
 * (sources older than the kernel's jar, no stamp of ours) starts without a build; a changed source
 * rebuilds once, saying so in one line and nothing of Maven's or make's; a failed build shows its
 * output and exits 3.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LabStartTest {
    @TempDir
    Path tmp;

    Path clone;
    Path calls;

    @BeforeEach
    void builtClone() throws Exception {
        clone = Files.createDirectories(tmp.resolve("clone"));
        Files.copy(Path.of("../lab").toAbsolutePath(), clone.resolve("lab"));
        Instant old = Instant.now().minusSeconds(600);
        for (String f : List.of(
                "pom.xml",
                "lib/pom.xml",
                "lib/src/main/java/A.java",
                "native/run.c",
                "kernel/pom.xml",
                "kernel/src/main/java/K.java",
                "jshell-startup/lab.jsh")) {
            write(f, "source", old);
        }
        Instant built = Instant.now().minusSeconds(60);
        write("lib/target/runtime-classpath.txt", "/dep.jar", built);
        write("kernel/target/runtime-classpath.txt", "/dep.jar", built);
        write("kernel/target/heimdall-lab-kernel.jar", "jar", built);
        // folders as a clone leaves them: as old as their files (a folder's time changes when a file goes)
        try (var all = Files.walk(clone)) {
            for (Path d : all.filter(Files::isDirectory).toList()) {
                Files.setLastModifiedTime(d, FileTime.from(old));
            }
        }
        calls = tmp.resolve("calls");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        // mvn as a noisy build: make's directory lines and Maven's, then the jar rewritten
        script(
                bin.resolve("mvn"),
                "echo \"mvn $*\" >> '" + calls + "'\n"
                        + "echo \"make: Entering directory '$PWD/native'\"\necho '[INFO] BUILD SUCCESS'\n"
                        + "touch kernel/target/heimdall-lab-kernel.jar\nexit ${FAKE_MVN_STATUS:-0}\n");
        script(bin.resolve("jshell"), "echo \"jshell $*\" >> '" + calls + "'\n");
        script(bin.resolve("java"), "echo \"java $*\" >> '" + calls + "'\n");
    }

    @Test
    void aBuiltCloneStartsJshellAndTheKernelWithoutABuild() throws Exception {
        KernelProtocolTest.Result r = lab(0, "jshell");
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err(), "nothing said, nothing built");
        String called = Files.readString(calls);
        assertFalse(called.contains("mvn"), called);
        assertTrue(called.contains("--execution heimdall"), called);
        assertTrue(called.contains("-J-Dheimdall.lab.sources=" + clone.resolve("lib/src/main/java")), called);
        assertTrue(called.contains("-J--add-opens=jdk.jshell/jdk.jshell=ALL-UNNAMED"), called);
        r = lab(0, "kernel", "install", "--user");
        assertEquals(0, r.exit(), r.err());
        assertFalse(Files.readString(calls).contains("mvn"), Files.readString(calls));
        assertTrue(Files.readString(calls).contains("heimdall.lab.kernel.KernelInstall install --user"));
    }

    @Test
    void aChangedSourceRebuildsOnceAndQuietly() throws Exception {
        Files.setLastModifiedTime(clone.resolve("kernel/src/main/java/K.java"), FileTime.from(Instant.now()));
        KernelProtocolTest.Result r = lab(0, "jshell");
        assertEquals(0, r.exit(), r.err());
        List<String> said = r.err().lines().toList();
        assertEquals(1, said.size(), "one line about the build, no make or Maven output: " + said);
        assertTrue(said.get(0).startsWith("lab: building the Jupyter kernel"), said.get(0));
        assertFalse(r.out().contains("Entering directory") || r.out().contains("[INFO]"), r.out());
        assertEquals(
                1,
                Files.readString(calls)
                        .lines()
                        .filter(l -> l.startsWith("mvn "))
                        .count());
        r = lab(0, "jshell");
        assertEquals("", r.err(), "built now: no second build");
        assertEquals(
                1,
                Files.readString(calls)
                        .lines()
                        .filter(l -> l.startsWith("mvn "))
                        .count());
    }

    @Test
    void aFailedBuildShowsItsOutputAndExits3() throws Exception {
        Files.setLastModifiedTime(clone.resolve("lib/src/main/java/A.java"), FileTime.from(Instant.now()));
        KernelProtocolTest.Result r = lab(1, "jshell");
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.err().contains("Entering directory") && r.err().contains("lab: build failed"), r.err());
        assertFalse(Files.readString(calls).contains("jshell "), "no jshell on a failed build");
    }

    private KernelProtocolTest.Result lab(int mvnStatus, String... args) throws Exception {
        List<String> cmd =
                new java.util.ArrayList<>(List.of("bash", clone.resolve("lab").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("TMPDIR", Files.createDirectories(tmp.resolve("t")).toString());
        pb.environment().put("FAKE_MVN_STATUS", String.valueOf(mvnStatus));
        if (!Files.exists(calls)) {
            Files.writeString(calls, "");
        }
        return KernelProtocolTest.run(pb, 50);
    }

    private void write(String file, String text, Instant when) throws Exception {
        Path p = clone.resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        Files.setLastModifiedTime(p, FileTime.from(when));
    }

    private static void script(Path file, String body) throws Exception {
        Files.writeString(file, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
