package heimdall.lab.display;

import java.nio.file.Path;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * A value that shows itself: in a notebook as {@code text/html} (its headline and detail tables),
 * {@code image/png} (its plot) and {@code text/plain}; in jshell as a multi-line {@code toString}
 * ({@link #text()}) and {@link #show()}, which writes the plot as a PNG and prints its path.
 *
 * <p>Implementations give the three parts; {@link Display} builds every form from them, so all
 * values look alike.
 */
public interface Displayable {
    /** The headline figures (usually built with {@link Headline}); the table's name is the title. */
    Table headline();

    /** A second table shown under the headline (per run, per row, per call), or null for none. */
    default Table detail() {
        return null;
    }

    /** The value's plot, or null when it has none. */
    Chart<?, ?> chart();

    /** The headline and detail tables as HTML, escaped. */
    default String html() {
        return Display.html(this);
    }

    /** The headline as aligned lines, and the detail table's first rows: what {@code toString} returns. */
    default String text() {
        return Display.text(this);
    }

    /**
     * Writes the plot as a PNG into this session's private folder, prints its path and returns it.
     *
     * @throws heimdall.lab.Refusal when the value has no plot, or the file cannot be written
     */
    default Path show() {
        return Display.show(this);
    }

    /**
     * Writes the plot as a new PNG at {@code file} (an existing entry there is refused, a link not
     * followed), prints its path and returns it.
     */
    default Path show(Path file) {
        return Display.show(this, file);
    }
}
