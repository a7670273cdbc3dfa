package heimdall.lab.reproduce.lanes;

import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.LanesRow;
import java.util.LinkedHashMap;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.Chart;

/** lanes' plots: the wall time by variant. Its kind's plots facet ({@link LanesRun#plots}). */
public final class LanesPlots {
    private LanesPlots() {}

    /** lanes' plots: {@code wall-by-variant.png}. */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.lanes().stream().anyMatch(l -> l.wallMsMedian() != null)) {
            charts.put("wall-by-variant.png", wallByVariant(r));
        }
        return charts;
    }

    /** lanes: the median wall time of a batch by worker count (x), a series per variant. */
    public static CategoryChart wallByVariant(Results r) {
        return Charts.grid(
                r.lanes(),
                LanesRow::workers,
                LanesRow::variant,
                LanesRow::wallMsMedian,
                "workers",
                "Workload wall time by variant, ms (median of batches)",
                "wall time (ms)");
    }
}
