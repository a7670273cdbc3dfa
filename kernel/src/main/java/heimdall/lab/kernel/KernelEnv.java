package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.util.GlobFinder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The environment variables IJava honours, read the way IJava reads them, so a kernelspec or shell
 * set up for IJava configures this kernel too. JJava's {@code JJAVA_*} names are accepted where the
 * {@code IJAVA_*} one is unset.
 *
 * <ul>
 *   <li>{@code IJAVA_CLASSPATH}: extra class path entries separated by {@link File#pathSeparator}, each
 *       may be a glob ({@code lib/*.jar}).
 *   <li>{@code IJAVA_STARTUP_SCRIPTS_PATH}: JShell scripts run at start-up, same separator, globs allowed.
 *   <li>{@code IJAVA_STARTUP_SCRIPT}: a block of Java run at start-up, after the scripts.
 *   <li>{@code IJAVA_COMPILER_OPTS}: javac options separated by spaces (e.g. {@code -parameters}).
 *   <li>{@code IJAVA_TIMEOUT}: limit per top-level snippet; milliseconds, or a number and a
 *       {@link TimeUnit} name ({@code 30 SECONDS}); below 1 means none (the default).
 * </ul>
 */
record KernelEnv(
        List<String> classpath,
        List<Path> startupScripts,
        String startupScript,
        List<String> compilerOptions,
        long timeoutMillis) {

    static KernelEnv from(Map<String, String> env) {
        return new KernelEnv(
                named("IJAVA_CLASSPATH", () -> expand(get(env, "CLASSPATH"), false)).stream()
                        .map(Path::toString)
                        .toList(),
                named("IJAVA_STARTUP_SCRIPTS_PATH", () -> expand(get(env, "STARTUP_SCRIPTS_PATH"), true)),
                get(env, "STARTUP_SCRIPT"),
                splitWords(get(env, "COMPILER_OPTS")),
                parseTimeout(get(env, "TIMEOUT")));
    }

    /** The kernel refuses to start on a bad variable, so its message must name the variable. */
    private static <T> T named(String variable, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(variable + ": " + e.getMessage(), e);
        }
    }

    private static String get(Map<String, String> env, String suffix) {
        String v = env.get("IJAVA_" + suffix);
        return v != null ? v : env.get("JJAVA_" + suffix);
    }

    static List<String> splitWords(String s) {
        if (s == null || s.isBlank()) {
            return List.of();
        }
        return List.of(s.trim().split("\\s+"));
    }

    static long parseTimeout(String s) {
        if (s == null || s.isBlank()) {
            return -1;
        }
        String[] parts = s.trim().split("\\s+");
        try {
            long n = Long.parseLong(parts[0]);
            if (parts.length == 1) {
                return n;
            }
            TimeUnit unit = TimeUnit.valueOf(parts[1].toUpperCase(Locale.ROOT));
            return unit.toMillis(n);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "IJAVA_TIMEOUT: '" + s + "' is not a duration (milliseconds, or e.g. '30 SECONDS')", e);
        }
    }

    /** Each path-separated entry expanded as a glob, in order; entries that match nothing are kept as given. */
    static List<Path> expand(String list, boolean filesOnly) {
        List<Path> out = new ArrayList<>();
        if (list == null || list.isBlank()) {
            return out;
        }
        for (String entry : list.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            out.addAll(glob(entry, filesOnly));
        }
        return out;
    }

    /** Paths a glob names (absolute); bad input when it names nothing, so a typo is not silent. */
    static List<Path> glob(String pattern, boolean filesOnly) {
        List<Path> found = new ArrayList<>();
        try {
            GlobFinder finder = new GlobFinder(pattern);
            for (Path p : filesOnly ? finder.computeMatchingFiles() : finder.computeMatchingPaths()) {
                found.add(p.toAbsolutePath().normalize());
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // A folder in the pattern does not exist: nothing matches.
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list '" + pattern + "': " + e, e);
        }
        if (found.isEmpty()) {
            throw new IllegalArgumentException("'" + pattern + "' matches no " + (filesOnly ? "file" : "path")
                    + " (relative to " + Path.of("").toAbsolutePath() + ")");
        }
        found.sort(null);
        return found;
    }
}
