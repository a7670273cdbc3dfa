package heimdall.lab;

/**
 * Input that cannot be used: a malformed file, an unknown name, a value out of range.
 *
 * <p>The message always names where the problem is (file, field) and why, so that the command line
 * can print it alone and exit with status 2, with no stack trace needed to find the cause.
 */
public class BadInput extends RuntimeException {
    public BadInput(String message) {
        super(message);
    }

    public BadInput(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * A problem in one field of one file: {@code file: field: reason}. The file and the field are
     * printed through {@link Printable#of}, so a name holding control characters cannot drive the
     * terminal; the reason is ours (values quoted in it should pass {@link Printable#of} too).
     */
    public static BadInput at(Object file, String field, String reason) {
        return new BadInput(Printable.of(file) + ": " + Printable.of(field) + ": " + reason);
    }
}
