package heimdall.lab.kernel;

/**
 * The indent Jupyter's console puts on the next line of an incomplete cell ({@code is_complete}'s
 * {@code indent}): four spaces per brace, parenthesis or bracket still open, not counting those in
 * string and character literals or comments.
 */
final class Indent {
    private Indent() {}

    /** The indent for the line after {@code code}. */
    static String of(String code) {
        int depth = 0;
        int i = 0;
        int n = code.length();
        while (i < n) {
            char c = code.charAt(i);
            if (c == '/' && i + 1 < n && code.charAt(i + 1) == '/') {
                int end = code.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && code.charAt(i + 1) == '*') {
                int end = code.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '"' && code.startsWith("\"\"\"", i)) {
                int end = code.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
            } else if (c == '"' || c == '\'') {
                i = skipLiteral(code, i, c);
            } else {
                if (c == '{' || c == '(' || c == '[') {
                    depth++;
                } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
                    depth--;
                }
                i++;
            }
        }
        return "    ".repeat(depth);
    }

    private static int skipLiteral(String code, int start, char quote) {
        int i = start + 1;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote || c == '\n') {
                return i + 1;
            } else {
                i++;
            }
        }
        return i;
    }
}
