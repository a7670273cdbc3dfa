package heimdall.lab.reproduce;

import heimdall.lab.bench.FloorBench;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import java.util.ArrayList;
import java.util.List;

/** What the floor-cost and host-load kinds (and the other counted ones) share: their count options and limits. */
public final class Reproductions {
    private Reproductions() {}

    /** floor-cost's and host-load's --runs and --calls (and floor-cost's --broker-calls), quick and published. */
    public static List<ReproductionOption> countOptions(boolean broker) {
        FloorBench.Counts q = FloorBench.Counts.quick();
        FloorBench.Counts p = FloorBench.Counts.published();
        List<ReproductionOption> o = new ArrayList<>(List.of(
                ReproductionOption.count("--runs", "runs (fresh children) per row", q.runs(), p.runs(), MAX_RUNS),
                ReproductionOption.count(
                        "--calls",
                        "measured calls per run of a fast call",
                        q.count(),
                        p.count(),
                        ChildSpec.MAX_COUNT)));
        if (broker) {
            o.add(ReproductionOption.count(
                    "--broker-calls",
                    "measured calls per run of a brokered call",
                    q.brokerCount(),
                    p.brokerCount(),
                    ChildSpec.MAX_COUNT));
        }
        return o;
    }

    /** The counts {@link #countOptions} read: --quick's or the published ones, with what was given. */
    public static FloorBench.Counts counts(Reproduction r, Args args) {
        FloorBench.Counts base = args.flag("--quick") ? FloorBench.Counts.quick() : FloorBench.Counts.published();
        long brokerCount = r.options().stream().anyMatch(o -> o.name().equals("--broker-calls"))
                ? r.option("--broker-calls").number(args)
                : base.brokerCount();
        return new FloorBench.Counts(
                r.option("--runs").intNumber(args),
                base.warmup(),
                r.option("--calls").number(args),
                base.brokerWarmup(),
                brokerCount);
    }

    /**
     * What names a floor-cost row on every host, for compare: floor, call, and for brokered rows
     * supervisor, answer, placement, wake-up; the round-trip floors their reference.
     */
    public static final List<String> FLOOR_KEYS =
            List.of("what", "call", "supervisor", "answer", "placement", "sync_wakeup", "reference");

    /** A day: a settling time past it is a typo, not a plan. */
    public static final long MAX_SETTLE_SECONDS = 86_400;

    /** Runs are fresh processes, each with its samples kept: past this many a run count is a typo. */
    public static final int MAX_RUNS = 10_000;
}
