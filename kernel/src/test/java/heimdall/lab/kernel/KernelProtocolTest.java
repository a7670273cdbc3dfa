package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import heimdall.lab.testing.JupyterPython;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.imageio.ImageIO;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real kernel: installs its kernelspec into a temporary prefix, starts it with jupyter_client
 * (the Python notebooks/run uses: {@link JupyterPython}) and executes cells over ZeroMQ, then checks the messages that
 * came back.
 */
class KernelProtocolTest {
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
        /* 19 */ "%maven org.apache.commons:commons-text:1.12.0\n"
                + "org.apache.commons.text.WordUtils.capitalizeFully(\"hello maven world\")",
        /* 20 */ "%maven nonsense",
        /* 21 */ "%maven RGROUP:no-such-artifact:1.0",
        /* 22 */ "org.apache.commons.text.WordUtils.capitalize(\"still here\")",
        /* 23 */ "%mavenRepo bad/id https://example.org/m2",
        /* 24 */ "%mavenRepo local file:///tmp/m2",
        /* 25 */ "%mavenRepo mine REPOURL\n%maven RGROUP:greeter:1.0\nnew mvnjar.Greeter().greet(\"repo\")",
        /* 26 */ "%time 6 * 7",
        /* 27 */ "%%time\nint slept = 0;\nThread.sleep(300);\nslept + 1",
        /* 28 */ "%lsmagic",
        /* 29 */ "//inspect\nMath.max(@@1, 2)",
        /* 30 */ "//inspect\n\"abc\".substr@@ing",
        /* 31 */ "//inspect\n@@",
        /* 32 */ "heimdall.lab.kernel.KernelRenderers.register()",
        /* 33 */ "%time",
        /* 34 */ "//interrupt-when [1/\n"
                + "heimdall.lab.reproduce.floorcost.FloorCost.run("
                + "new heimdall.lab.reproduce.floorcost.FloorCost.Options("
                + "heimdall.lab.bench.FloorBench.Counts.published(), heimdall.lab.sys.Cpus.measuring(), "
                + "heimdall.lab.sys.Cpus.supervisor(), true), "
                + "heimdall.lab.bench.ResultsFolder.chosen(java.nio.file.Path.of(\"STOPDIR\")), "
                + "System.out::println)",
        /* 35 */ "\"runners: \" + ProcessHandle.current().descendants()"
                + ".filter(p -> p.info().command().map(c -> c.endsWith(\"heimdall-runner\")).orElse(false)).count()",
        /* 36 */ "\"the next cell\"",
        // IJava's and JJava's notebook functions (docs/display.md, docs/magics.md)
        /* 37 */ "String id = display(\"<b>one</b>\", \"text/html\");\nupdateDisplay(id, \"<b>two</b>\", "
                + "\"text/html\");\nid",
        /* 38 */ "String plain = display(\"first\");\nupdateDisplay(plain, \"second\");",
        /* 39 */ "render(\"# Title\", \"text/markdown\")",
        /* 40 */ "render(img)",
        /* 41 */ "eval(\"int fromEval = 40;\");\nfromEval + (int) eval(\"1 + 1\")",
        /* 42 */ "List<String> added = %jars JAR\nadded.size() + \" \" + added.get(0).endsWith(\"tiny.jar\")",
        /* 43 */ "List<String> viaCall = lineMagic(\"classpath\", List.of(\"JAR\"));\nviaCall.size()",
        /* 44 */ "List<String> fromPom = cellMagic(\"loadFromPOM\", List.of(), "
                + "\"<dependency><groupId>org.apache.commons</groupId>"
                + "<artifactId>commons-text</artifactId><version>1.12.0</version></dependency>\");\n"
                + "fromPom.stream().anyMatch(j -> j.endsWith(\"commons-text-1.12.0.jar\"))",
        /* 45 */ "%addMavenDependency org.apache.commons:commons-lang3:3.14.0\n"
                + "org.apache.commons.lang3.StringUtils.reverse(\"abc\")",
        /* 46 */ "%%loadFromPOM\n<project>\n  <modelVersion>4.0.0</modelVersion>\n"
                + "  <groupId>x</groupId><artifactId>y</artifactId><version>1</version>\n"
                + "  <properties><greeter.version>1.0</greeter.version></properties>\n"
                + "  <repositories><repository><id>mine</id><url>REPOURL</url></repository></repositories>\n"
                + "  <dependencies><dependency><groupId>RGROUP</groupId><artifactId>pomgreeter</artifactId>"
                + "<version>${greeter.version}</version></dependency></dependencies>\n</project>",
        /* 47 */ "new pomjar.Greeter().greet(\"pom\")",
        /* 48 */ "%%loadFromPOM\n<?xml version=\"1.0\"?>\n<!DOCTYPE project [<!ENTITY x SYSTEM "
                + "\"file:///etc/hostname\">]>\n"
                + "<project><dependencies>&x;</dependencies></project>",
        /* 49 */ "String.format(\"n=%d\", 7)",
        /* 50 */ "int ok1 = 1;\nint ok2 = 2;\n\nInteger.parseInt(\"y\" + ok1)",
        /* 51 */ "int c1 = 1;\nString c2 = 5;",
        /* 52 */ "//is_complete\nfor (int i = 0; i < 3; i++) {",
        /* 53 */ "//is_complete\n1 + 2",
        /* 54 */ "//history tail 1000",
        /* 55 */ "//history search *parseInt*",
        /* 56 */ "//inspect\nheimdall.lab.explore.Lab.meas@@ure(\"getppid\")",
        /* 57 */ "%addMavenRepo bad/id https://example.org/m2",
    };
    /** A group id of this run's own, so the artifacts it puts into ~/.m2/repository can be removed. */
    static final String GROUP = "heimdall.test.r" + Long.toHexString(new java.security.SecureRandom().nextLong() >>> 1);

    static HttpServer repoServer;

    @BeforeAll
    static void runKernel() throws Exception {
        // a host Python that imports jupyter_client; if it then cannot drive our kernel, the tests fail
        String python = JupyterPython.require().toString();

        jar = tinyJar(tmp.resolve("tiny"), "tiny");
        Path envJars = tinyJar(tmp.resolve("envjar"), "envjar").getParent();
        Path loadFile = Files.writeString(tmp.resolve("defs.jsh"), "int loaded = 21;\n");
        Path repo = mavenRepo(tmp.resolve("m2"), tinyJar(tmp.resolve("mvnjar"), "mvnjar"));
        mavenRepo(repo, tinyJar(tmp.resolve("pomjar"), "pomjar"), "pomgreeter");
        repoServer = serve(repo);
        String repoUrl = "http://127.0.0.1:" + repoServer.getAddress().getPort() + "/repo/";
        Path prefix = tmp.resolve("prefix");
        KernelInstall.install(
                Files.createDirectories(KernelInstall.specDir(prefix, "heimdall-lab-test")), testClasspath());
        JsonNode spec = new ObjectMapper()
                .readTree(KernelInstall.specDir(prefix, "heimdall-lab-test")
                        .resolve("kernel.json")
                        .toFile());
        assertEquals("Java (heimdall-lab)", spec.get("display_name").asText());
        assertEquals("java", spec.get("language").asText());
        assertEquals(
                "{connection_file}",
                spec.get("argv").get(spec.get("argv").size() - 1).asText());
        assertTrue(spec.get("argv").toString().contains("--add-opens=java.base/java.nio=ALL-UNNAMED"));

        List<String> code = new ArrayList<>();
        for (String c : CODE) {
            code.add(c.replace("LOADFILE", loadFile.toString())
                    .replace("JAR", jar.toString())
                    .replace("NOPE", tmp.resolve("nope").toString())
                    .replace("REPOURL", repoUrl)
                    .replace("RGROUP", GROUP)
                    .replace("STOPDIR", tmp.resolve("stopped").toString()));
        }
        Path cellsFile = tmp.resolve("cells.json");
        new ObjectMapper().writeValue(cellsFile.toFile(), code);
        Path driver = tmp.resolve("drive_kernel.py");
        try (InputStream in = KernelProtocolTest.class.getResourceAsStream("drive_kernel.py")) {
            Files.copy(in, driver);
        }
        ProcessBuilder pb = new ProcessBuilder(python, driver.toString(), "heimdall-lab-test", cellsFile.toString());
        pb.environment().put("JUPYTER_PATH", prefix.resolve("share/jupyter").toString());
        pb.environment().put("JUPYTER_RUNTIME_DIR", tmp.resolve("runtime").toString());
        pb.environment().put("IJAVA_STARTUP_SCRIPT", "int startupValue = 41;");
        // long enough for floor-cost's first run on a loaded machine (cell 34 is interrupted after it)
        pb.environment().put("IJAVA_TIMEOUT", "10 SECONDS");
        pb.environment().put("IJAVA_CLASSPATH", envJars + "/*.jar");
        Result r = run(pb, 480);
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
            assertTrue(e.get("evalue").asText().contains("timed out after 10000 ms"), e.toString());
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

    /**
     * Issue 13: a notebook interrupt during a floor-cost measurement at the published counts stops it
     * cooperatively (the library's stop flag, the running child ended), on JDK 17 and on JDK 25 alike:
     * the results folder holds what was measured marked interrupted, no runner is left, and the kernel
     * runs the next cell.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aNotebookInterruptStopsAMeasurementAndKeepsWhatItMeasured() throws IOException {
        // A kernel fact (/proc/sys/kernel/seccomp/actions_avail): floor-cost's rows install filters.
        heimdall.lab.testing.Requires.seccomp("kill_process", "errno", "allow", "user_notif");
        JsonNode e = only(34, "error");
        assertEquals("EvaluationStopped", e.get("ename").asText(), e.toString());
        String printed = outputs(34, "stream").toString();
        assertTrue(
                printed.contains("floor-cost: interrupted (notebook/jshell interrupt); writing what was measured"),
                printed);
        Map<String, Object> top =
                new ObjectMapper().readValue(tmp.resolve("stopped/summary.json").toFile(), Map.class);
        assertEquals(Boolean.TRUE, top.get("interrupted"));
        assertEquals("interrupted (notebook/jshell interrupt)", top.get("interruption"));
        assertNull(top.get("signal"), "no signal: a notebook interrupt");
        List<Map<String, Object>> rows = (List<Map<String, Object>>) top.get("rows");
        assertTrue(
                rows.stream()
                        .anyMatch(r -> (Integer) r.get("runs_completed") + (Integer) r.get("runs_none_completed") > 0),
                "some runs (filtered or baseline) were kept: " + rows);
        assertTrue(rows.stream().anyMatch(r -> Boolean.TRUE.equals(r.get("interrupted"))), "rows marked");
        assertEquals("runners: 0", data(35, "execute_result", "text/plain"), "no heimdall-runner outlives the stop");
        assertEquals("the next cell", data(36, "execute_result", "text/plain"));
    }

    @Test
    void loadMagicEvaluatesAFile() {
        assertEquals("42", data(15, "execute_result", "text/plain"));
    }

    @Test
    void ijavaClasspathVariableAddsJarsByGlob() {
        assertEquals("hello, env", data(16, "execute_result", "text/plain"));
    }

    @AfterAll
    static void removeTestArtifacts() throws IOException {
        if (repoServer != null) {
            repoServer.stop(0);
        }
        Path mine = MavenResolver.defaultLocalRepository().resolve(GROUP.replace('.', '/'));
        if (Files.isDirectory(mine, LinkOption.NOFOLLOW_LINKS)) {
            try (var walk = Files.walk(mine)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        // heimdall/test and heimdall, when this run made them and nothing else is in them
        for (Path p = mine.getParent();
                p != null
                        && p.startsWith(MavenResolver.defaultLocalRepository())
                        && !p.equals(MavenResolver.defaultLocalRepository());
                p = p.getParent()) {
            try (var rest = Files.list(p)) {
                if (rest.findAny().isPresent()) {
                    break;
                }
                Files.delete(p);
            } catch (java.nio.file.NoSuchFileException | java.nio.file.DirectoryNotEmptyException e) {
                break; // someone else's, or filled meanwhile
            }
        }
    }

    @Test
    void mavenResolvesAnArtifactWithItsDependenciesIntoTheClasspath() {
        assertEquals("ok", cells.get(19).get("status").asText(), cells.get(19).toString());
        assertEquals("Hello Maven World", data(19, "execute_result", "text/plain"));
        String printed = stdout(19);
        assertTrue(printed.contains("org.apache.commons:commons-text:1.12.0: 2 jars"), printed);
        Path local = MavenResolver.defaultLocalRepository();
        assertTrue(
                printed.contains(local.resolve("org/apache/commons/commons-text/1.12.0/commons-text-1.12.0.jar")
                        .toString()),
                printed);
        assertTrue(
                printed.contains(local.resolve("org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar")
                        .toString()),
                "the transitive dependency: " + printed);
    }

    @Test
    void mavenRefusesBadCoordinatesAndMissingArtifactsAndTheKernelGoesOn() {
        JsonNode bad = only(20, "error");
        assertEquals("error", cells.get(20).get("status").asText());
        assertEquals("MagicError", bad.get("ename").asText());
        assertTrue(bad.get("evalue").asText().contains("bad coordinates 'nonsense'"), bad.toString());
        JsonNode missing = only(21, "error");
        assertEquals("MagicError", missing.get("ename").asText());
        assertTrue(
                missing.get("evalue").asText().contains("cannot resolve " + GROUP + ":no-such-artifact:1.0"),
                missing.toString());
        assertEquals("Still Here", data(22, "execute_result", "text/plain"));
    }

    @Test
    void mavenRepoRefusesBadIdsAndNonHttpUrls() {
        JsonNode id = only(23, "error");
        assertTrue(id.get("evalue").asText().contains("bad repository id 'bad/id'"), id.toString());
        JsonNode url = only(24, "error");
        assertTrue(url.get("evalue").asText().contains("an https:// URL with a host is required"), url.toString());
    }

    @Test
    void mavenRepoAddsARepositoryThatMavenThenResolvesFrom() {
        assertEquals("ok", cells.get(25).get("status").asText(), cells.get(25).toString());
        assertEquals("hello, repo", data(25, "execute_result", "text/plain"));
        assertTrue(
                Files.isRegularFile(MavenResolver.defaultLocalRepository()
                        .resolve(GROUP.replace('.', '/') + "/greeter/1.0/greeter-1.0.jar")),
                "cached in the local repository");
    }

    @Test
    void timeLineMagicTimesAnExpressionAndKeepsItsValue() {
        String printed = stdout(26);
        assertTrue(
                printed.matches("(?s)CPU time: [0-9.]+ (s|ms|µs) \\(kernel process\\)\nWall time: [0-9.]+ (s|ms|µs)\n"),
                printed);
        assertEquals("42", data(26, "execute_result", "text/plain"));
        JsonNode usage = only(33, "error");
        assertTrue(usage.get("evalue").asText().contains("%time needs code"), usage.toString());
    }

    @Test
    void timeCellMagicTimesTheWholeCell() {
        String printed = stdout(27);
        java.util.regex.Matcher wall =
                java.util.regex.Pattern.compile("Wall time: ([0-9.]+) (s|ms)").matcher(printed);
        assertTrue(wall.find(), printed);
        double ms = Double.parseDouble(wall.group(1)) * (wall.group(2).equals("s") ? 1000 : 1);
        assertTrue(ms >= 300, "the cell slept 300 ms: " + printed);
        assertEquals("1", data(27, "execute_result", "text/plain"));
    }

    @Test
    void lsmagicListsEveryMagic() {
        String printed = stdout(28);
        for (String m : List.of(
                "%classpath",
                "%jars",
                "%load",
                "%maven",
                "%mavenRepo",
                "%time",
                "%lsmagic",
                "%%time",
                "%addMavenDependency",
                "%addMavenRepo",
                "%loadFromPOM",
                "%%loadFromPOM")) {
            assertTrue(List.of(printed.split("\\s+")).contains(m), m + " in " + printed);
        }
    }

    @Test
    void shiftTabInspectionShowsSignatures() {
        JsonNode max = cells.get(29).get("inspect");
        assertEquals("ok", max.get("status").asText(), max.toString());
        assertTrue(max.get("found").asBoolean(), max.toString());
        String text = max.get("data").get("text/plain").asText();
        assertTrue(
                text.contains("int Math.max(int a, int b)") && text.contains("double Math.max(double a, double b)"),
                text);
        JsonNode substring = cells.get(30).get("inspect");
        assertTrue(substring.get("found").asBoolean(), substring.toString());
        String sub = substring.get("data").get("text/plain").asText();
        assertTrue(sub.contains("String String.substring(int beginIndex)"), "on a bare method name: " + sub);
        // Javadoc comes from the JDK's sources, when the JDK ships them (Debian's src.zip is a package of its own)
        Path src = Path.of(System.getProperty("java.home"), "lib", "src.zip");
        if (Files.isReadable(src)) {
            assertTrue(sub.contains("substring of this string"), "javadoc from " + src + ": " + sub);
        }
        JsonNode nothing = cells.get(31).get("inspect");
        assertEquals("ok", nothing.get("status").asText(), nothing.toString());
        assertTrue(!nothing.get("found").asBoolean(), nothing.toString());
    }

    @Test
    void kernelRenderersRegistersWithTheRunningKernel() {
        assertEquals(
                "Tablesaw tables as text/html, XChart charts as image/png: registered with "
                        + "heimdall.lab.kernel.LabKernel",
                data(32, "execute_result", "text/plain"));
    }

    // --- IJava's and JJava's notebook API

    @Test
    void displayWithTypesReturnsAnIdThatUpdateDisplayUpdates() {
        JsonNode shown = only(37, "display_data");
        assertEquals("<b>one</b>", shown.get("data").get("text/html").asText(), shown.toString());
        String id = shown.get("transient").get("display_id").asText();
        JsonNode updated = only(37, "update_display_data");
        assertEquals("<b>two</b>", updated.get("data").get("text/html").asText(), updated.toString());
        assertEquals(id, updated.get("transient").get("display_id").asText());
        assertEquals(id, data(37, "execute_result", "text/plain"), "display(...) returned the id");
        JsonNode first = only(38, "display_data");
        assertEquals("first", first.get("data").get("text/plain").asText());
        JsonNode second = only(38, "update_display_data");
        assertEquals("second", second.get("data").get("text/plain").asText());
        assertEquals(
                first.get("transient").get("display_id"),
                second.get("transient").get("display_id"));
    }

    @Test
    void renderIsTheCellsResultAsTheTypesAsked() throws IOException {
        assertEquals("# Title", data(39, "execute_result", "text/markdown"));
        assertTrue(outputs(39, "display_data").isEmpty(), "render publishes nothing itself");
        assertEquals(40, png(data(40, "execute_result", "image/png")).getWidth());
    }

    @Test
    void evalRunsCodeInTheSessionAndReturnsItsValue() {
        assertEquals("ok", cells.get(41).get("status").asText(), cells.get(41).toString());
        assertEquals("42", data(41, "execute_result", "text/plain"));
    }

    @Test
    void magicsAreExpressionsAndLineMagicIsTheirCall() {
        assertEquals("1 true", data(42, "execute_result", "text/plain"), "List<String> added = %jars ...");
        assertEquals("1", data(43, "execute_result", "text/plain"), "lineMagic(\"classpath\", ...)");
        assertEquals("n=7", data(49, "execute_result", "text/plain"), "'=%d' in a string is no magic");
    }

    @Test
    void addMavenDependencyAndLoadFromPomResolveWithMaven() {
        assertEquals(
                "true", data(44, "execute_result", "text/plain"), cells.get(44).toString());
        assertEquals(
                "cba", data(45, "execute_result", "text/plain"), cells.get(45).toString());
        assertEquals("ok", cells.get(46).get("status").asText(), cells.get(46).toString());
        assertTrue(stdout(46).contains("loadFromPOM: 1 dependency, 1 jar"), stdout(46));
        assertEquals(
                "hello, pom",
                data(47, "execute_result", "text/plain"),
                "the POM's own repository and ${property} were used");
        JsonNode e = only(48, "error");
        assertEquals("MagicError", e.get("ename").asText(), e.toString());
        assertTrue(e.get("evalue").asText().contains("DOCTYPE"), "no DOCTYPE, no external entity: " + e);
        JsonNode alias = only(57, "error");
        assertTrue(alias.get("evalue").asText().contains("bad repository id 'bad/id'"), "%addMavenRepo: " + alias);
    }

    @Test
    void errorsNameTheCellsLine() {
        JsonNode e = only(50, "error");
        assertTrue(e.get("traceback").toString().matches("(?s).*line 4 of cell \\[\\d+\\].*"), e.toString());
        JsonNode c = only(51, "error");
        assertTrue(c.get("traceback").toString().contains("line 2: error: incompatible types"), c.toString());
    }

    @Test
    void isCompleteGivesAnIndentForAnOpenBlock() {
        JsonNode open = cells.get(52).get("is_complete");
        assertEquals("incomplete", open.get("status").asText(), open.toString());
        assertEquals("    ", open.get("indent").asText(), open.toString());
        assertEquals("complete", cells.get(53).get("is_complete").get("status").asText());
    }

    @Test
    void historyRequestsAreAnswered() {
        JsonNode tail = cells.get(54).get("history");
        assertTrue(tail.has("history"), tail.toString());
        String all = tail.get("history").toString();
        // jupyter-jvm-basekernel writes each entry as an object (session, cellNumber, input, output)
        assertTrue(all.contains("\"input\":\"1 + 2\",\"output\":\"3\""), "cell 0's input and output: " + all);
        String found = cells.get(55).get("history").get("history").toString();
        assertTrue(found.contains("Integer.parseInt(\\\"x\\\")") && !found.contains("\"input\":\"1 + 2\""), found);
    }

    @Test
    void shiftTabShowsTheLibrarysJavadoc() {
        JsonNode measure = cells.get(56).get("inspect");
        assertTrue(measure.get("found").asBoolean(), measure.toString());
        String text = measure.get("data").get("text/plain").asText();
        assertTrue(
                text.contains("Measure Lab.measure(String call)") && text.contains("Measures a call by name"),
                "the library's Javadoc, from its sources jar: " + text);
    }

    // --- helpers

    /** A Maven repository holding GROUP:greeter:1.0 (jar, pom, SHA-1s), as a remote repository lays it out. */
    static Path mavenRepo(Path root, Path jar) throws Exception {
        return mavenRepo(root, jar, "greeter");
    }

    /** The same for GROUP:ARTIFACT:1.0. */
    static Path mavenRepo(Path root, Path jar, String artifact) throws Exception {
        Path dir = Files.createDirectories(root.resolve(GROUP.replace('.', '/')).resolve(artifact + "/1.0"));
        Files.copy(jar, dir.resolve(artifact + "-1.0.jar"));
        Files.writeString(
                dir.resolve(artifact + "-1.0.pom"),
                "<project><modelVersion>4.0.0</modelVersion><groupId>" + GROUP + "</groupId><artifactId>" + artifact
                        + "</artifactId><version>1.0</version></project>\n");
        for (String f : List.of(artifact + "-1.0.jar", artifact + "-1.0.pom")) {
            byte[] sha1 = java.security.MessageDigest.getInstance("SHA-1").digest(Files.readAllBytes(dir.resolve(f)));
            Files.writeString(dir.resolve(f + ".sha1"), java.util.HexFormat.of().formatHex(sha1));
        }
        return root;
    }

    /** Serves {@code root} read-only under /repo/ on the loopback interface. */
    static HttpServer serve(Path root) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        Path base = root.toRealPath();
        server.createContext("/repo/", exchange -> {
            try (exchange) {
                Path file = base.resolve(exchange.getRequestURI().getPath().substring("/repo/".length()))
                        .normalize();
                boolean head = exchange.getRequestMethod().equals("HEAD");
                if (!file.startsWith(base)
                        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                        || !(head || exchange.getRequestMethod().equals("GET"))) {
                    exchange.sendResponseHeaders(404, -1);
                    return;
                }
                byte[] body = Files.readAllBytes(file);
                exchange.sendResponseHeaders(200, head ? -1 : body.length);
                if (!head) {
                    exchange.getResponseBody().write(body);
                }
            }
        });
        server.start();
        return server;
    }

    static List<JsonNode> outputs(int cell, String type) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode o : cells.get(cell).get("outputs")) {
            if (o.get("msg_type").asText().equals(type)) {
                out.add(o.get("content"));
            }
        }
        return out;
    }

    /** Everything the cell printed on stdout, however the kernel split it into stream messages. */
    static String stdout(int cell) {
        StringBuilder out = new StringBuilder();
        for (JsonNode s : outputs(cell, "stream")) {
            if (s.get("name").asText().equals("stdout")) {
                out.append(s.get("text").asText());
            }
        }
        return out.toString();
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
        for (String e :
                Files.readString(Path.of("target/runtime-classpath.txt")).trim().split(java.io.File.pathSeparator)) {
            if (!e.isBlank()) {
                cp.add(Path.of(e));
            }
        }
        return cp;
    }

    /** A jar with one class, PKG.Greeter, compiled here so the test depends on nothing prebuilt. */
    static Path tinyJar(Path dir, String pkg) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/" + pkg)).resolve("Greeter.java");
        Files.writeString(
                src,
                "package " + pkg + "; public class Greeter { public String greet(String who) "
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
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
