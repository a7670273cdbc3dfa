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
    void anUnknownCallIsBadInput() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(List.of("child", "run", "--call", "nosuch"), new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--call"));
    }
}
