package heimdall.lab.reproduce.followercost;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.follower.FollowerCostSettings;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.Headline;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * follower-cost (issue 14): t_follow and t_idle of the kernel follower, for each hook; and its entry point
 * for a notebook or a test ({@link #run(FollowerCost.Options, ResultsFolder, Consumer)}).
 */
public final class FollowerCostRun extends ReproductionKind<FollowerCostRow, FollowerCostSettings>
        implements Reproduction, KindPlots {
    public FollowerCostRun() {
        super("follower-cost", FollowerCostRow.class, FollowerCostSettings.class);
    }

    /**
     * Measures every row and writes {@code folder} as {@code ./lab reproduce follower-cost} does, for a call
     * outside the command (a notebook's, a test's): it shares the stop of a measurement open in this
     * process, if any ({@link Session#join}); the framework ({@link Kept}) writes summary.json,
     * environment.json, table.md, distributions.json and the plots and puts the folder in place. When
     * nothing was measured no folder is left and the result names where it would have been.
     */
    public static FollowerCost.Result run(FollowerCost.Options o, ResultsFolder folder, Consumer<String> progress) {
        FollowerCost.Measured m = FollowerCost.measure(o, Session.join(folder, progress));
        if (m.nothing()) {
            folder.abandon();
            return new FollowerCost.Result(folder.target(), List.of(), m.interruption());
        }
        ReproductionResult r = ReproductionResult.of(
                ReproductionKind.of(FollowerCostRow.class, FollowerCostSettings.class),
                FollowerCost.recorded(m),
                m.interruption());
        return new FollowerCost.Result(Kept.keep(folder, r, progress), m.rows(), m.interruption());
    }

    @Override
    public String table(Recorded<FollowerCostRow, FollowerCostSettings> run) {
        return FollowerCost.table(run.rows());
    }

    @Override
    public String shortfall() {
        return FollowerCost.SHORTFALL;
    }

    /** The first screen's finding of a row: its added cost, else its median with the follower. */
    @Override
    public Optional<Headline> headline(FollowerCostRow row) {
        return Headline.of(
                row.intervals(), row.figures().addedNs(), row.figures().medianWithNs(), "ns", "runs");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return FollowerCostPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        FollowerCost.Options q = FollowerCost.Options.quick(Cpus.measuring());
        FollowerCost.Options f = FollowerCost.Options.standard(Cpus.measuring());
        return List.of(
                ReproductionOption.count(
                        "--runs",
                        "runs (fresh children) per variant of a row",
                        q.runs(),
                        f.runs(),
                        Reproductions.MAX_RUNS),
                ReproductionOption.count(
                        "--calls",
                        "measured calls per run (given: warm-up a tenth, at least 100,000)",
                        q.count(),
                        f.count(),
                        ChildSpec.MAX_COUNT),
                ReproductionOption.cpu("--cpu", "the child's CPU (the highest allowed)", Cpus.measuring()));
    }

    @Override
    public String notes() {
        return """
                Needs root and kernel BTF; a hook the kernel refuses gives rows marked refused, with the
                kernel's answer for each attach point. Writes samples.arrow (every timed call, without and
                with the follower, with an empty program on the hook, and on t_follow rows with the follower
                stopped after each part of its step), distributions.json, plots (ECDFs per hook, added cost
                per row) and the divergence rows: calls a deviating abcdf completes from its divergent call
                on (goal: 1).
                """;
    }

    @Override
    public Run prepare(Args args) {
        int cpu = option("--cpu").intNumber(args);
        FollowerCost.Options base =
                args.flag("--quick") ? FollowerCost.Options.quick(cpu) : FollowerCost.Options.standard(cpu);
        long calls = option("--calls").number(args);
        FollowerCost.Options o = new FollowerCost.Options(
                option("--runs").intNumber(args),
                args.value("--calls").isPresent()
                        ? Math.max(FollowerCost.Options.MIN_WARMUP, calls / 10)
                        : base.warmup(),
                calls,
                cpu);
        return session -> {
            FollowerCost.Measured m = FollowerCost.measure(o, session);
            return m.nothing()
                    ? ReproductionResult.nothing(m.interruption())
                    : ReproductionResult.of(this, FollowerCost.recorded(m), m.interruption());
        };
    }
}
