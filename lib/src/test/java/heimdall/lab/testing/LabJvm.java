package heimdall.lab.testing;

import static org.junit.jupiter.api.Assertions.fail;

import heimdall.lab.fixtures.Fixtures;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command line of a fresh JVM started the way {@code ./lab} starts one (its {@code java_opens}, headless,
 * {@code -Dheimdall.lab.home}), for every test that runs {@code ./lab}'s main class (or a probe of its own)
 * in a process of its own: one place to change when {@code ./lab}'s line changes.
 *
 * <pre>{@code
 * List<String> cmd = LabJvm.lab().tmpdir(scratch).command("reproduce", "floor-cost", "--quick");
 * List<String> probe = LabJvm.of(OrphanProbe.class).command("hang");
 * }</pre>
 */
public final class LabJvm {
    /**
     * What {@code ./lab} gives every JVM it starts (its {@code java_opens} line): JNA's direct buffers opened,
     * native access granted without the JDK's warning (which would come first on standard error).
     */
    public static final List<String> OPENS =
            List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED");

    private static final String MAIN = "heimdall.lab.cli.Main";

    private final String mainClass;
    private final String classPath;
    private final Path home;
    private final List<String> options;

    private LabJvm(String mainClass, String classPath, Path home, List<String> options) {
        this.mainClass = mainClass;
        this.classPath = classPath;
        this.home = home;
        this.options = List.copyOf(options);
    }

    /** {@code ./lab}'s main class on this test's class path, with the checkout as its home. */
    public static LabJvm lab() {
        return new LabJvm(MAIN, System.getProperty("java.class.path"), Fixtures.home(), List.of());
    }

    /** Another main class (a holder or probe of the tests), started as {@code ./lab} starts its JVM. */
    public static LabJvm of(Class<?> main) {
        return of(main.getName());
    }

    /** A main class by name, or a single-file source program ({@code Foo.java}), started as {@link #lab()}. */
    public static LabJvm of(String main) {
        return new LabJvm(main, System.getProperty("java.class.path"), Fixtures.home(), List.of());
    }

    /** The {@code java} of the JDK running the tests. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The library's own class path as {@code ./lab} builds it (target/classes and the runtime dependencies
     * Maven listed), without the test classes: what a user's {@code ./lab} sees. Run from the lib module.
     */
    public static String libraryClassPath() {
        try {
            return Path.of("target/classes").toAbsolutePath()
                    + File.pathSeparator
                    + Files.readString(Path.of("target/runtime-classpath.txt")).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("target/runtime-classpath.txt (written by the lib build)", e);
        }
    }

    /** The same JVM on {@code classPath}. */
    public LabJvm classPath(String classPath) {
        return new LabJvm(mainClass, classPath, home, options);
    }

    /** The same JVM with {@code home} as {@code heimdall.lab.home}; null: none (the library finds its own). */
    public LabJvm home(Path home) {
        return new LabJvm(mainClass, classPath, home, options);
    }

    /** The same JVM with its temporary folder in {@code dir}. */
    public LabJvm tmpdir(Path dir) {
        return option("-Djava.io.tmpdir=" + dir);
    }

    /** The same JVM with one more option before the class path ({@code -Xmx512m}, {@code -Dname=value}). */
    public LabJvm option(String option) {
        List<String> more = new ArrayList<>(options);
        more.add(option);
        return new LabJvm(mainClass, classPath, home, more);
    }

    /** {@code java OPTIONS -cp CLASSPATH MAIN args...}. */
    public List<String> command(String... args) {
        return command(List.of(args));
    }

    /** {@code java OPTIONS -cp CLASSPATH MAIN args...}. */
    public List<String> command(List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(OPENS);
        cmd.add("-Djava.awt.headless=true");
        if (home != null) {
            cmd.add("-Dheimdall.lab.home=" + home);
        }
        cmd.addAll(options);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * {@code jshell} of the JDK running the tests with {@code lab.jsh} of {@code home} as {@code ./lab jshell}
     * starts it, its snippets run in a remote JVM given {@link #OPENS} (jshell's default execution, not the
     * kernel's), on {@link #libraryClassPath()}; then {@code args} (a script, or nothing to read standard input).
     */
    public static List<String> jshell(Path home, String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "jshell").toString(),
                "--class-path",
                libraryClassPath()));
        OPENS.forEach(o -> cmd.add("-R" + o));
        cmd.add("-R-Djava.awt.headless=true");
        cmd.add("-R-Dheimdall.lab.home=" + home);
        cmd.addAll(List.of(
                "--startup",
                "DEFAULT",
                "--startup",
                home.resolve("jshell-startup/lab.jsh").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** What a jshell run printed (both streams) and its exit status. */
    public record Jshell(int status, String out) {}

    /**
     * Runs {@link #jshell} on {@code script} from {@code home} (standard input {@code /exit}, so a script that
     * ends without it still ends), its output kept in {@code dir}; fails when it has not ended in {@code seconds}.
     */
    public static Jshell runJshell(Path home, Path script, Path dir, long seconds)
            throws IOException, InterruptedException {
        Path out = dir.resolve("jshell-out.txt");
        Process p = new ProcessBuilder(jshell(home, script.toString()))
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Files.writeString(dir.resolve("jshell-in.txt"), "/exit\n")
                        .toFile()))
                .start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("jshell did not finish " + script + " in " + seconds + " s:\n" + Files.readString(out));
        }
        return new Jshell(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    /** A {@code /bin/sh} script that runs this JVM with the script's own arguments, as {@code ./lab} does. */
    public String script() {
        StringBuilder s = new StringBuilder("#!/bin/sh\nexec");
        for (String word : command()) {
            s.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        return s.append(" \"$@\"\n").toString();
    }
}
