package heimdall.lab.analysis;

import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * What a reproduction kind draws: its kind class (in {@code heimdall.lab.reproduce}) implements this
 * with the families of {@link Plots} that fit its rows, and {@link Plots#all} asks the folder's kind.
 * A kind that does not implement it draws nothing.
 */
public interface KindPlots {
    /** Every plot that applies to {@code r}'s rows, by file name ({@code distribution-floors.png}). */
    Map<String, Chart<?, ?>> plots(Results r);
}
