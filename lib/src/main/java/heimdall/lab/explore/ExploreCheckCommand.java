package heimdall.lab.explore;

import heimdall.lab.Refusal;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.reproduce.RunOutcome;
import heimdall.lab.reproduce.Stoppable;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab explore check}: the fluent API's median against floor-cost's row, in one run. */
public final class ExploreCheckCommand implements Command {
    @Override
    public String name() {
        return "explore check";
    }

    @Override
    public String summary() {
        return "the fluent API's getppid under the abcdf floor against floor-cost's row, interleaved (within 5%)";
    }

    @Override
    public String help() {
        return """
                usage: ./lab explore check [--quick] [--rounds N] [--runs N] [--calls N] [--cpu C] [--out DIR]

                Measures getppid under the static abcdf floor in one run through the fluent API (Lab.measure,
                heimdall.lab.explore) and through ./lab reproduce floor-cost's own row code, round by round
                (the order swapped each round), both in the native runner child (no JVM in the timed loop).
                Prints both medians over all samples and their ratio, and writes a results folder
                (results/<date>-<host>-explore-check[-N]/, or --out): summary.json (floor-cost's row, then the
                fluent one with vs_floor_cost and within_tolerance), samples.arrow, environment.json, table.md.

                  --quick        3 rounds of 4 runs, 5,000 + 50,000 calls (default 5 rounds, 20,000 + 200,000)
                  --rounds N     rounds (each a block of fluent runs and a block of floor-cost runs)
                  --runs N       fresh children a block (4: every code placement of the loop once)
                  --calls N      timed calls a run
                  --cpu C        the child's CPU (default: the highest allowed)
                  --out DIR      an absent or empty folder for the results

                Exit status: 0 within 5%; 1 outside 5% (or a refused run); 2 bad input; 130/143 stopped (nothing kept).
                """;
    }

    @Override
    public int run(List<String> argv) throws InterruptedException {
        Args args = Args.parse(
                        "explore check",
                        argv,
                        Set.of("--quick"),
                        Set.of("--rounds", "--runs", "--calls", "--cpu", "--out"))
                .atMost(0);
        ExploreCheck.Options base =
                args.flag("--quick") ? ExploreCheck.Options.quick() : ExploreCheck.Options.standard();
        long calls = args.count("--calls", base.calls(), ChildSpec.MAX_COUNT);
        ExploreCheck.Options o = new ExploreCheck.Options(
                (int) args.count("--rounds", base.rounds(), 1_000),
                (int) args.count("--runs", base.runs(), Measure.MAX_RUNS),
                Math.min(base.warmup(), calls),
                calls,
                args.cpu("--cpu", base.cpu()));
        ResultsFolder folder = args.value("--out")
                .map(d -> ResultsFolder.chosen(Path.of(d)))
                .orElseGet(() -> ResultsFolder.defaultFolder("explore-check"));
        if (args.flag("--quick")) {
            folder.markQuick(); // its table.md starts with the quick line, as a reproduction's does
        }
        // Stopped like every reproduction (Stoppable): a stop keeps nothing here, and the framework clears the folder.
        RunOutcome<ExploreCheck.Result> outcome = Stoppable.run(
                "explore check",
                folder,
                System.err::println,
                session -> ExploreCheck.run(o, session),
                r -> Optional.empty(),
                r -> true);
        if (outcome instanceof RunOutcome.Nothing<ExploreCheck.Result> nothing) {
            return nothing.cause().exitStatus();
        }
        if (outcome instanceof RunOutcome.Failed<ExploreCheck.Result> failed) {
            throw failed.error();
        }
        ExploreCheck.Result r = ((RunOutcome.Complete<ExploreCheck.Result>) outcome).result();
        System.out.printf(
                Locale.ROOT,
                "floor-cost row median %,d ns; fluent API median %,d ns; fluent / floor-cost %.4f (%s 5%%)%n",
                r.floorCostMedianNs(),
                r.fluentMedianNs(),
                r.ratio(),
                r.within() ? "within" : "OUTSIDE");
        System.out.println(r.folder());
        if (!r.within()) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "the fluent API's median is %.2f%% from floor-cost's (more than 5%%)",
                    (r.ratio() - 1) * 100));
        }
        return 0;
    }
}
