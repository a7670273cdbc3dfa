package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Args;
import heimdall.lab.cli.Command;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code ./lab reproduce NAME}: runs one published table and writes a results folder. Each NAME is a
 * {@link Reproduction} (see {@link Reproductions}); this class only finds it, parses its options and
 * prints what it wrote.
 */
public final class ReproduceCommand implements Command {
    /** Every reproduction, in the order help lists them. */
    static final List<Reproduction> ALL = List.of(new Reproductions.FloorCostRun(), new Reproductions.KernelBitmapRun(),
            new Reproductions.AttachCostRun(), new Reproductions.HostLoadRun(),
            new FollowerCostRun());

    /** Every reproduction's name. */
    public static final List<String> NAMES = java.util.stream.Stream.concat(ALL.stream().map(Reproduction::name),
            java.util.stream.Stream.of("graph-lookup", "lanes")).toList();

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
        StringBuilder h = new StringBuilder("""
                usage: ./lab reproduce NAME [--quick] [--out DIR] [options]

                Measures a published table on this machine and writes a results folder (summary.json,
                samples.arrow, environment.json, table.md, plots/). The folder's path is the last line
                printed. Results are never overwritten: --out must name an absent or empty folder; by
                default results/<date>-<host>-NAME[-N]/.

                NAME is one of: %s
                """.formatted(String.join(", ", NAMES)));
        for (Reproduction r : ALL) {
            h.append('\n').append(r.name()).append(" options:\n").append(r.help().stripTrailing()).append('\n');
        }
        h.append('\n').append(GraphLookupCommand.HELP.stripTrailing()).append('\n');
        h.append('\n').append(LanesCommand.HELP.stripTrailing()).append('\n');
        h.append("""

                Ctrl-C, SIGTERM or SIGHUP during any reproduction ends the running child and stops between
                runs (graph-lookup and lanes: between batches). Every reproduction writes what was measured,
                marked interrupted in summary.json (at the top and per row: runs_asked, runs_completed, or
                batches_asked, batches_completed); rows not reached are listed as not measured. Before
                anything is measured nothing is left: no folder, or an --out folder left empty. A second
                signal ends at once.

                Exit status: 0 all rows measured, 1 a row failed (the folder still holds every other row),
                2 bad input, 128 + the signal's number when a signal stopped the run (130 Ctrl-C, 143 SIGTERM).
                """);
        return h.toString();
    }

    @Override
    public int run(List<String> argv) throws InterruptedException {
        // The graph benchmarks parse and print for themselves (their own options and environment).
        if (!argv.isEmpty() && argv.get(0).equals("graph-lookup")) {
            return GraphLookupCommand.run(argv.subList(1, argv.size()));
        }
        if (!argv.isEmpty() && argv.get(0).equals("lanes")) {
            return LanesCommand.run(argv.subList(1, argv.size()));
        }
        Reproduction r = find(argv);
        Set<String> flags = new LinkedHashSet<>(r.flags());
        flags.add("--quick");
        Set<String> valued = new LinkedHashSet<>(r.valued());
        valued.add("--out");
        Args args = Args.parse("reproduce " + r.name(), argv, flags, valued).atMost(1);
        Reproduction.Run run = r.prepare(args); // bad options end here, before a folder exists
        ResultsFolder folder = args.value("--out").map(p -> ResultsFolder.chosen(Path.of(p)))
                .orElseGet(() -> FloorCost.defaultFolder(r.name()));
        // Every reproduction stops the same way on Ctrl-C, SIGTERM or SIGHUP (Stoppable, Interruption).
        Stoppable.Outcome<ReproductionResult> outcome = Stoppable.run(r.name(), folder, line -> System.err.println(line),
                () -> run.into(folder, line -> System.err.println(line)));
        if (outcome.discarded().isPresent()) {
            return outcome.discarded().get().exitStatus();
        }
        ReproductionResult result = outcome.result().orElseThrow();
        Optional<Integer> nothing = Stoppable.nothingMeasured(r.name(), folder, result.interruption(), result.written(),
                line -> System.err.println(line));
        if (nothing.isPresent()) {
            return nothing.get();
        }
        // beside samples.arrow (kept out of git): the compact distributions a committed folder redraws from
        heimdall.lab.analysis.Distributions.writeBeside(result.folder(), line -> System.err.println(line));
        if (result.interruption().isEmpty() && plotsMissing(result.folder())) {
            FloorCost.writePlots(result.folder(), line -> System.err.println(line));
        }
        System.out.print(readTable(result.folder()));
        List<heimdall.lab.results.ResultRow> failed = result.failed();
        failed.forEach(f -> System.out.println("FAILED: " + f.label() + ": " + f.failure()));
        result.interruption().ifPresent(c -> System.out.println(c.said().substring(0, 1).toUpperCase(java.util.Locale.ROOT)
                + c.said().substring(1) + ": what was measured is in the folder below, marked interrupted"));
        System.out.println(result.folder());
        return result.interruption().map(Interruption.Cause::exitStatus).orElse(failed.isEmpty() ? 0 : 1);
    }

    /** The reproduction named by the first word that is not an option or an option's value. */
    private static Reproduction find(List<String> argv) {
        Set<String> valued = ALL.stream().flatMap(r -> r.valued().stream()).collect(Collectors.toSet());
        valued.add("--out");
        String name = null;
        for (int i = 0; i < argv.size() && name == null; i++) {
            String a = argv.get(i);
            if (a.startsWith("--")) {
                if (valued.contains(a)) {
                    i++;
                }
            } else {
                name = a;
            }
        }
        if (name == null) {
            throw new BadInput("missing NAME (one of " + String.join(", ", NAMES) + ") (./lab reproduce --help)");
        }
        for (Reproduction r : ALL) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        throw new BadInput("reproduce: unknown NAME '" + name + "'; one of " + String.join(", ", NAMES));
    }

    /** Whether a reproduction left {@code plots/} without a PNG (all but floor-cost draw none themselves). */
    private static boolean plotsMissing(Path folder) {
        try (var files = Files.list(folder.resolve("plots"))) {
            return files.noneMatch(f -> f.toString().endsWith(".png"));
        } catch (IOException e) {
            return !Files.isDirectory(folder.resolve("plots")) && Files.isDirectory(folder);
        }
    }

    private static String readTable(Path folder) {
        try {
            return Files.readString(folder.resolve("table.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
