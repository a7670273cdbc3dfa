package heimdall.lab.reproduce;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.ExploreCheckRow;
import heimdall.lab.results.ReproductionKind;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * explore-check: {@code ./lab explore check} (in {@code heimdall.lab.explore}), the fluent API's
 * median against floor-cost's row code on the same floor; no {@code ./lab reproduce} NAME.
 */
final class ExploreCheckKind extends ReproductionKind<ExploreCheckRow, Object> implements KindPlots {
    ExploreCheckKind() {
        super("explore-check", ExploreCheckRow.class, Object.class);
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return Plots.exploreCheckPlots(r);
    }
}
