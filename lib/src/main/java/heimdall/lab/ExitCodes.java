package heimdall.lab;

/**
 * The one mapping of what ended a command to its exit status: {@code cli.ExitStatus} prints the
 * message and returns {@link #of}, and a measurement a failed run stopped ({@code bench.Interruption})
 * ends with the same status as if nothing had been kept. Signals end with {@link #ofSignal}.
 */
public final class ExitCodes {
    private ExitCodes() {}

    /** The command did what was asked. */
    public static final int OK = 0;
    /** A run or import was refused for a stated reason ({@link Refusal}). */
    public static final int REFUSED = 1;
    /** Bad input or usage, a file that cannot be read or written, or memory exhausted. */
    public static final int BAD_INPUT = 2;
    /** An internal error: a bug in heimdall-lab. */
    public static final int BUG = 3;

    /**
     * The status of a command that {@code e} ended: {@link #REFUSED} for a refusal, {@link #BAD_INPUT}
     * for bad input, a file error ({@link Io#failureOf}) or an exhausted heap, else {@link #BUG}.
     */
    public static int of(Throwable e) {
        if (e instanceof BadInput) {
            return BAD_INPUT;
        }
        if (e instanceof Refusal) {
            return REFUSED;
        }
        if (e instanceof OutOfMemoryError || Io.failureOf(e) != null) {
            return BAD_INPUT;
        }
        return BUG;
    }

    /** What a shell gives a process that signal {@code number} ended: 128 + the number. */
    public static int ofSignal(int number) {
        return 128 + number;
    }
}
