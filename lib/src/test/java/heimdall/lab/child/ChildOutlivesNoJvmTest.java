package heimdall.lab.child;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.LabJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM that exits (shutdown hook) or is SIGKILLed (parent-death signal) leaves no measured child
 * behind, even one that would wait forever (in {@code pause()}).
 */
class ChildOutlivesNoJvmTest {
    @ParameterizedTest
    @ValueSource(strings = {"exit", "hang"})
    void theChildDiesWithItsJvm(String how) throws Exception {
        List<String> cmd = LabJvm.of(OrphanProbe.class).command(how);
        Process jvm = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        long child;
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            String all = "";
            while ((line = r.readLine()) != null && !line.startsWith("child ")) {
                all += line + "\n";
            }
            assertTrue(line != null, "the probe printed no child pid:\n" + all);
            child = Long.parseLong(line.substring(6).trim());
            assertTrue(alive(child), "the child was not running while its JVM was");
            if (how.equals("hang")) {
                jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs
            } else {
                jvm.getOutputStream().write('\n');
                jvm.getOutputStream().flush();
            }
            jvm.waitFor();
        }
        // Bounded wait for the kernel and the reparented child's reaper; not a timing assertion.
        for (int i = 0; i < 100 && alive(child); i++) {
            Thread.sleep(50);
        }
        assertFalse(alive(child), "child " + child + " outlived its JVM (" + how + ")");
    }

    /** Running or sleeping; a zombie awaiting its new parent's reaping counts as dead. */
    private static boolean alive(long pid) throws IOException {
        Path stat = Path.of("/proc/" + pid + "/stat");
        try {
            String s = Files.readString(stat);
            char state = s.charAt(s.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException gone) {
            return false;
        }
    }
}
