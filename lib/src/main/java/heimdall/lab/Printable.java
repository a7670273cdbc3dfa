package heimdall.lab;

import java.util.Locale;

/**
 * Values a user supplied (a path, an option's value, a word from a file), made safe to print on a
 * terminal: control characters are shown as escapes, so a file named with an ANSI escape sequence
 * ({@code ESC [ 2 J}) is printed as {@code \e[2J}, never run by the terminal, and a name with a
 * newline cannot forge a second line of output.
 *
 * <p>Shown as: {@code \e} (ESC), {@code \n}, {@code \r}, {@code \t}; any other C0 or C1 control,
 * DEL and the bidirectional overrides as {@code \}{@code uXXXX}. Backslashes are left as they are (a
 * path with one prints as written), so the form is for reading, not for parsing back.
 */
public final class Printable {
    private Printable() {}

    /** {@code value} (may be null: {@code "null"}) with every control character escaped, newlines too. */
    public static String of(Object value) {
        return escape(String.valueOf(value), false);
    }

    /**
     * A message of ours that may hold several lines: newlines and tabs are kept, every other control
     * character escaped (values inside it should have passed {@link #of} already; this is the last
     * guard before a terminal).
     */
    public static String lines(String message) {
        return escape(String.valueOf(message), true);
    }

    private static String escape(String s, boolean keepLines) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = replacement(c, keepLines);
            if (rep != null && out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null) {
                if (rep != null) {
                    out.append(rep);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? s : out.toString();
    }

    private static String replacement(char c, boolean keepLines) {
        if (keepLines && (c == '\n' || c == '\t')) {
            return null;
        }
        switch (c) {
            case 0x1b:
                return "\\e";
            case '\n':
                return "\\n";
            case '\r':
                return "\\r";
            case '\t':
                return "\\t";
            default:
                break;
        }
        boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f);
        // bidirectional embeddings, overrides and isolates reorder what follows them on the screen
        boolean bidi = (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069)
                || c == 0x200e
                || c == 0x200f
                || c == 0x061c;
        return control || bidi ? String.format(Locale.ROOT, "\\u%04x", (int) c) : null;
    }
}
