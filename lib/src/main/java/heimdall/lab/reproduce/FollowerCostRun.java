package heimdall.lab.reproduce;

import heimdall.lab.cli.Args;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.sys.Cpus;
import java.util.Set;

/** follower-cost (issue 14): t_follow and t_idle of the kernel follower, for each hook. */
final class FollowerCostRun implements Reproduction {
    @Override
    public String name() {
        return "follower-cost";
    }

    @Override
    public String help() {
        return """
                  --quick                seconds: 3 runs, 25,000 + 50,000 calls
                  --runs N               runs (fresh children) per variant of a row (default 5)
                  --calls N              measured calls per run (default 500,000; warm-up a tenth, at least 25,000)
                  --cpu C                the child's CPU (default: the highest allowed, here %d)
                Needs root and kernel BTF; a hook the kernel refuses gives rows marked refused.
                """.formatted(Cpus.measuring());
    }

    @Override
    public Set<String> flags() {
        return Set.of();
    }

    @Override
    public Set<String> valued() {
        return Set.of("--runs", "--calls", "--cpu");
    }

    @Override
    public Run prepare(Args args) {
        int cpu = Reproductions.cpu(args, "--cpu", Cpus.measuring());
        FollowerCost.Options base = args.flag("--quick") ? FollowerCost.Options.quick(cpu) : FollowerCost.Options.standard(cpu);
        long calls = Reproductions.positive(args, "--calls", base.count());
        FollowerCost.Options o = new FollowerCost.Options(Reproductions.runs(args, "--runs", base.runs()),
                args.value("--calls").isPresent() ? Math.max(25_000, calls / 10) : base.warmup(), calls, cpu);
        return (folder, progress) -> {
            FollowerCost.Result r = FollowerCost.run(o, folder, progress);
            return new ReproductionResult(r.folder(), heimdall.lab.results.SummaryJson.typed(heimdall.lab.results.ResultKind.FOLLOWER_COST,
                    r.summary()), r.interruption());
        };
    }
}
