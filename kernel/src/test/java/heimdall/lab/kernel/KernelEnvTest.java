package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelEnvTest {
    @Test
    void timeoutIsMillisecondsOrANumberAndAUnit() {
        assertEquals(-1, KernelEnv.parseTimeout(null));
        assertEquals(-1, KernelEnv.parseTimeout("-1"));
        assertEquals(2500, KernelEnv.parseTimeout("2500"));
        assertEquals(30_000, KernelEnv.parseTimeout("30 SECONDS"));
        assertEquals(120_000, KernelEnv.parseTimeout("2 minutes"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelEnv.parseTimeout("soon"));
        assertTrue(e.getMessage().contains("IJAVA_TIMEOUT"));
    }

    @Test
    void classpathAndScriptsExpandGlobsInOrder(@TempDir Path dir) throws Exception {
        Files.createFile(dir.resolve("b.jar"));
        Files.createFile(dir.resolve("a.jar"));
        Files.createFile(dir.resolve("s.jsh"));
        KernelEnv env = KernelEnv.from(Map.of(
                "IJAVA_CLASSPATH",
                dir + "/*.jar:" + dir,
                "IJAVA_STARTUP_SCRIPTS_PATH",
                dir + "/*.jsh",
                "IJAVA_COMPILER_OPTS",
                " -parameters   -Xlint:all ",
                "JJAVA_TIMEOUT",
                "5"));
        assertEquals(
                List.of(dir.resolve("a.jar").toString(), dir.resolve("b.jar").toString(), dir.toString()),
                env.classpath());
        assertEquals(List.of(dir.resolve("s.jsh")), env.startupScripts());
        assertEquals(List.of("-parameters", "-Xlint:all"), env.compilerOptions());
        assertEquals(5, env.timeoutMillis(), "JJava's name is the fallback");
    }

    @Test
    void aPatternMatchingNothingIsAnError(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> KernelEnv.from(Map.of("IJAVA_CLASSPATH", dir + "/missing/*.jar")));
        assertTrue(
                e.getMessage().startsWith("IJAVA_CLASSPATH: ") && e.getMessage().contains("matches no path"),
                e.getMessage());
    }
}
