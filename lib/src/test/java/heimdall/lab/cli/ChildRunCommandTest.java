package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildRunCommandTest {
    @Test
    void runsAChildAndPrintsItsFigures() {
        PrintStream saved = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            status = Main.run(List.of("child", "run", "--call", "getppid", "--count", "1000"), System.out, System.err);
        } finally {
            System.setOut(saved);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text);
        assertTrue(text.contains("per call     median"), text);
        assertTrue(text.contains("fate         exited normally"), text);
    }

    @Test
    void aChildThatExitsWithoutMeasuringFailsWithExit1() {
        // 231 is exit_group: the runner ends with status 0 in its warm-up, having measured nothing.
        BpfCommandsTest.Outcome o = BpfCommandsTest.run("child", "run", "--call", "231", "--count", "100");
        assertEquals(1, o.status(), o.out() + o.err());
        assertTrue(
                o.out()
                        .contains("fate         exited with 0 during warm-up, before it finished measuring; 0 of 100 "
                                + "samples"),
                o.out());
        assertTrue(
                !o.out().contains("per call     median"), "no figures from a run that measured nothing:\n" + o.out());
    }

    @Test
    void anUnknownCallIsBadInput() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                List.of("child", "run", "--call", "nosuch"),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--call"));
    }
}
