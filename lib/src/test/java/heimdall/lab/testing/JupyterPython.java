package heimdall.lab.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * The Python the notebooks run with, chosen by the rule of {@code notebooks/find-python} (the tests
 * that drive Jupyter or check_executed.py use the same one, so they test what {@code ./lab test} runs):
 * {@code $LAB_PYTHON} when set, and only it; otherwise the first of {@code /usr/bin/python3},
 * {@code $CONDA_PREFIX/bin/python3} and {@code python3} on PATH that imports nbconvert, nbclient and
 * jupyter_client. Whether one does is a fact of the host's installed Python, asked of that Python
 * itself; no project code runs.
 */
public final class JupyterPython {
    /** Debian's python3, where python3-nbconvert and python3-nbclient install. */
    public static final Path DEBIAN = Path.of("/usr/bin/python3");

    static final String IMPORT = "import nbconvert, nbclient, jupyter_client";

    /**
     * The choice: {@code python} when one serves, else {@code null}; {@code tried} names each
     * candidate and why it did not serve.
     */
    public record Choice(Path python, List<String> tried) {}

    private JupyterPython() {}

    /** The choice for an environment (LAB_PYTHON, CONDA_PREFIX, PATH as in {@code env}). */
    public static Choice find(Map<String, String> env) {
        List<String> tried = new ArrayList<>();
        String explicit = env.get("LAB_PYTHON");
        if (explicit != null) {
            String why = problem(Path.of(explicit));
            tried.add("LAB_PYTHON=" + explicit + (why == null ? "" : ": " + why));
            return new Choice(why == null ? Path.of(explicit) : null, tried);
        }
        List<Path> seen = new ArrayList<>();
        List<Path> candidates = new ArrayList<>(List.of(DEBIAN));
        String conda = env.get("CONDA_PREFIX");
        if (conda != null && !conda.isEmpty()) {
            candidates.add(Path.of(conda, "bin", "python3"));
        } else {
            tried.add("conda's: CONDA_PREFIX is not set");
        }
        Path onPath = onPath(env.getOrDefault("PATH", ""));
        if (onPath != null) {
            candidates.add(onPath);
        } else {
            tried.add("PATH's: no python3 on PATH");
        }
        for (Path p : candidates) {
            if (seen.contains(p)) {
                continue;
            }
            seen.add(p);
            String why = problem(p);
            if (why == null) {
                return new Choice(p, tried);
            }
            tried.add(p + ": " + why);
        }
        return new Choice(null, tried);
    }

    /**
     * The Python for this test run: returns it, or skips the test (fails it under LAB_REQUIRE_KERNEL=1)
     * when the host has none. A LAB_PYTHON that cannot import the modules fails the test: the user
     * chose it, and a wrong choice is not a missing host fact.
     */
    public static Path require() {
        Choice c = find(System.getenv());
        if (c.python() == null && System.getenv("LAB_PYTHON") != null) {
            Assertions.fail("LAB_PYTHON cannot run the notebooks: " + c.tried());
        }
        Requires.that(new Fact(
                "a Python with nbconvert, nbclient and jupyter_client (Debian's jupyter-nbconvert "
                        + "python3-nbclient, or a conda env, or LAB_PYTHON)",
                c.python() != null,
                c.python() == null ? "tried " + c.tried() : c.python().toString()));
        return c.python();
    }

    /** Why {@code python} cannot serve, or {@code null} when it imports the three modules. */
    static String problem(Path python) {
        if (!Files.isRegularFile(python) || !Files.isExecutable(python)) {
            return "not an executable file";
        }
        try {
            Process p = new ProcessBuilder(python.toString(), "-c", IMPORT)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "did not finish '" + IMPORT + "' in 120 s";
            }
            if (p.exitValue() == 0) {
                return null;
            }
            String[] lines = out.split("\n");
            return "cannot import them (" + (out.isEmpty() ? "exit status " + p.exitValue() : lines[lines.length - 1])
                    + ")";
        } catch (IOException e) {
            return "cannot be started: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The first executable python3 in {@code path}'s folders, as the shell's {@code command -v} finds it. */
    static Path onPath(String path) {
        for (String dir : path.split(File.pathSeparator, -1)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "python3");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
