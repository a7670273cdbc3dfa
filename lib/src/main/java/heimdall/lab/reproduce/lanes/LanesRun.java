package heimdall.lab.reproduce.lanes;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.results.Headline;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** lanes (seed 002): worker and collector threads, each checked against its own lane of shared tables. */
public final class LanesRun extends ReproductionKind<LanesRow, LanesSettings> implements Reproduction, KindPlots {
    public LanesRun() {
        super("lanes", LanesRow.class, LanesSettings.class);
    }

    /** The first screen's finding of a row: a batch's median wall time, in milliseconds, over the batches. */
    @Override
    public Optional<Headline> headline(LanesRow row) {
        return Headline.of(
                "median wall",
                row.wall().medianMs(),
                row.intervals() == null ? null : row.intervals().wallMs(),
                "ms",
                "batches");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return LanesPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        return GraphBenchSettings.options(
                "--threads", "--iters", "--workload-cpus", "--samples", "--coalesce", "--max-entries", "--bytes");
    }

    @Override
    public String notes() {
        return """
                Foreground workers (real 4 KiB preads from a prepared 1 MiB file, 4 KiB writes to /dev/null) and one
                collector (getrusage, sched_yield), each thread with its own cursor and assigned entry over shared
                tables, a check before each call; variants unchecked and every layout; counts and checksums verified.

                Each option's variable in parentheses (seed 002's) is its fallback: a variable that is set wins
                over the defaults (and --quick's), an option given wins over both.

                Exit status 1 also when a verification failed (named). Stops come between batches: the batches
                every variant completed are kept (batches_asked, batches_completed per row).
                """;
    }

    @Override
    public Run prepare(Args args) {
        GraphBenchSettings s = GraphBenchSettings.of(args, options());
        return session -> Lanes.run(s, session);
    }

    @Override
    public String table(Recorded<LanesRow, LanesSettings> run) {
        return Lanes.table(run);
    }

    @Override
    public String shortfall() {
        return Lanes.SHORTFALL;
    }
}
