package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library as a dependency, as a stock kernel's {@code %maven org.heimdall:heimdall-lab:VERSION} takes it:
 * {@code mvn install} puts it into the local repository ({@code ~/.m2}, as a user's does), a tiny POM that
 * names it alone gets its class path from that repository ({@code mvn -o dependency:build-classpath}), and a
 * fresh JVM on that class path, in a folder outside the checkout with no {@code heimdall.lab.home}, measures a
 * getppid under a floor: the JNA library and the runner come out of the jar, into a private folder.
 */
class LibraryFromLocalRepositoryTest {
    private static final long MINUTES = 3;

    @Test
    void anInstalledLibraryMeasuresAGetppidUnderAFloorWithNoCheckout(@TempDir Path dir) throws Exception {
        Requires.seccomp("errno", "allow");
        Path checkout = Fixtures.home().toAbsolutePath().normalize();
        String version = version();

        // Online (a fresh machine may lack the install plugin), and with exec.skip: the native build and
        // build.properties stay as the outer build made them, so the jars this build's JVMs have open are
        // up to date and not written again; install copies them into ~/.m2.
        run(
                dir,
                List.of(
                        "mvn",
                        "-B",
                        "-q",
                        "-f",
                        checkout.resolve("pom.xml").toString(),
                        "-pl",
                        "lib",
                        "-am",
                        "install",
                        "-DskipTests",
                        "-Dspotless.check.skip=true",
                        "-Dexec.skip=true"));

        Files.writeString(dir.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>example</groupId>
                  <artifactId>notebook</artifactId>
                  <version>1</version>
                  <dependencies>
                    <dependency>
                      <groupId>org.heimdall</groupId>
                      <artifactId>heimdall-lab</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                </project>
                """.formatted(version));
        Path cpFile = dir.resolve("classpath.txt");
        run(
                dir,
                List.of(
                        "mvn",
                        "-B",
                        "-q",
                        "-o",
                        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                        "-Dmdep.outputFile=" + cpFile,
                        "-Dmdep.includeScope=runtime"));
        String classpath = Files.readString(cpFile).strip();
        List<String> entries = Arrays.asList(classpath.split(":"));
        for (String e : entries) {
            assertFalse(Path.of(e).toAbsolutePath().normalize().startsWith(checkout), "from the checkout: " + e);
        }
        assertTrue(entries.stream().anyMatch(e -> e.endsWith("heimdall-lab-" + version + ".jar")), classpath);
        assertTrue(entries.stream().anyMatch(e -> e.contains("/jna-")), classpath);

        Path work = Files.createDirectory(dir.resolve("notebook"));
        Files.writeString(work.resolve("GetppidUnderAFloor.java"), """
                import heimdall.lab.explore.Lab;
                import heimdall.lab.explore.Measurement;
                import heimdall.lab.profile.Action;
                import heimdall.lab.profile.Profile;
                import heimdall.lab.sys.NativeLib;

                public class GetppidUnderAFloor {
                    public static void main(String[] args) {
                        Profile p = Profile.builder(Action.ALLOW)
                                .rule(new Action(Action.Kind.ERRNO, 1), "getuid")
                                .build();
                        Measurement m = Lab.measure("getppid").under(Lab.floor("no getuid", p))
                                .runs(2).calls(2_000).warmup(500).run();
                        System.out.println("native " + NativeLib.directory());
                        System.out.println("getppid under a floor: " + m.median() + " ns");
                    }
                }
                """);
        Path cache = Files.createDirectory(
                dir.resolve("cache"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        // no heimdall.lab.home: the library must find its native part in its jar, as a user's program does
        String out = run(
                work,
                LabJvm.of("GetppidUnderAFloor.java")
                        .home(null)
                        .classPath(classpath)
                        .command(),
                Map.of("XDG_CACHE_HOME", cache.toString()));

        Matcher figure = Pattern.compile("getppid under a floor: (\\d+) ns").matcher(out);
        assertTrue(figure.find(), out);
        assertTrue(Long.parseLong(figure.group(1)) > 0, out);
        Matcher nativeDir = Pattern.compile("(?m)^native (\\S+)").matcher(out);
        assertTrue(nativeDir.find(), out);
        Path extracted = Path.of(nativeDir.group(1));
        // out of the jar, into the cache folder this JVM was given, not the checkout's build
        assertTrue(extracted.startsWith(cache.resolve("heimdall-lab/native")), out);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(extracted)), out);
        assertTrue(Files.isRegularFile(extracted.resolve("libheimdall.so")), out);
        System.out.println(
                "LibraryFromLocalRepositoryTest: " + figure.group(0) + " (fresh JVM, class path from ~/.m2)");
    }

    /** The project version the library was built with (lib's build.properties). */
    private static String version() throws IOException {
        Properties p = new Properties();
        try (InputStream in =
                LibraryFromLocalRepositoryTest.class.getResourceAsStream("/heimdall/lab/cli/build.properties")) {
            p.load(in);
        }
        return p.getProperty("version");
    }

    private static String run(Path cwd, List<String> command) throws Exception {
        return run(cwd, command, Map.of());
    }

    /** Runs {@code command} in {@code cwd}; its output, or a failure that shows it. */
    private static String run(Path cwd, List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command))
                .directory(cwd.toFile())
                .redirectErrorStream(true);
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] bytes = p.getInputStream().readAllBytes();
        boolean ended = p.waitFor(MINUTES, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(ended && p.exitValue() == 0, String.join(" ", command) + " failed:\n" + out);
        return out;
    }
}
