package heimdall.lab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One {@code ./lab} command line run in this JVM ({@link Main#run}) with what it printed, and the
 * checks every bad-input test makes on it: the status, the names the message must hold, and nothing
 * of ours leaking (a stack trace, a Java class or a parser's switch, a raw control character).
 *
 * @param status the exit status
 * @param out what it printed on standard output
 * @param err what it printed on standard error
 */
public record LabRun(int status, String out, String err) {
    /**
     * What a message in our words never holds: an exception's or a parser's class, a Jackson switch or
     * limit ({@code JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS}, {@code StreamReadConstraints}), a Java
     * type in Jackson's notation ({@code [simple type, class ...]}), a stack frame.
     */
    public static final Pattern LEAKS = Pattern.compile(
            "Exception|com\\.fasterxml|jackson|JsonReadFeature|StreamRead|DeserializationFeature|JsonParser"
                    + "|simple type|java\\.lang|java\\.util|heimdall\\.lab\\.|\\tat |internal error|`",
            Pattern.CASE_INSENSITIVE);

    /** Runs {@code argv} as {@code ./lab} would, capturing both streams (commands print to System.out/err too). */
    public static LabRun of(String... argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        System.setOut(o);
        System.setErr(e);
        try {
            int status = Main.run(List.of(argv), o, e);
            return new LabRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /**
     * Asserts the run ended with {@code status}, its standard error holds every one of {@code names}
     * (the file, the field, the reason), and holds no leak ({@link #LEAKS}) and no control character
     * but newlines: a user's value is printed escaped.
     */
    public LabRun assertRefused(int status, String... names) {
        assertEquals(status, this.status, "exit status; stderr:\n" + err + "\nstdout:\n" + out);
        for (String n : names) {
            assertTrue(err.contains(n), "stderr names '" + n + "':\n" + err);
        }
        assertClean(err);
        return this;
    }

    /** Asserts {@code message} holds no leak ({@link #LEAKS}) and no control character but newlines and tabs. */
    public static void assertClean(String message) {
        assertFalse(LEAKS.matcher(message).find(), "a Java or parser word, or a stack trace, in:\n" + message);
        assertTrue(
                message.chars().noneMatch(c -> (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f)),
                "a raw control character in:\n" + message);
    }
}
