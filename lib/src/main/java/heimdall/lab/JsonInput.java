package heimdall.lab;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading JSON a user or a folder hands us (profiles, results), strictly and with errors in our words.
 *
 * <p>Strict: a key twice in one object ({@code "defaultAction"} twice, {@code "rows"} twice) and
 * anything after the one JSON value (a second profile pasted after the first) are refused, never
 * resolved by taking the last or the first. Errors: {@link BadInput} naming the file, the line and
 * column, and the reason as a sentence ({@code "p.json: line 3 column 9: not valid JSON: NaN is not a JSON
 * number"}),
 * never the parser's own message, which names its classes and switches.
 */
public final class JsonInput {
    private JsonInput() {}

    /** {@code mapper} made strict for reading: duplicate keys and trailing content refused. */
    public static ObjectMapper strict(ObjectMapper mapper) {
        mapper.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** Parses {@code text} from {@code file} with a {@link #strict} mapper; empty text is bad input. */
    public static JsonNode tree(ObjectMapper mapper, Object file, String text) {
        return tree(file, () -> mapper.readTree(text));
    }

    /** Parses {@code bytes} read once from {@code file} with a {@link #strict} mapper. */
    public static JsonNode tree(ObjectMapper mapper, Object file, byte[] bytes) {
        return tree(file, () -> mapper.readTree(bytes));
    }

    private interface Parse {
        JsonNode run() throws IOException;
    }

    private static JsonNode tree(Object file, Parse parse) {
        JsonNode top;
        try {
            top = parse.run();
        } catch (JsonProcessingException e) {
            throw notJson(file, e);
        } catch (IOException e) {
            throw new BadInput(Printable.of(file) + ": cannot read: " + Io.reason(e));
        }
        if (top == null || top.isMissingNode()) {
            throw new BadInput(Printable.of(file) + ": empty: no JSON value in it");
        }
        return top;
    }

    /**
     * Bad input for JSON in {@code file} that did not parse: {@code "FILE: line L column C: not valid
     * JSON: REASON"}, for a reader that parses from its own stream.
     */
    public static BadInput notJson(Object file, JsonProcessingException e) {
        return new BadInput(Printable.of(file) + ": " + where(e) + "not valid JSON: " + reason(e));
    }

    /** {@code "line L column C: "} of a parse error, or nothing when the parser did not say. */
    public static String where(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        if (at == null || at.getLineNr() < 1) {
            return "";
        }
        return "line " + at.getLineNr() + (at.getColumnNr() > 0 ? " column " + at.getColumnNr() : "") + ": ";
    }

    /** One parser message pattern and the sentence we print for it. */
    private record Words(Pattern pattern, Function<Matcher, String> say) {
        static Words of(String regex, Function<Matcher, String> say) {
            return new Words(Pattern.compile(regex, Pattern.DOTALL), say);
        }
    }

    private static final List<Words> WORDS = List.of(
            Words.of("^Non-standard token '(NaN|[+-]?Infinity|INF)'", m -> m.group(1) + " is not a JSON number"),
            Words.of("^Non-standard token '(.*?)'", m -> "'" + Printable.of(m.group(1)) + "' is not JSON"),
            Words.of("^Trailing token", m -> "more content after the end of the JSON value (one value per file)"),
            Words.of(
                    "^Duplicate field '(.*?)'",
                    m -> "key \"" + Printable.of(m.group(1)) + "\" appears twice in one object"),
            Words.of("^Unexpected end-of-input", m -> "the text ends before every object and array is closed"),
            Words.of("^Unexpected close marker '(.)'", m -> quoted(m) + " closes nothing open here"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\) in numeric value: .*plus sign",
                    m -> "a JSON number has no plus sign"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\) in numeric value",
                    m -> "unexpected character " + quoted(m) + " in a number"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): maybe a \\(non-standard\\) comment",
                    m -> "unexpected " + quoted(m) + " (JSON has no comments)"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): was expecting a colon",
                    m -> "unexpected character " + quoted(m) + " where ':' should follow a key"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): was expecting double-quote",
                    m -> "unexpected character " + quoted(m) + " where a key in double quotes should start"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): was expecting comma",
                    m -> "unexpected character " + quoted(m) + " where ',' or a closing bracket should be"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): expected a hex-digit",
                    m -> "unexpected character " + quoted(m) + " in a \\u escape (four hex digits)"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\): expected a valid value",
                    m -> "unexpected character " + quoted(m) + " where a value should start"),
            Words.of(
                    "^Unexpected character \\('(.*?)' \\(code \\d+\\)\\)",
                    m -> "unexpected character " + quoted(m) + ""),
            Words.of(
                    "^Unrecognized token '(.*?)'",
                    m -> "unrecognized word '" + Printable.of(m.group(1))
                            + "' (a value is a string, a number, an array, an object, true, false or null)"),
            Words.of("^Invalid numeric value: Leading zeroes", m -> "a JSON number has no leading zero"),
            Words.of("^Invalid numeric value", m -> "not a valid number"),
            Words.of(
                    "^Illegal unquoted character \\(\\(CTRL-CHAR, code (\\d+)\\)\\)",
                    m -> "control character " + m.group(1) + " inside a string (write it as an escape)"),
            Words.of(
                    "^Illegal character \\(\\(CTRL-CHAR, code (\\d+)\\)\\)",
                    m -> "control character " + m.group(1) + " between values"),
            Words.of(
                    "^Unrecognized character escape '(.*?)'",
                    m -> "unknown escape '\\" + Printable.of(m.group(1)) + "' in a string"),
            Words.of(
                    "^Document nesting depth \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)",
                    m -> "nested deeper than " + m.group(2) + " levels"),
            Words.of(
                    "^Number value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)",
                    m -> "a number of " + m.group(1) + " digits, over the limit of " + m.group(2)),
            Words.of(
                    "^String value length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)",
                    m -> "a string of " + m.group(1) + " characters, over the limit of " + m.group(2)),
            Words.of(
                    "^Name length \\((\\d+)\\) exceeds the maximum allowed \\((\\d+)",
                    m -> "a key of " + m.group(1) + " characters, over the limit of " + m.group(2)),
            Words.of("^Invalid UTF-8|^Invalid UTF-32|^Unexpected byte|^Invalid byte", m -> "not UTF-8 text"),
            Words.of(
                    "^Numeric value \\((.*?)\\) out of range of (int|long)",
                    m -> "the number "
                            + Printable.of(m.group(1)) + " is out of range (a "
                            + (m.group(2).equals("int") ? "32" : "64")
                            + "-bit whole number)"));

    /**
     * What kind of JSON value {@code n} is, in words for a message ({@code "a list"}, {@code "an
     * object"}, {@code "a string"}, {@code "a number"}, {@code "true or false"}, {@code "null"},
     * {@code "nothing"}): never Jackson's node type names ({@code ARRAY}).
     */
    public static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isArray()) {
            return "a list";
        }
        if (n.isObject()) {
            return "an object";
        }
        if (n.isTextual()) {
            return "a string";
        }
        if (n.isNumber()) {
            return "a number";
        }
        if (n.isBoolean()) {
            return "true or false";
        }
        return n.isNull() ? "null" : "a value JSON text does not hold";
    }

    /** The parser's first group (a character or word from the input), quoted and printable. */
    private static String quoted(Matcher m) {
        return "'" + Printable.of(m.group(1)) + "'";
    }

    /**
     * Why {@code e} could not be parsed, in our words ({@code "key \"rows\" appears twice in one
     * object"}): never the parser's message, which names its classes and switches; an unrecognised one
     * is "not as JSON is written".
     */
    public static String reason(JsonProcessingException e) {
        String original = String.valueOf(e.getOriginalMessage());
        for (Words w : WORDS) {
            Matcher m = w.pattern().matcher(original);
            if (m.find()) {
                return w.say().apply(m);
            }
        }
        return "not as JSON is written";
    }
}
