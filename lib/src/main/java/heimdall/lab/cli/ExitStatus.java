package heimdall.lab.cli;

import heimdall.lab.BadInput;
import heimdall.lab.ExitCodes;
import heimdall.lab.Io;
import heimdall.lab.Printable;
import heimdall.lab.Refusal;
import java.io.PrintWriter;

/**
 * The exit statuses of {@code ./lab}, in one place: the {@code --help} footer prints {@link #TEXT}
 * (README, "Exit status", says the same), and {@link #of} prints what a command threw and returns its
 * status ({@link ExitCodes#of}, the one mapping).
 */
public final class ExitStatus {
    private ExitStatus() {}

    /** The command did what was asked. */
    public static final int OK = ExitCodes.OK;
    /** A run or import was refused for a stated reason ({@link Refusal}). */
    public static final int REFUSED = ExitCodes.REFUSED;
    /** Bad input or usage, a file that cannot be read or written, or memory exhausted. */
    public static final int BAD_INPUT = ExitCodes.BAD_INPUT;
    /** An internal error: a bug in heimdall-lab. */
    public static final int BUG = ExitCodes.BUG;

    /** The statuses as {@code ./lab --help} prints them. */
    public static final String TEXT = """
            Exit status (every command):
              0  success
              1  refused for a stated reason (a floor that killed its child, a child that ended before it
                 finished measuring, a graph import refused, ...)
              2  bad input or usage (the message names the file, the field and the reason), an option out
                 of range, a file that cannot be read or written, a heap too small
              3  an internal error: a bug (the stack trace follows; please report it)
            A reproduction stopped by a signal ends with 128 + the signal's number (130 Ctrl-C, 143 SIGTERM).
            """;

    /**
     * Prints why {@code command} failed with {@code e} on {@code err} and returns the status: today's
     * messages ({@code lab X: error: ...}, {@code lab X: refused: ...}, {@code lab X: internal error ...}).
     * Every message is printed escaped: a path or value holding an escape sequence is shown as
     * {@code \e[2J}, never run by the terminal; a bad-input message is one line ({@link Printable#of}, a
     * newline in a path shown as {@code \n}), a refusal may hold several ({@link Printable#lines}).
     */
    static int of(String command, Throwable e, PrintWriter err) {
        if (e instanceof BadInput) {
            // one line by contract: a newline in it came from a value (a path), so it is escaped too
            err.println("lab " + command + ": error: " + Printable.of(e.getMessage()));
        } else if (e instanceof Refusal) {
            err.println("lab " + command + ": refused: " + Printable.lines(e.getMessage()));
        } else if (e instanceof OutOfMemoryError) {
            // A resource limit, not a bug: say which one and how to raise it.
            err.println("lab " + command + ": error: out of memory: this JVM's heap (at most "
                    + (Runtime.getRuntime().maxMemory() >> 20) + " MiB) is too small for this input or these counts; "
                    + "give it more with JAVA_TOOL_OPTIONS=-Xmx<size> or ask for less");
        } else if (Io.failureOf(e) != null) {
            // Reading or writing a file failed (missing, unreadable, a directory, disk full, ...): the
            // file and the reason are the whole story; a stack trace would only hide them.
            err.println("lab " + command + ": error: " + Printable.of(Io.failureOf(e)));
        } else {
            err.println("lab " + command + ": internal error (a bug, please report): "
                    + Printable.lines(String.valueOf(e)));
            e.printStackTrace(err);
        }
        return ExitCodes.of(e); // the one mapping, shared with a measurement a failed run stopped
    }
}
