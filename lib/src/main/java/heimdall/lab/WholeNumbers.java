package heimdall.lab;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whole numbers a user writes (an option's value, an environment variable): digits only, with an
 * optional sign, checked against a range as written, before any narrowing. No grouping: a comma is a
 * list separator ({@code 0,1} is two CPUs), so {@code 1,2} is never read as 12; and a value past
 * the range of {@code long} is "out of range", not "not a whole number".
 */
public final class WholeNumbers {
    private WholeNumbers() {}

    /** How a whole number is written, for messages. */
    public static final String FORM = "digits only, no ',', '_' or spaces";

    private static final Pattern WHOLE = Pattern.compile("[+-]?[0-9]+");

    /** Whether {@code text} is a whole number as we read one. */
    public static boolean isWhole(String text) {
        return text != null && WHOLE.matcher(text).matches();
    }

    /**
     * {@code text} as a number in {@code min..max}; bad input {@code "NAME='TEXT': ..."} (for an
     * environment variable) when it is not a whole number or lies outside the range.
     */
    public static long parse(String name, String text, long min, long max) {
        if (!isWhole(text)) {
            throw new BadInput(name + "='" + Printable.of(text) + "': not a whole number (" + FORM + ")");
        }
        BigInteger n = new BigInteger(text);
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new BadInput(name + "=" + text + ": out of range (" + range(min, max) + ")");
        }
        return n.longValueExact();
    }

    /** {@code "1..1,000"}, {@code "at least 0"}, ... for a message. */
    public static String range(long min, long max) {
        String lo = min == Long.MIN_VALUE ? "" : String.format(Locale.ROOT, "%,d", min);
        String hi = max == Long.MAX_VALUE ? "" : String.format(Locale.ROOT, "%,d", max);
        if (lo.isEmpty() && hi.isEmpty()) {
            return "a 64-bit whole number";
        }
        return lo.isEmpty() ? "at most " + hi : hi.isEmpty() ? "at least " + lo : lo + ".." + hi;
    }
}
