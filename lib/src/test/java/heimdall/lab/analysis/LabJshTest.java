package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.LabJvm;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs jshell-startup/lab.jsh in the real jshell tool, non-interactively, as ./lab jshell starts it,
 * and checks what its helpers print for a results folder.
 */
class LabJshTest {
    @Test
    void labJshLoadsAResultsFolderAndPrintsItsTable(@TempDir Path tmp) throws Exception {
        Path jshell = Path.of(System.getProperty("java.home"), "bin", "jshell");
        Requires.that(KernelFacts.executable(jshell, "the JDK running the tests (a JRE has none)"));
        Path folder = SyntheticResults.floorFolder(tmp.resolve("results"));
        Path script = tmp.resolve("session.jsh");
        Files.writeString(
                script,
                String.join(
                        "\n",
                        "var t = summary(\"" + folder + "\");",
                        "System.out.println(\"rows=\" + t.rowCount());",
                        "System.out.println(\"added0=\" + Math.round(t.numberColumn(\"added_ns\").getDouble(0)));",
                        "System.out.println(\"png=\" + Files.size(savePlot(CallPlots.distribution(results(\"" + folder
                                + "\")), \"" + tmp.resolve("d.png") + "\")));",
                        "/exit",
                        ""));
        LabJvm.Jshell run = LabJvm.runJshell(Fixtures.home(), script, tmp, 120);
        String text = run.out();
        assertEquals(0, run.status(), text);
        Results r = Results.load(folder);
        long added0 = Math.round(r.summary().numberColumn("added_ns").getDouble(0));
        // The table printed by summary(): its header and one line per row.
        assertTrue(
                text.contains("median_ns") && text.contains("added_ns") && text.contains("published_median_ns"), text);
        assertTrue(text.contains("getppid") && text.contains("openat"), text);
        assertTrue(text.contains("rows=4"), text);
        assertTrue(text.contains("added0=" + added0), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("png=") && Long.parseLong(l.substring(4)) > 1000), text);
        assertTrue(!text.contains("Error") && !text.contains("Exception"), text);
        assertTrue(List.of(text.split("\n")).size() > 6);
    }
}
