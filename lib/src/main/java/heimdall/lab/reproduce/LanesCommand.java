package heimdall.lab.reproduce;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Args;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code ./lab reproduce lanes [--quick] [--out DIR]}. */
public final class LanesCommand {
    private LanesCommand() {}

    public static final String HELP = """
            usage: ./lab reproduce lanes [--quick] [--out DIR]

            Foreground workers (real 4 KiB preads from a prepared 1 MiB file, 4 KiB writes to /dev/null) and one
            collector (getrusage, sched_yield), each thread with its own cursor and assigned entry over shared
            tables, a check before each call; variants unchecked and every layout; counts and checksums verified.

              --quick    5,000 iterations, 3 batches (a variable that is set wins)
              --out DIR  the results folder (absent or empty); default results/<date>-<host>-lanes[-N]/

            Environment (seed 002): GRAPH_WORKLOAD_THREADS (1,4,16), GRAPH_WORKLOAD_ITERS (50,000),
            GRAPH_WORKLOAD_CPUS (the CPUs workload threads may use; default every allowed CPU),
            GRAPH_BENCH_SAMPLES (7), GRAPH_BENCH_COALESCE, GRAPH_BENCH_MAX_ENTRIES, GRAPH_BENCH_BYTES.

            Ctrl-C, SIGTERM or SIGHUP stop between batches: the batches every variant completed are written,
            marked interrupted in summary.json (batches_asked, batches_completed per row).

            Exit status: 0 every batch verified; 1 a verification failed (named); 2 bad input; 128 + the
            signal's number when a signal stopped the run.
            """;

    public static int run(List<String> argv) throws InterruptedException {
        return run(argv, System.out, System.err);
    }

    static int run(List<String> argv, PrintStream out, PrintStream err) throws InterruptedException {
        Args args = Args.parse("reproduce lanes", argv, Set.of("--quick"), Set.of("--out")).atMost(0);
        GraphBenchSettings s = GraphBenchSettings.fromEnvironment(args.flag("--quick"));
        ResultsFolder folder = args.value("--out").map(p -> ResultsFolder.chosen(Path.of(p))).orElseGet(() -> GraphLookup.defaultFolder("lanes"));
        // Ctrl-C/SIGTERM stop between batches (Stoppable): the batches completed are kept, marked interrupted.
        Stoppable.Outcome<Lanes.Result> outcome = Stoppable.run("lanes", folder, err::println, () -> Lanes.run(s, folder, err::println));
        if (outcome.discarded().isPresent()) {
            return outcome.discarded().get().exitStatus();
        }
        Lanes.Result r = outcome.result().orElseThrow();
        Optional<Integer> nothing = Stoppable.nothingMeasured("lanes", folder, r.interruption(), !r.summary().isEmpty(), err::println);
        if (nothing.isPresent()) {
            return nothing.get();
        }
        heimdall.lab.analysis.Distributions.writeBeside(r.folder(), err::println);
        try {
            out.print(Files.readString(r.folder().resolve("table.md")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        r.failures().forEach(f -> out.println("FAILED: " + f));
        r.interruption().ifPresent(c -> out.println(Character.toUpperCase(c.said().charAt(0)) + c.said().substring(1)
                + ": what was measured is in the folder below, marked interrupted"));
        out.println(r.folder());
        return r.interruption().map(heimdall.lab.bench.Interruption.Cause::exitStatus).orElse(r.failures().isEmpty() ? 0 : 1);
    }
}
