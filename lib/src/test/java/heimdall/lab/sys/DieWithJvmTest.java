package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code heimdall-die-with}: the command runs, keeps its status, dies when its parent is SIGKILLed,
 * and never starts when the pid it is to die with is not its parent (the parent died first).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DieWithJvmTest {
    @Test
    void theCommandRunsAndKeepsItsStatus() throws Exception {
        Process p = new ProcessBuilder(DieWithJvm.command("sh", "-c", "echo ran; exit 7"))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(7, p.exitValue());
        assertEquals("ran\n", out);
    }

    @Test
    void aParentThatIsNotTheOneNamedMeansNoRun() throws Exception {
        List<String> argv = new ArrayList<>(DieWithJvm.command("sh", "-c", "echo ran"));
        argv.set(1, "1"); // init is not our parent: as if the JVM had died before the prctl
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(125, p.exitValue());
        assertEquals("", out, "the command never started");
    }

    @Test
    void theTracerToldToDieWithAParentThatIsGoneNeverTraces() throws Exception {
        Path tracer = NativeLib.file("heimdall-trace");
        Process p = new ProcessBuilder(tracer.toString(), "--parent", "1", "--", "sh", "-c", "echo ran")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(125, p.exitValue());
        assertEquals("", out, "no trace, no command");
    }

    /**
     * A shell (the "JVM") starts a sleeper through heimdall-die-with and prints its pid; SIGKILL of the shell ends it.
     */
    @Test
    void theCommandDiesWithItsParent() throws Exception {
        Path wrapper = NativeLib.file("heimdall-die-with");
        Process parent = new ProcessBuilder("sh", "-c", "\"$0\" $$ sleep 60 & echo $!; wait", wrapper.toString())
                .redirectErrorStream(true)
                .start();
        long child;
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            child = Long.parseLong(r.readLine().strip());
            for (int i = 0; i < 100 && !cmdline(child).startsWith("sleep"); i++) {
                Thread.sleep(20); // until the exec
            }
            assertTrue(cmdline(child).startsWith("sleep"), "the sleeper runs: " + cmdline(child));
            parent.destroyForcibly();
            parent.waitFor();
        }
        for (int i = 0; i < 100 && alive(child); i++) {
            Thread.sleep(20);
        }
        assertFalse(alive(child), "sleep " + child + " outlived its SIGKILLed parent");
    }

    static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
        } catch (java.io.IOException gone) {
            return "";
        }
    }

    static boolean alive(long pid) {
        try {
            String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
            char state = s.charAt(s.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException gone) {
            return false;
        }
    }
}
