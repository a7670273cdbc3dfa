package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Args;
import heimdall.lab.cli.Command;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code ./lab reproduce NAME}: runs one published table and writes a results folder. */
public final class ReproduceCommand implements Command {
    /** Every reproduction's name. */
    public static final List<String> NAMES = List.of("floor-cost", "graph-lookup", "lanes");

    @Override
    public String name() {
        return "reproduce";
    }

    @Override
    public String summary() {
        return "reproduce a published table: " + String.join(", ", NAMES);
    }

    @Override
    public String help() {
        return """
                usage: ./lab reproduce NAME [--quick] [--out DIR] [options]

                Measures a published table on this machine and writes a results folder (summary.json,
                samples.arrow, environment.json, table.md, plots/). The folder's path is the last line
                printed. Results are never overwritten: --out must name an absent or empty folder; by
                default results/<date>-<host>[-N]/.

                NAME is one of: %s

                floor-cost options:
                  --quick                about a minute: 3 runs, 10,000 + 50,000 calls (brokered 500 + 2,000)
                  --runs N               runs (fresh children) per row (published: 7)
                  --calls N              measured calls per run of a fast call (published: 1,000,000)
                  --broker-calls N       measured calls per run of a brokered call (published: 20,000)
                  --no-broker            rows 1-9 only (no supervisor)
                  --cpu C                the child's CPU (default: the highest allowed, here %d)
                  --supervisor-cpu C     the supervisor's own CPU (default: another allowed one, here %d)

                Exit status: 0 all rows measured, 1 a row failed (killed by its floor: the folder still
                holds every other row), 2 bad input.
                """.formatted(String.join(", ", NAMES), Cpus.measuring(), Cpus.supervisor());
    }

    @Override
    public int run(List<String> argv) throws InterruptedException {
        if (!argv.isEmpty() && argv.get(0).equals("graph-lookup")) return GraphLookupCommand.run(argv.subList(1, argv.size()));
        if (!argv.isEmpty() && argv.get(0).equals("lanes")) return LanesCommand.run(argv.subList(1, argv.size()));
        Args args = Args.parse("reproduce", argv, Set.of("--quick", "--no-broker"),
                Set.of("--out", "--runs", "--calls", "--broker-calls", "--cpu", "--supervisor-cpu")).atMost(1);
        String name = args.positional(0, "NAME (one of " + String.join(", ", NAMES) + ")");
        if (!name.equals("floor-cost")) {
            throw new BadInput("reproduce: unknown NAME '" + name + "'; one of " + String.join(", ", NAMES));
        }
        FloorBench.Counts base = args.flag("--quick") ? FloorBench.Counts.quick() : FloorBench.Counts.published();
        FloorBench.Counts counts = new FloorBench.Counts(
                (int) positive(args, "--runs", base.runs()), base.warmup(), positive(args, "--calls", base.count()),
                base.brokerWarmup(), positive(args, "--broker-calls", base.brokerCount()));
        int cpu = cpu(args, "--cpu", Cpus.measuring());
        int sup = cpu(args, "--supervisor-cpu", Cpus.supervisor());
        FloorCost.Options options = new FloorCost.Options(counts, cpu, sup, !args.flag("--no-broker"));
        ResultsFolder folder = args.value("--out").map(p -> ResultsFolder.chosen(Path.of(p))).orElseGet(FloorCost::defaultFolder);
        FloorCost.Result result = FloorCost.run(options, folder, line -> System.err.println(line));
        System.out.print(new String(readTable(result.folder())));
        List<Map<String, Object>> failed = result.failed();
        failed.forEach(r -> System.out.println("FAILED: " + r.get("what") + " · " + r.get("call") + ": " + r.get("failure")));
        System.out.println(result.folder());
        return failed.isEmpty() ? 0 : 1;
    }

    private static byte[] readTable(Path folder) {
        try {
            return java.nio.file.Files.readAllBytes(folder.resolve("table.md"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long positive(Args args, String option, long fallback) {
        long v = args.longValue(option, fallback);
        if (v < 1) {
            throw new BadInput("option " + option + ": must be at least 1, got " + v);
        }
        return v;
    }

    private static int cpu(Args args, String option, int fallback) {
        int cpu = (int) args.longValue(option, fallback);
        if (!Cpus.allowed().contains(cpu)) {
            throw new BadInput("option " + option + ": CPU " + cpu + " is not one this process may use " + Cpus.allowed());
        }
        return cpu;
    }
}
