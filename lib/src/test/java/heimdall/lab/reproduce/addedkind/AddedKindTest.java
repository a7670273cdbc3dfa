package heimdall.lab.reproduce.addedkind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.ReproductionKind;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adding a reproduction is one package: {@link TinyKind}, its row and settings records and one services line, all
 * in this test package (the line in this package's own {@code META-INF/services}, under its resources), and no
 * other file of the project changed. A JVM whose class path also holds that folder runs the kind through the CLI,
 * the first screen, results loading, the plots and compare ({@link AddedKindMain}); this JVM, without it, never
 * sees the kind, so every other test's registry stays the project's.
 */
class AddedKindTest {
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aKindFromTheTestSourcesRunsThroughEveryReader(@TempDir Path tmp) throws Exception {
        assertTrue(ReproductionKind.find("tiny").isEmpty(), "the kind is confined to its own JVM");
        Path services = Path.of(AddedKindTest.class
                .getResource("META-INF/services/heimdall.lab.results.ReproductionKind")
                .toURI());
        Path root = services.getParent().getParent().getParent();
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-Djava.awt.headless=true",
                "-Dheimdall.lab.home=" + Fixtures.home(),
                "-cp",
                System.getProperty("java.class.path") + File.pathSeparator + root,
                AddedKindMain.class.getName(),
                tmp.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM ended:\n" + out);
        assertEquals(0, p.exitValue(), out);
        for (String step : List.of("help", "reproduce and first screen", "results loading", "plots", "compare")) {
            assertTrue(out.contains("ok: " + step + "\n"), step + " in\n" + out);
        }
    }
}
