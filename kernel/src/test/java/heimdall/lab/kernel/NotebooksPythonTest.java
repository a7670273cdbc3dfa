package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.JupyterPython;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * notebooks/find-python and notebooks/run choose the Python with Jupyter (LAB_PYTHON, Debian's, an
 * active conda env's, PATH's) and fail loudly, never skip silently, when none has it; the kernel
 * tests' {@link JupyterPython} makes the same choice.
 */
class NotebooksPythonTest {
    static final Path NOTEBOOKS = Path.of("../notebooks").toAbsolutePath().normalize();
    static final Path FIND = NOTEBOOKS.resolve("find-python");
    static final Path RUN = NOTEBOOKS.resolve("run");
    static final Path DIST_PACKAGES = KernelFacts.PYTHON_DIST_PACKAGES;

    record Outcome(int exit, String out, String err) {}

    static Outcome run(Map<String, String> env, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "did not finish: " + List.of(cmd));
        return new Outcome(p.exitValue(), out.strip(), err.get());
    }

    static Map<String, String> env(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        m.put("PATH", "/usr/bin:/bin");
        m.put("HOME", System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static Path script(Path file, String body) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    /** A python3 that cannot import anything, as a pyenv or venv python without Jupyter. */
    static Path bare(Path dir) throws Exception {
        return script(dir.resolve("python3"), "echo 'ModuleNotFoundError: No module named nbconvert' >&2; exit 1");
    }

    @Test
    void theScriptAndTheTestsChooseTheSamePython() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.remove("LAB_PYTHON");
        Outcome o = run(env, FIND.toString());
        JupyterPython.Choice c = JupyterPython.find(env);
        if (c.python() == null) {
            assertEquals(1, o.exit(), o.err());
        } else {
            assertEquals(0, o.exit(), o.err());
            assertEquals(c.python(), Path.of(o.out()));
        }
    }

    @Test
    void labPythonIsUsedAloneAndABrokenOneIsBadInput(@TempDir Path tmp) throws Exception {
        Path good = JupyterPython.require();
        Path wrapper = script(tmp.resolve("mine/python3"), "exec " + good + " \"$@\"");
        Outcome chosen = run(env("LAB_PYTHON", wrapper.toString()), FIND.toString());
        assertEquals(0, chosen.exit(), chosen.err());
        assertEquals(wrapper.toString(), chosen.out());
        assertEquals(
                wrapper,
                JupyterPython.find(env("LAB_PYTHON", wrapper.toString())).python());

        // an explicit choice that cannot serve is never replaced by Debian's, which can
        Path broken = bare(tmp.resolve("venv/bin"));
        Outcome bad = run(env("LAB_PYTHON", broken.toString()), FIND.toString());
        assertEquals(2, bad.exit(), bad.err());
        assertEquals("", bad.out());
        assertTrue(
                bad.err().contains("LAB_PYTHON=" + broken) && bad.err().contains("No module named nbconvert"),
                bad.err());
        assertNull(JupyterPython.find(env("LAB_PYTHON", broken.toString())).python());

        Outcome runBad = run(env("LAB_PYTHON", broken.toString()), RUN.toString());
        assertEquals(2, runBad.exit(), runBad.err());
        assertTrue(
                runBad.err().contains("notebooks: FAILED") && runBad.err().contains("LAB_SKIP_NOTEBOOKS=1"),
                runBad.err());
    }

    @Test
    void skippingIsExplicitAndCiRefusesIt(@TempDir Path tmp) throws Exception {
        Path broken = bare(tmp);
        Outcome skipped = run(env("LAB_SKIP_NOTEBOOKS", "1", "LAB_PYTHON", broken.toString()), RUN.toString());
        assertEquals(0, skipped.exit(), skipped.err());
        assertTrue(skipped.err().contains("SKIPPED on purpose (LAB_SKIP_NOTEBOOKS=1)"), skipped.err());

        Outcome ci = run(env("LAB_SKIP_NOTEBOOKS", "1", "LAB_REQUIRE_NOTEBOOKS", "1"), RUN.toString());
        assertEquals(1, ci.exit(), ci.err());
        assertTrue(ci.err().contains("LAB_REQUIRE_NOTEBOOKS=1 requires them"), ci.err());
        Outcome ciCheck = run(env("LAB_SKIP_NOTEBOOKS", "1", "LAB_REQUIRE_NOTEBOOKS", "1"), RUN.toString(), "--check");
        assertEquals(1, ciCheck.exit(), ciCheck.err());
    }

    /**
     * A host whose Debian Python lacks Jupyter (its dist-packages hidden in a private mount namespace):
     * an activated conda env's Python is chosen; with no conda env and a bare python3 on PATH, the
     * notebooks fail naming all three candidates instead of being skipped with exit 0.
     */
    @Test
    void withoutDebiansJupyterCondasIsChosenAndNoneFailsLoudly(@TempDir Path tmp) throws Exception {
        Requires.that(
                KernelFacts.root(),
                KernelFacts.capability(21, "CAP_SYS_ADMIN"),
                KernelFacts.onPath("unshare", "Debian package util-linux"),
                KernelFacts.pythonModule("nbconvert", "Debian package jupyter-nbconvert"),
                KernelFacts.pythonModule("nbclient", "Debian package python3-nbclient"),
                KernelFacts.pythonModule("jupyter_client", "Debian package python3-jupyter-client"),
                KernelFacts.executable(JupyterPython.DEBIAN, "Debian package python3"));
        Path real = Files.createDirectories(tmp.resolve("real-dist-packages"));
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        // the conda env's python: Debian's interpreter with the (moved) modules, as conda's own would have them
        Path conda = tmp.resolve("conda");
        Path condaPython = script(
                conda.resolve("bin/python3"), "PYTHONPATH=" + real + " exec " + JupyterPython.DEBIAN + " \"$@\"");
        Path venv = tmp.resolve("venv/bin");
        bare(venv);
        String hide = "set -e; mount --bind " + DIST_PACKAGES + " " + real + "; mount --bind " + empty + " "
                + DIST_PACKAGES + "; exec \"$@\"";

        Outcome withConda = run(
                env("CONDA_PREFIX", conda.toString()),
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                hide,
                "sh",
                FIND.toString());
        assertEquals(0, withConda.exit(), withConda.err());
        assertEquals(condaPython.toString(), withConda.out());

        Outcome none = run(
                env("PATH", venv + ":/usr/bin:/bin"),
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                hide,
                "sh",
                RUN.toString());
        assertEquals(1, none.exit(), none.err());
        String e = none.err();
        assertTrue(e.contains("Debian's /usr/bin/python3: cannot import them (ModuleNotFoundError"), e);
        assertTrue(e.contains("CONDA_PREFIX is not set"), e);
        assertTrue(e.contains("PATH's " + venv.resolve("python3") + ": cannot import them"), e);
        assertTrue(e.contains("notebooks: FAILED") && !e.contains("SKIPPED"), e);
    }
}
