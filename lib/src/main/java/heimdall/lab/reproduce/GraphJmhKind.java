package heimdall.lab.reproduce;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.ReproductionKind;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * graph-jmh: {@code ./lab graph jmh} ({@link GraphJmhCommand}), the graph lookups under JMH; no
 * {@code ./lab reproduce} NAME. Its older folders' environment.json spells it {@code "graph jmh"}.
 */
final class GraphJmhKind extends ReproductionKind<GraphJmhRow, GraphJmhEnvironment> implements KindPlots {
    GraphJmhKind() {
        super("graph-jmh", GraphJmhRow.class, GraphJmhEnvironment.class, "graph jmh");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return Plots.graphPlots(r);
    }
}
