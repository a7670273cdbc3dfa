package heimdall.lab.kernel;

import java.util.List;

/**
 * A cell that did not run to the end for a reason the kernel can state. Jupyter shows the subclass's
 * simple name as the error's name ({@code CompilationError}, ...), the message as its value and
 * {@link #lines()} as the traceback.
 */
abstract class CellError extends Exception {
    private final List<String> lines;

    CellError(String message, List<String> lines) {
        super(message);
        this.lines = List.copyOf(lines);
    }

    List<String> lines() {
        return lines;
    }

    /** javac rejected a snippet; the message carries javac's diagnostics. */
    static final class CompilationError extends CellError {
        CompilationError(String message, List<String> lines) {
            super(message, lines);
        }
    }

    /** The cell ends inside a construct (an open brace, an unfinished statement). */
    static final class IncompleteInput extends CellError {
        IncompleteInput(String message, List<String> lines) {
            super(message, lines);
        }
    }

    /** A snippet was stopped: IJAVA_TIMEOUT ran out or Jupyter asked for an interrupt. */
    static final class EvaluationStopped extends CellError {
        EvaluationStopped(String message, List<String> lines) {
            super(message, lines);
        }
    }

    /** A line magic ({@code %classpath}, {@code %jars}, {@code %load}) failed or is unknown. */
    static final class MagicError extends CellError {
        MagicError(String message, List<String> lines) {
            super(message, lines);
        }
    }
}
