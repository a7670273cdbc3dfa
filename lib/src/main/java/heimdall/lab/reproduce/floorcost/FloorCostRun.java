package heimdall.lab.reproduce.floorcost;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.Headline;
import heimdall.lab.results.PublishedFloorCost;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** floor-cost: seed 000's table. */
public final class FloorCostRun extends ReproductionKind<FloorCostRow, FloorCostSettings>
        implements Reproduction, KindPlots {
    public FloorCostRun() {
        super("floor-cost", FloorCostRow.class, FloorCostSettings.class);
    }

    @Override
    public Optional<ReproductionKind.RowIdentity> identity() {
        return Optional.of(new ReproductionKind.RowIdentity(
                Reproductions.FLOOR_KEYS, "median_ns", "added_ns", "published.added_ns", "ns"));
    }

    @Override
    public Optional<Record> published() {
        return Optional.of(PublishedFloorCost.read());
    }

    /** The first screen's finding of a row: its added cost where it has an interval, else its median. */
    @Override
    public Optional<Headline> headline(FloorCostRow row) {
        return Headline.of(row);
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return FloorCostPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        List<ReproductionOption> o = new ArrayList<>(Reproductions.countOptions(true));
        o.add(ReproductionOption.flag("--no-broker", "rows 1-9 only (no supervisor)"));
        o.add(ReproductionOption.cpu("--cpu", "the child's CPU (the highest allowed)", Cpus.measuring()));
        o.add(ReproductionOption.cpu(
                "--supervisor-cpu", "the supervisor's own CPU (another allowed one)", Cpus.supervisor()));
        return o;
    }

    @Override
    public String notes() {
        return "--quick takes about a minute; the full defaults are the published method (seed 000).";
    }

    @Override
    public Run prepare(Args args) {
        FloorBench.Counts counts = Reproductions.counts(this, args);
        FloorCost.Options options = new FloorCost.Options(
                counts,
                option("--cpu").intNumber(args),
                option("--supervisor-cpu").intNumber(args),
                !option("--no-broker").given(args));
        return session -> FloorCost.run(options, session);
    }

    @Override
    public String table(Recorded<FloorCostRow, FloorCostSettings> run) {
        return FloorCostTable.table(run);
    }

    @Override
    public String shortfall() {
        return "rows have fewer runs than asked (runs_completed in summary.json); a row with none has no figures";
    }
}
