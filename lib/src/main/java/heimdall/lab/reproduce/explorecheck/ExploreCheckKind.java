package heimdall.lab.reproduce.explorecheck;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.results.ExploreCheckRow;
import heimdall.lab.results.FigureCi;
import heimdall.lab.results.Headline;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.stats.Intervals;
import heimdall.lab.sys.Host;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * explore-check: {@code ./lab explore check} (in {@code heimdall.lab.explore}), the fluent API's
 * median against floor-cost's row code on the same floor; no {@code ./lab reproduce} NAME. Its rows are
 * floor-cost's (row 0) and the fluent API's (row 1); its table sets them side by side.
 */
public final class ExploreCheckKind extends ReproductionKind<ExploreCheckRow, ExploreCheckSettings>
        implements KindPlots {
    public ExploreCheckKind() {
        super("explore-check", ExploreCheckRow.class, ExploreCheckSettings.class);
    }

    /** The first screen's finding of a row: its added cost, else its median. */
    @Override
    public Optional<Headline> headline(ExploreCheckRow row) {
        return Headline.of(
                row.intervals(), row.figures().addedNs(), row.figures().medianNs(), "ns", "runs");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return ExploreCheckPlots.of(r);
    }

    /** A stop keeps nothing of explore check (the comparison needs every round): never a partial table. */
    @Override
    public String shortfall() {
        return "not every round was measured";
    }

    @Override
    public String table(Recorded<ExploreCheckRow, ExploreCheckSettings> run) {
        ExploreCheckRow fc = run.rows().get(0);
        ExploreCheckRow fl = run.rows().get(1);
        ExploreCheckSettings.Options o = run.settings().options();
        Host host = run.host();
        MarkdownTable t = new MarkdownTable(List.of(
                "source",
                "median",
                RowIntervals.heading("median"),
                "p99",
                RowIntervals.heading("p99"),
                "runs",
                "round medians"));
        for (ExploreCheckRow r : run.rows()) {
            RowIntervals ci = r.intervals();
            t.row(List.of(
                    r == fc ? "floor-cost row code" : "fluent API",
                    MarkdownTable.ns(r.figures().medianNs()),
                    RowIntervals.cell(ci.median()),
                    MarkdownTable.tail(r.figures().p99Ns()),
                    RowIntervals.cell(ci.p99()),
                    String.valueOf(r.runsCompleted()),
                    String.valueOf(r.figures().roundMediansNs())));
        }
        return "# explore check: getppid under the static abcdf floor, fluent API against floor-cost's row\n\n"
                + String.format(
                        Locale.ROOT,
                        "Host %s, kernel %s, CPU %d; %d rounds of %d runs each way, %,d + %,d calls a run.%n%n",
                        host.cpuModel(),
                        host.kernelRelease(),
                        o.cpu(),
                        o.rounds(),
                        o.runs(),
                        o.warmup(),
                        o.calls())
                + t.render()
                + String.format(
                        Locale.ROOT,
                        "%nfluent / floor-cost: %.4f %s (%s %.0f%%). No filter: %s; added: %s %s.%n",
                        fl.check().vsFloorCost(),
                        FigureCi.cell(fl.vsFloorCostCi(), "%.4f", "runs"),
                        Boolean.TRUE.equals(fl.check().withinTolerance()) ? "within" : "OUTSIDE",
                        fl.check().tolerance() * 100,
                        MarkdownTable.ns(fc.figures().medianNoneNs()),
                        MarkdownTable.added(fc.figures().addedNs()),
                        RowIntervals.cell(fc.intervals().added()))
                + String.format(
                        Locale.ROOT,
                        "%nIntervals (%d%%, distribution-free, over the runs, ns): the median's and p99's are order "
                                + "statistics of the runs' own medians and p99s (binomial ranks); the added cost's "
                                + "is the "
                                + "Hodges–Lehmann shift of the run medians over the unfiltered ones, with its "
                                + "Mann–Whitney "
                                + "interval; the ratio's the same shift of the logarithms of the two rows' run "
                                + "medians, "
                                + "taken back out of logarithms (an interval that holds 1 is no difference beyond "
                                + "noise). "
                                + "Where the runs are too few for the level, a cell gives the coverage they reach.%n",
                        Math.round(Intervals.LEVEL * 100));
    }
}
