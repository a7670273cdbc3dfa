package heimdall.lab.reproduce;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.follower.FollowerCostEnvironment;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.internal.chartpart.Chart;

/** follower-cost (issue 14): t_follow and t_idle of the kernel follower, for each hook. */
final class FollowerCostRun extends ReproductionKind<FollowerCostRow, FollowerCostEnvironment>
        implements Reproduction, KindPlots {
    FollowerCostRun() {
        super("follower-cost", FollowerCostRow.class, FollowerCostEnvironment.class);
    }

    @Override
    public String table(Recorded<FollowerCostRow, FollowerCostEnvironment> run) {
        return FollowerCost.table(run.rows());
    }

    @Override
    public String shortfall() {
        return FollowerCost.SHORTFALL;
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return Plots.followerPlots(r);
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
                with the follower), distributions.json, plots (ECDFs per hook, added cost per row) and the
                divergence rows: calls a deviating abcdf completes from its divergent call on (goal: 1).
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
