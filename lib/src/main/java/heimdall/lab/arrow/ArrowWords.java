package heimdall.lab.arrow;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Arrow's own failure messages said in ours: what kind of damage, in plain words, and where (which
 * row), never Arrow's sentence, which names its classes and buffers ({@code "Non-UTF-8 data in
 * VarCharVector at position 1."}, {@code "... node length larger than INT_MAX records."}). A message
 * not recognised here gets a general sentence of the same kind, still ours.
 */
final class ArrowWords {
    private ArrowWords() {}

    /** One Arrow message pattern and the sentence we print for it. */
    private record Words(Pattern pattern, Function<Matcher, String> say) {
        static Words of(String regex, Function<Matcher, String> say) {
            return new Words(Pattern.compile(regex, Pattern.DOTALL), say);
        }
    }

    /** Where a position in a column falls: a row of the file, or a value of a nested column. */
    interface Place {
        String at(long position);
    }

    /** Validation of one column's buffers ({@code ValidateVector*Visitor}), by what it found wrong. */
    private static List<Words> column(Place p) {
        return List.of(
                Words.of(
                        "Non-UTF-8 data .* at position (\\d+)",
                        m -> p.at(Long.parseLong(m.group(1))) + ": a text value that is not UTF-8"),
                Words.of(
                        "values in positions (\\d+) and (\\d+) of the (?:large )?offset buffer are decreasing",
                        m -> p.at(Long.parseLong(m.group(1)))
                                + ": its value ends before it starts (the column's offsets decrease)"),
                Words.of(
                        "value at position (\\d+) of the (?:large )?offset buffer is negative",
                        m -> p.at(Long.parseLong(m.group(1))) + ": its value starts at a negative offset"),
                Words.of("Negative offsets", m -> "a value starts at a negative offset"),
                Words.of(
                        "Not enough capacity for (?:the )?(data|offset|validity|type) buffer",
                        m -> "its " + buffer(m.group(1)) + " is shorter than the rows the batch declares"),
                Words.of("Length spanned by list offsets", m -> "its lists run past the end of their values"),
                Words.of(
                        "The (data|offset|validity|type) buffer is null",
                        m -> "its " + buffer(m.group(1)) + " is missing"));
    }

    private static String buffer(String arrowName) {
        return switch (arrowName) {
            case "data" -> "data";
            case "offset" -> "table of where each value starts";
            case "validity" -> "table of which values are null";
            default -> "table of each value's type";
        };
    }

    /**
     * Why a column failed Arrow's validation ({@code message}, Arrow's), in our words; positions
     * are placed by {@code place} (a row of the file for a top-level column).
     */
    static String invalidColumn(String message, Place place) {
        String m = String.valueOf(message);
        for (Words w : column(place)) {
            Matcher found = w.pattern().matcher(m);
            if (found.find()) {
                return w.say().apply(found);
            }
        }
        return "its buffers do not hold the rows the batch declares";
    }

    private static final List<Words> READ = List.of(
            Words.of("(?i)unexpected end", m -> "truncated"),
            Words.of(
                    "INT_MAX records",
                    m -> "claims more rows than a file can hold (more than 2,147,483,647 in one record batch)"),
            Words.of("over 2GB", m -> "claims a body of more than 2 GiB"),
            Words.of("(?i)^file too small", m -> "too small to be an Arrow IPC file"),
            Words.of("No batch at offset", m -> "its footer points at a record batch that is not there"),
            Words.of(
                    "(?i)expected (schema|RecordBatch|DictionaryBatch)|Unexpected message header",
                    m -> "a message is not what its place in the file says it is (its metadata is damaged)"),
            Words.of("(?i)invalid token", m -> "its metadata is damaged"));

    /**
     * Why Arrow could not read the file ({@code e} thrown by Arrow's reader) in our words, or null
     * when {@code e} is not Arrow's but the system's (a real read error), whose reason is the OS's.
     */
    static String unreadable(IOException e) {
        String m = String.valueOf(e.getMessage());
        for (Words w : READ) {
            Matcher found = w.pattern().matcher(m);
            if (found.find()) {
                return w.say().apply(found);
            }
        }
        // the system's own read errors are thrown from the JDK's channel code, Arrow's from Arrow's
        StackTraceElement[] at = e.getStackTrace();
        String thrower = at.length == 0 ? "" : at[0].getClassName();
        boolean system = thrower.startsWith("sun.") || thrower.startsWith("java.");
        return system ? null : "damaged (its metadata does not hold together)";
    }
}
