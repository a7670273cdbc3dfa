package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.imageio.ImageIO;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real kernel: installs its kernelspec into a temporary prefix, starts it with jupyter_client
 * (Debian's /usr/bin/python3) and executes cells over ZeroMQ, then checks the messages that came back.
 */
class KernelProtocolTest {
    static final String PYTHON = "/usr/bin/python3";
    static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    static Path tmp;
    static JsonNode cells;
    static Path jar;

    static final String[] CODE = {
        /* 0 */ "1 + 2",
        /* 1 */ "System.out.println(\"hello from a cell\");",
        /* 2 */ "int broken = \"not an int\";",
        /* 3 */ "var img = new java.awt.image.BufferedImage(40, 30, java.awt.image.BufferedImage.TYPE_INT_RGB);\n"
                + "img.setRGB(3, 4, 0xff0000);\nimg",
        /* 4 */ "%classpath JAR\nnew tiny.Greeter().greet(\"kernel\")",
        /* 5 */ "Table.create(\"t\", IntColumn.create(\"n\", new int[] {1, 2, 3}))",
        /* 6 */ "Plots.ecdf(\"timer\", Map.of(\"a\", new double[] {1, 2, 3, 50}))",
        /* 7 */ "startupValue + 1",
        /* 8 */ "Integer.parseInt(\"x\")",
        /* 9 */ "%jars NOPE/*.jar",
        /* 10 */ "display(img); display(\"second\"); 7",
        /* 11 */ "int a = 1;\nint b = a + 1;\nb * 10",
        /* 12 */ "Thread.sleep(600_000)",
        /* 13 */ "long spins = 0; while (true) { spins++; }",
        /* 14 */ "\"still answering\"",
        /* 15 */ "%load LOADFILE\nloaded * 2",
        /* 16 */ "new envjar.Greeter().greet(\"env\")",
        /* 17 */ "//interrupt-after 1\nlong turns = 0; while (true) { turns++; }",
        /* 18 */ "\"after the interrupt\"",
    };

    @BeforeAll
    static void runKernel() throws Exception {
        // the installed files only: if python3 then cannot drive our kernel, the tests fail
        Requires.that(KernelFacts.executable(Path.of(PYTHON), "Debian package python3"),
                KernelFacts.pythonModule("jupyter_client", "Debian package python3-jupyter-client"));

        jar = tinyJar(tmp.resolve("tiny"), "tiny");
        Path envJars = tinyJar(tmp.resolve("envjar"), "envjar").getParent();
        Path loadFile = Files.writeString(tmp.resolve("defs.jsh"), "int loaded = 21;\n");
        Path prefix = tmp.resolve("prefix");
        KernelInstall.install(Files.createDirectories(KernelInstall.specDir(prefix, "heimdall-lab-test")),
                testClasspath());
        JsonNode spec = new ObjectMapper().readTree(KernelInstall.specDir(prefix, "heimdall-lab-test")
                .resolve("kernel.json").toFile());
        assertEquals("Java (heimdall-lab)", spec.get("display_name").asText());
        assertEquals("java", spec.get("language").asText());
        assertEquals("{connection_file}", spec.get("argv").get(spec.get("argv").size() - 1).asText());
        assertTrue(spec.get("argv").toString().contains("--add-opens=java.base/java.nio=ALL-UNNAMED"));

        List<String> code = new ArrayList<>();
        for (String c : CODE) {
            code.add(c.replace("LOADFILE", loadFile.toString()).replace("JAR", jar.toString())
                    .replace("NOPE", tmp.resolve("nope").toString()));
        }
        Path cellsFile = tmp.resolve("cells.json");
        new ObjectMapper().writeValue(cellsFile.toFile(), code);
        Path driver = tmp.resolve("drive_kernel.py");
        try (InputStream in = KernelProtocolTest.class.getResourceAsStream("drive_kernel.py")) {
            Files.copy(in, driver);
        }
        ProcessBuilder pb = new ProcessBuilder(PYTHON, driver.toString(), "heimdall-lab-test", cellsFile.toString());
        pb.environment().put("JUPYTER_PATH", prefix.resolve("share/jupyter").toString());
        pb.environment().put("JUPYTER_RUNTIME_DIR", tmp.resolve("runtime").toString());
        pb.environment().put("IJAVA_STARTUP_SCRIPT", "int startupValue = 41;");
        pb.environment().put("IJAVA_TIMEOUT", "3 SECONDS");
        pb.environment().put("IJAVA_CLASSPATH", envJars + "/*.jar");
        Result r = run(pb, 300);
        assertEquals(0, r.exit, "driver failed:\n" + r.err + "\n" + r.out);
        cells = new ObjectMapper().readTree(r.out);
        assertEquals(CODE.length, cells.size());
    }

    @Test
    void anExpressionsValueIsTheExecuteResult() {
        assertEquals("3", data(0, "execute_result", "text/plain"));
        assertEquals("ok", cells.get(0).get("status").asText());
        assertEquals("20", data(11, "execute_result", "text/plain"), "several snippets, last one's value");
    }

    @Test
    void stdoutIsAStream() {
        JsonNode s = only(1, "stream");
        assertEquals("stdout", s.get("name").asText());
        assertEquals("hello from a cell\n", s.get("text").asText());
        assertTrue(outputs(1, "execute_result").isEmpty(), "a statement has no value");
    }

    @Test
    void aCompileErrorCarriesJavacsMessage() {
        JsonNode e = only(2, "error");
        assertEquals("error", cells.get(2).get("status").asText());
        assertEquals("CompilationError", e.get("ename").asText());
        assertTrue(e.get("evalue").asText().contains("incompatible types"), e.toString());
        assertTrue(e.get("traceback").toString().contains("int broken"), e.toString());
    }

    @Test
    void anImageIsRenderedAsPng() throws IOException {
        BufferedImage img = png(data(3, "execute_result", "image/png"));
        assertEquals(40, img.getWidth());
        assertEquals(30, img.getHeight());
        assertEquals(0xff0000, img.getRGB(3, 4) & 0xffffff);
    }

    @Test
    void classpathMagicAddsAJarThatALaterSnippetUses() {
        assertEquals("hello, kernel", data(4, "execute_result", "text/plain"));
    }

    @Test
    void tablesAreHtmlAndChartsArePng() throws IOException {
        String html = data(5, "execute_result", "text/html");
        assertTrue(html.contains("<table") && html.contains("<th>n</th>"), html);
        BufferedImage chart = png(data(6, "execute_result", "image/png"));
        assertEquals(heimdall.lab.analysis.Plots.WIDTH, chart.getWidth());
    }

    @Test
    void ijavaStartupScriptVariableIsHonoured() {
        assertEquals("42", data(7, "execute_result", "text/plain"));
    }

    @Test
    void aRuntimeExceptionIsAnErrorNamingIt() {
        JsonNode e = only(8, "error");
        assertTrue(e.toString().contains("NumberFormatException"), e.toString());
    }

    @Test
    void aMagicMatchingNothingIsAnError() {
        JsonNode e = only(9, "error");
        assertEquals("MagicError", e.get("ename").asText());
        assertTrue(e.get("evalue").asText().contains("matches no file"), e.toString());
    }

    @Test
    void displayShowsSeveralOutputsInOneCell() throws IOException {
        List<JsonNode> shown = outputs(10, "display_data");
        assertEquals(2, shown.size());
        assertEquals(40, png(shown.get(0).get("data").get("image/png").asText()).getWidth());
        assertEquals("7", data(10, "execute_result", "text/plain"));
    }

    @Test
    void ijavaTimeoutStopsSleepingAndSpinningSnippetsAndTheKernelGoesOn() {
        for (int cell : new int[] {12, 13}) {
            JsonNode e = only(cell, "error");
            assertEquals("EvaluationStopped", e.get("ename").asText());
            assertTrue(e.get("evalue").asText().contains("timed out after 3000 ms"), e.toString());
        }
        assertEquals("still answering", data(14, "execute_result", "text/plain"));
    }

    @Test
    void aJupyterInterruptStopsASpinningSnippet() {
        JsonNode e = only(17, "error");
        assertEquals("EvaluationStopped", e.get("ename").asText());
        assertEquals("Evaluation interrupted.", e.get("evalue").asText());
        assertEquals("after the interrupt", data(18, "execute_result", "text/plain"));
    }

    @Test
    void loadMagicEvaluatesAFile() {
        assertEquals("42", data(15, "execute_result", "text/plain"));
    }

    @Test
    void ijavaClasspathVariableAddsJarsByGlob() {
        assertEquals("hello, env", data(16, "execute_result", "text/plain"));
    }

    // --- helpers

    static List<JsonNode> outputs(int cell, String type) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode o : cells.get(cell).get("outputs")) {
            if (o.get("msg_type").asText().equals(type)) {
                out.add(o.get("content"));
            }
        }
        return out;
    }

    static JsonNode only(int cell, String type) {
        List<JsonNode> o = outputs(cell, type);
        assertEquals(1, o.size(), "cell " + cell + ": " + cells.get(cell));
        return o.get(0);
    }

    static String data(int cell, String type, String mime) {
        JsonNode d = only(cell, type).get("data");
        assertTrue(d.has(mime), "cell " + cell + " has no " + mime + ": " + cells.get(cell));
        return d.get(mime).asText();
    }

    static BufferedImage png(String base64) throws IOException {
        byte[] bytes = Base64.getMimeDecoder().decode(base64);
        assertArrayEquals(PNG, Arrays.copyOf(bytes, 8), "PNG signature");
        return ImageIO.read(new ByteArrayInputStream(bytes));
    }

    /** kernel/target/classes and the module's runtime class path (written by Maven). */
    static List<Path> testClasspath() throws IOException {
        List<Path> cp = new ArrayList<>();
        cp.add(Path.of("target/classes").toAbsolutePath());
        for (String e : Files.readString(Path.of("target/runtime-classpath.txt")).trim().split(java.io.File.pathSeparator)) {
            if (!e.isBlank()) {
                cp.add(Path.of(e));
            }
        }
        return cp;
    }

    /** A jar with one class, PKG.Greeter, compiled here so the test depends on nothing prebuilt. */
    static Path tinyJar(Path dir, String pkg) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/" + pkg)).resolve("Greeter.java");
        Files.writeString(src, "package " + pkg + "; public class Greeter { public String greet(String who) "
                + "{ return \"hello, \" + who; } }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), src.toString()));
        Path jarFile = Files.createDirectories(dir.resolve("jars")).resolve(pkg + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jarFile))) {
            out.putNextEntry(new JarEntry(pkg + "/Greeter.class"));
            out.write(Files.readAllBytes(classes.resolve(pkg + "/Greeter.class")));
            out.closeEntry();
        }
        return jarFile;
    }

    record Result(int exit, String out, String err) {}

    static Result run(List<String> cmd, Path dir, int seconds) throws Exception {
        return run(new ProcessBuilder(cmd), seconds);
    }

    static Result run(ProcessBuilder pb, int seconds) throws Exception {
        Path out = Files.createTempFile("kernel-test", ".out");
        Path err = Files.createTempFile("kernel-test", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + pb.command() + "\n" + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
