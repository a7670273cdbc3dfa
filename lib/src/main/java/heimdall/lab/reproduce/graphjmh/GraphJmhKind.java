package heimdall.lab.reproduce.graphjmh;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.reproduce.graphlookup.GraphLookupPlots;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * graph-jmh: {@code ./lab graph jmh} ({@link GraphJmhCommand}), the graph lookups under JMH; no
 * {@code ./lab reproduce} NAME. Its older folders' environment.json spells it {@code "graph jmh"}.
 */
public final class GraphJmhKind extends ReproductionKind<GraphJmhRow, GraphJmhSettings> implements KindPlots {
    public GraphJmhKind() {
        super("graph-jmh", GraphJmhRow.class, GraphJmhSettings.class, "graph jmh");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return GraphLookupPlots.of(r);
    }

    /** {@code table.md}: JMH's figures beside the harness's, with JMH's interval of its mean and the method. */
    @Override
    public String table(Recorded<GraphJmhRow, GraphJmhSettings> run) {
        GraphJmhSettings s = run.settings();
        MarkdownTable t = new MarkdownTable(List.of(
                "graph",
                "trace",
                "layout",
                "harness ns/event",
                "JMH median ns/event",
                "JMH mean ± error",
                "JMH mean [" + percent(GraphJmhRow.JMH_LEVEL) + " CI]",
                "JMH / harness"));
        for (GraphJmhRow r : run.rows()) {
            t.row(List.of(
                    r.graph(),
                    r.trace(),
                    r.layout(),
                    fmt(r.harnessNsPerEvent()),
                    fmt(r.jmhMedianNsPerEvent()),
                    fmt(r.jmhMeanNsPerEvent()) + " ± " + fmt(r.jmhErrorNsPerEvent()),
                    r.jmhMeanCi() == null ? "—" : r.jmhMeanCi().cell(),
                    fmt(r.jmhOverHarness())));
        }
        return "# graph jmh: JMH beside the replay harness\n\n" + t.render() + "\n"
                + String.format(
                        Locale.ROOT,
                        "harness: the middle of %d runs' medians, each 1 warm-up + %d batches of the whole trace, "
                                + "pinned to CPU %d. JMH %s, %s mode (each whole-trace replay timed): %d fork, %d "
                                + "warm-up + %d measurement iterations of 1 s, %,d replays timed, its benchmark thread "
                                + "pinned to the same CPU. JMH / harness: JMH's median over the harness's.%n",
                        s.harnessRuns(),
                        s.harnessBatches(),
                        s.cpu(),
                        s.jmhVersion(),
                        s.jmhMode(),
                        s.jmhForks(),
                        s.jmhWarmupIterations(),
                        s.jmhMeasurementIterations(),
                        s.jmhInvocationsTimed())
                + "JMH mean [" + percent(GraphJmhRow.JMH_LEVEL) + " CI]: JMH's own confidence interval of its score "
                + "(scoreConfidence, JMH's Student's t interval at its fixed level, 99.9%), so it assumes a "
                + "near-normal mean, unlike the order-statistic 95% intervals of the other reproductions; ± error "
                + "is its half-width.\n";
    }

    private static String fmt(Double v) {
        return v == null ? "—" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String percent(double level) {
        double pc = Math.round(level * 1000) / 10.0;
        return (pc == Math.rint(pc) ? String.valueOf((long) pc) : String.valueOf(pc)) + "%";
    }
}
