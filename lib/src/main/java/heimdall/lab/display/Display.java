package heimdall.lab.display;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import heimdall.lab.Refusal;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/** The forms of a {@link Displayable}: HTML, text, PNG, and {@code show()}'s file. */
public final class Display {
    /** Rows of a detail table shown in HTML and text (the rest is counted, not shown). */
    public static final int DETAIL_ROWS = 20;

    /**
     * Characters of {@link #text} at most: jshell cuts a longer value out of its middle (its feedback
     * mode's truncation, about 1,000), so the detail stops at the last whole row that fits and says
     * how many are left.
     */
    public static final int TEXT_LIMIT = 960;

    /** This session's folder for {@link #show(Displayable)}: private, removed when the JVM ends. */
    private static Scratch shown;

    private static final AtomicInteger SHOWN = new AtomicInteger();

    private Display() {}

    /** The headline table, then the detail table's first {@value #DETAIL_ROWS} rows, as escaped HTML. */
    public static String html(Displayable d) {
        StringBuilder sb = new StringBuilder("<div class=\"heimdall-lab-value\">\n");
        sb.append(HtmlTable.of(d.headline(), 200));
        Table detail = d.detail();
        if (detail != null && detail.rowCount() > 0) {
            sb.append(HtmlTable.of(detail, DETAIL_ROWS));
        }
        return sb.append("</div>\n").toString();
    }

    /**
     * The headline as {@code figure  value  interval} lines under its title, then the detail table's
     * first rows; every cell printable (a control character in a label is escaped, never run).
     */
    public static String text(Displayable d) {
        Table h = d.headline();
        StringBuilder sb = new StringBuilder(Printable.of(h.name()));
        int width = 0;
        for (int i = 0; i < h.rowCount(); i++) {
            width = Math.max(width, Printable.of(h.getString(i, 0)).length());
        }
        for (int i = 0; i < h.rowCount(); i++) {
            String figure = Printable.of(h.getString(i, 0));
            sb.append("\n  ")
                    .append(figure)
                    .append(" ".repeat(width - figure.length()))
                    .append("  ")
                    .append(Printable.of(h.getString(i, 1)));
            if (h.columnCount() > 2 && !h.getString(i, 2).isBlank()) {
                sb.append("  [").append(Printable.of(h.getString(i, 2))).append(']');
            }
        }
        Table detail = d.detail();
        if (detail != null && detail.rowCount() > 0) {
            sb.append("\n").append(rows(detail, DETAIL_ROWS, TEXT_LIMIT - sb.length() - 1));
        }
        return sb.toString();
    }

    /**
     * Up to {@code max} rows of {@code t} as aligned, escaped columns under its name, in at most
     * {@code budget} characters: whole rows only, then a line saying how many were left out.
     */
    static String rows(Table t, int max, int budget) {
        int shown = Math.min(max, t.rowCount());
        List<String[]> cells = new ArrayList<>();
        cells.add(t.columnNames().stream().map(Printable::of).toArray(String[]::new));
        for (int i = 0; i < shown; i++) {
            String[] row = new String[t.columnCount()];
            for (int c = 0; c < t.columnCount(); c++) {
                Column<?> col = t.column(c);
                row[c] = col.isMissing(i) ? "" : Printable.of(col.getString(i));
            }
            cells.add(row);
        }
        int[] widths = new int[t.columnCount()];
        for (String[] row : cells) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder(Printable.of(t.name())).append(':');
        int kept = -1; // rows kept, the header line not counted
        String more = String.format(Locale.ROOT, "%n  ... %d more rows (%d in all)", t.rowCount(), t.rowCount());
        for (String[] row : cells) {
            StringBuilder line = new StringBuilder("\n ");
            for (int c = 0; c < row.length; c++) {
                line.append(' ').append(row[c]).append(" ".repeat(widths[c] - row[c].length()));
            }
            String l = line.toString().stripTrailing();
            if (sb.length() + l.length() + more.length() > budget) {
                break;
            }
            sb.append(l);
            kept++;
        }
        if (kept < 0) {
            return String.format(
                    Locale.ROOT,
                    "%s: %d rows (too wide to print here: detail() gives them)",
                    Printable.of(t.name()),
                    t.rowCount());
        }
        shown = kept;
        if (shown < t.rowCount()) {
            sb.append(
                    String.format(Locale.ROOT, "%n  ... %d more rows (%d in all)", t.rowCount() - shown, t.rowCount()));
        }
        return sb.toString();
    }

    /** The value's plot as PNG bytes, or null when it has none. */
    public static byte[] png(Displayable d) {
        Chart<?, ?> chart = d.chart();
        return chart == null ? null : png(chart);
    }

    /** A chart as PNG bytes. */
    public static byte[] png(Chart<?, ?> chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out)) {
                throw new Refusal("no PNG writer available in this JVM");
            }
        } catch (IOException e) {
            throw new Refusal("cannot draw the plot as PNG: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** {@link Displayable#show()}: a new PNG in this session's private folder, its path printed. */
    public static Path show(Displayable d) {
        byte[] png = requirePng(d);
        Path dir = folder();
        String name = String.format(
                Locale.ROOT,
                "%03d-%s.png",
                SHOWN.incrementAndGet(),
                slug(d.headline().name()));
        return write(dir.resolve(name), png);
    }

    /** {@link Displayable#show(Path)}: a new PNG at {@code file}, its path printed. */
    public static Path show(Displayable d, Path file) {
        if (file == null) {
            throw BadInput.at("show", "file", "no file given");
        }
        return write(file, requirePng(d));
    }

    private static byte[] requirePng(Displayable d) {
        byte[] png = png(d);
        if (png == null) {
            throw new Refusal(Printable.of(d.headline().name()) + " has no plot to show");
        }
        return png;
    }

    private static Path write(Path file, byte[] png) {
        try {
            SafeFiles.writeNew(file, png);
        } catch (IOException e) {
            throw new Refusal("cannot write " + Printable.of(file) + ": " + e.getMessage(), e);
        }
        System.out.println("plot written to " + Printable.of(file.toAbsolutePath()));
        return file;
    }

    private static synchronized Path folder() {
        if (shown == null || !shown.exists()) {
            shown = Scratch.create("show-");
        }
        return shown.path();
    }

    /** A file-name part from a title: letters, digits, dots and dashes, at most 60. */
    static String slug(String title) {
        String s = (title == null ? "" : title)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9.]+", "-")
                .replaceAll("^[-.]+|-+$", "");
        s = s.length() > 60 ? s.substring(0, 60).replaceAll("-+$", "") : s;
        return s.isEmpty() ? "plot" : s;
    }
}
