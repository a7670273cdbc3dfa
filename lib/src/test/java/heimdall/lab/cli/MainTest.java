package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.command.Command;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void unknownCommandIsUsageErrorWithExit2() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                List.of("no-such-thing"),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'no-such-thing'"));
    }

    @Test
    void helpListsEveryCommandAndExits0() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Main.run(
                List.of("--help"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream()));
        assertEquals(0, status);
        for (Command c : Main.commands()) {
            assertTrue(out.toString(StandardCharsets.UTF_8).contains(c.name()), c.name());
        }
    }
}
