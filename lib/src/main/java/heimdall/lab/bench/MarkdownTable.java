package heimdall.lab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A GitHub-flavoured Markdown table built row by row; cells are escaped for pipes. */
public final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    /** Adds a row; it must have one cell per column. */
    public MarkdownTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException(
                    "row has " + cells.size() + " cells, table has " + header.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    public String render() {
        StringBuilder out = new StringBuilder();
        line(out, header);
        out.append('|');
        header.forEach(h -> out.append(" --- |"));
        out.append('\n');
        rows.forEach(r -> line(out, r));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells) {
        out.append('|');
        for (String c : cells) {
            out.append(' ').append(c.replace("|", "\\|")).append(" |");
        }
        out.append('\n');
    }

    /** A median as the published tables print it: "1,833 ns". */
    public static String ns(double ns) {
        return String.format(Locale.ROOT, "%,d ns", Math.round(ns));
    }

    /** An added cost as published: "+20 ns", or "+4.5 µs" from a microsecond up. */
    public static String added(double ns) {
        String sign = ns >= 0 ? "+" : "-";
        double abs = Math.abs(ns);
        return abs >= 1000
                ? sign + String.format(Locale.ROOT, "%.1f µs", abs / 1e3)
                : sign + String.format(Locale.ROOT, "%,d ns", Math.round(abs));
    }

    /** A tail latency as published: "330 ns", "2,395 ns", "122 µs", "1.0 ms". */
    public static String tail(double ns) {
        if (ns >= 1_000_000) {
            return String.format(Locale.ROOT, "%.1f ms", ns / 1e6);
        }
        if (ns >= 10_000) {
            return String.format(Locale.ROOT, "%.0f µs", ns / 1e3);
        }
        return ns(ns);
    }
}
