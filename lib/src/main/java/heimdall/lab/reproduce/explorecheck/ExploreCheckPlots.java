package heimdall.lab.reproduce.explorecheck;

import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.ExploreCheckRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/** explore-check's plots: both sources' samples as ECDFs and their run medians. Its kind's plots facet
 * ({@link ExploreCheckKind#plots}). */
public final class ExploreCheckPlots {
    private ExploreCheckPlots() {}

    /**
     * explore-check's plots: both sources' samples as ECDFs ({@code distribution-filtered.png}) and
     * their run medians ({@code run-medians.png}).
     */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.hasCallSamples() && r.variants().contains("filtered")) {
            charts.put("distribution-filtered.png", CallPlots.distributionOf(r, "filtered"));
        }
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            rows.add(i);
        }
        boolean runMedians = r.rows(ExploreCheckRow.class).stream()
                .anyMatch(row -> row.figures().runMediansNs() != null
                        && !row.figures().runMediansNs().isEmpty());
        if (runMedians) {
            String title = "floor-cost row code and fluent API";
            charts.put(
                    "run-medians.png",
                    CallPlots.runValues(
                            r,
                            new Plots.Group("sources", title, rows),
                            ExploreCheckRow.class,
                            row -> row.figures().runMediansNs(),
                            null,
                            "Per-run medians (ns): " + title,
                            "median of a run (ns)"));
        }
        return charts;
    }
}
