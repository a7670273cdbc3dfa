package heimdall.lab.display;

import java.util.Locale;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * A Tablesaw table as an HTML {@code <table>} for notebooks: escaped, numbers right-aligned and rounded to
 * three significant decimals. Here rather than in {@code analysis} because every displayed value needs it
 * and {@code analysis} displays itself: display depends on no package of the project's measurements.
 */
public final class HtmlTable {
    private HtmlTable() {}

    /** The rows {@link #of(Table)} shows before saying how many more there are. */
    public static final int DEFAULT_ROWS = 200;

    /** {@code t} as HTML, at most {@link #DEFAULT_ROWS} rows. */
    public static String of(Table t) {
        return of(t, DEFAULT_ROWS);
    }

    /** {@code t} as HTML, at most {@code maxRows} rows (a note says how many were left out). */
    public static String of(Table t, int maxRows) {
        StringBuilder sb = new StringBuilder();
        sb.append("<table class=\"heimdall-lab\">\n");
        if (t.name() != null && !t.name().isBlank()) {
            sb.append("<caption>").append(escape(t.name())).append("</caption>\n");
        }
        sb.append("<thead><tr>");
        for (String n : t.columnNames()) {
            sb.append("<th>").append(escape(n)).append("</th>");
        }
        sb.append("</tr></thead>\n<tbody>\n");
        int shown = Math.min(maxRows, t.rowCount());
        for (int i = 0; i < shown; i++) {
            sb.append("<tr>");
            for (Column<?> c : t.columns()) {
                boolean numeric = c instanceof NumericColumn<?>;
                sb.append(numeric ? "<td style=\"text-align:right\">" : "<td>");
                sb.append(escape(cell(c, i)));
                sb.append("</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody>\n</table>\n");
        if (shown < t.rowCount()) {
            sb.append("<p>")
                    .append(t.rowCount() - shown)
                    .append(" more rows not shown (")
                    .append(t.rowCount())
                    .append(" in all)</p>\n");
        }
        return sb.toString();
    }

    /** Cell {@code i} of {@code c} as text: empty when missing, whole numbers without decimals. */
    public static String cell(Column<?> c, int i) {
        if (c.isMissing(i)) {
            return "";
        }
        if (c instanceof DoubleColumn d) {
            double v = d.getDouble(i);
            if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                return String.format(Locale.ROOT, "%.0f", v);
            }
            return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3g", v);
        }
        if (c instanceof BooleanColumn b) {
            return String.valueOf(b.get(i));
        }
        return c.getString(i);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
