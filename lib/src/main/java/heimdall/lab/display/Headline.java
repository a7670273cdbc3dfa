package heimdall.lab.display;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A value's headline figures, one row each: {@code figure | value}, and an {@code interval} column
 * when any row has one. Adding an interval to a figure is one argument:
 * {@code .row("median", Headline.ns(median()), ci().toString())}.
 *
 * <p>Not thread-safe: a builder for one caller.
 */
public final class Headline {
    private final String title;
    private final List<String[]> rows = new ArrayList<>();

    private Headline(String title) {
        this.title = title;
    }

    /** A headline titled {@code title} (the value's label). */
    public static Headline of(String title) {
        return new Headline(title == null ? "" : title);
    }

    /** A figure and its value, no interval. */
    public Headline row(String figure, Object value) {
        return row(figure, value, null);
    }

    /** A figure, its value and its interval ({@code null} or blank: none). */
    public Headline row(String figure, Object value, Object interval) {
        rows.add(new String[] {figure, String.valueOf(value), interval == null ? "" : String.valueOf(interval)});
        return this;
    }

    /** The figures as a table: {@code figure}, {@code value} and, when any row has one, {@code interval}. */
    public Table table() {
        StringColumn figure = StringColumn.create("figure");
        StringColumn value = StringColumn.create("value");
        StringColumn interval = StringColumn.create("interval");
        boolean intervals = false;
        for (String[] r : rows) {
            figure.append(r[0]);
            value.append(r[1]);
            interval.append(r[2]);
            intervals |= !r[2].isBlank();
        }
        return intervals ? Table.create(title, figure, value, interval) : Table.create(title, figure, value);
    }

    /** Nanoseconds with thousands separators: {@code 1,234 ns}. */
    public static String ns(long ns) {
        return String.format(Locale.ROOT, "%,d ns", ns);
    }

    /** A count with thousands separators. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A ratio to three decimals: {@code 1.234×}; NaN as {@code n/a}. */
    public static String ratio(double r) {
        return Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, "%.3f×", r);
    }
}
