package heimdall.lab.analysis;

import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What a reproduction kind draws, its plots facet (as {@code table} is its table's): its kind class (in its
 * package {@code heimdall.lab.reproduce.<kind>}) implements this with its own families of plots, built with the
 * chart kit ({@link Charts}) and, for rows timed call by call, {@link CallPlots}; {@link Plots#all} asks the
 * folder's kind. A kind that does not implement it draws nothing.
 */
public interface KindPlots {
    /** Every plot that applies to {@code r}'s rows, by file name ({@code distribution-floors.png}). */
    Map<String, Chart<?, ?>> plots(Results r);
}
