package heimdall.lab.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lab.jsh's exploring helpers in the real jshell tool, as ./lab jshell starts it. */
class LabJshExploreTest {
    @Test
    void theHelpersMeasureBrokerAndStep(@TempDir Path tmp) throws Exception {
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        Requires.that(KernelFacts.executable(jshell, "the JDK running the tests (a JRE has none)"));
        Requires.seccomp("kill_process", "allow", "user_notif");
        Requires.ptrace();
        Path profile = Fixtures.home().resolve("fixtures/profiles/abcdf/x86_64-glibc.json");
        Path script = tmp.resolve("session.jsh");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "var f = floor(\"" + profile + "\");",
                        "System.out.println(\"length=\" + f.length());",
                        "var m = measure(\"getppid\", f);",
                        "System.out.println(\"runs=\" + m.runs().size());",
                        "System.out.println(\"addedRows=\" + added(\"getppid\", f).rowCount());",
                        "var rt = roundTrip(n -> Answer.error(13));",
                        "System.out.println(\"last=\" + rt.lastOutcome());",
                        "var s = stepper(\"/bin/true\");",
                        "System.out.println(\"denied=\" + s.step(\"reboot\").allowed());",
                        "/exit",
                        ""));
        LabJvm.Jshell run = LabJvm.runJshell(Fixtures.home(), script, tmp, 180);
        String text = run.out();
        assertEquals(0, run.status(), text);
        assertTrue(text.contains("length=" + Lab.fixtureFloor("abcdf").length()), text);
        assertTrue(text.contains("runs=3"), text);
        assertTrue(text.contains("addedRows=1"), text);
        assertTrue(text.contains("last=-1 EACCES"), text);
        assertTrue(text.contains("denied=false"), text);
        assertTrue(!text.contains("Error") && !text.contains("Exception"), text);
    }
}
