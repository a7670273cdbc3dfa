package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.results.ReproductionKind;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./lab reproduce NAME}: runs one published table and writes a results folder. Each NAME is a
 * {@link Reproduction} whose options are data ({@link ReproductionOption}); this class is the framework
 * around all of them alike: it finds the reproduction, parses its options, makes the help from them,
 * opens the results folder, stops every run the same way ({@link Stoppable}) and prints what was written.
 */
public final class ReproduceCommand implements Command {
    /** Every reproduction, in the order help lists them: the registry's kinds that {@code ./lab reproduce} runs. */
    static final List<Reproduction> ALL = ReproductionKind.all().stream()
            .filter(Reproduction.class::isInstance)
            .map(Reproduction.class::cast)
            .toList();

    /** Every reproduction's name. */
    public static final List<String> NAMES =
            ALL.stream().map(Reproduction::name).toList();

    /** The options every reproduction has. */
    static final List<ReproductionOption> COMMON = List.of(
            ReproductionOption.flag(
                    "--quick", "the quick defaults below instead of the full ones: for trying things, not quoting"),
            ReproductionOption.text("--out", "DIR", "the results folder (absent or empty)", null, null));

    @Override
    public String name() {
        return "reproduce";
    }

    @Override
    public String summary() {
        return "reproduce a published table: " + String.join(", ", NAMES);
    }

    /** Every reproduction's options (for completion); each NAME's own parsing still refuses the others'. */
    @Override
    public Optional<CommandOptions> options() {
        Set<String> flags = new LinkedHashSet<>();
        Set<String> valued = new LinkedHashSet<>();
        for (Reproduction r : ALL) {
            for (ReproductionOption o : declared(r)) {
                (o.valued() ? valued : flags).add(o.name());
            }
        }
        return Optional.of(CommandOptions.of(flags, valued));
    }

    /** Completion offers the NAMEs. */
    @Override
    public List<String> completionWords() {
        return NAMES;
    }

    @Override
    public String help() {
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, """
                usage: ./lab reproduce NAME [--quick] [--out DIR] [options]

                Measures a published table on this machine and writes a results folder (summary.json,
                samples.arrow, environment.json, table.md, plots/). It prints a summary of at most 15
                lines first (a quick run says so, the host's load, the noisy rows, a few findings with
                their 95%% intervals), then table.md; the folder's path is the last line printed.
                Results are never overwritten: --out must name an absent or empty folder; by
                default results/<date>-<host>-NAME[-N]/. Each option's help gives its default with
                --quick and without; ./lab reproduce NAME --help shows one NAME's.

                NAME is one of: %s

                """, String.join(", ", NAMES)));
        COMMON.forEach(o -> h.append(o.help()));
        for (Reproduction r : ALL) {
            h.append('\n')
                    .append(r.name())
                    .append(" options:")
                    .append(r.positionals().isEmpty() ? "" : " " + r.positionals())
                    .append('\n');
            appendOwn(h, r);
        }
        return h.append(STOPS).toString();
    }

    /** {@code ./lab reproduce NAME --help}: that reproduction's usage, options and notes; without a NAME, all. */
    @Override
    public String help(List<String> words) {
        Optional<Reproduction> named = words.stream()
                .flatMap(w -> ALL.stream().filter(r -> r.name().equals(w)))
                .findFirst();
        if (named.isEmpty()) {
            return help();
        }
        Reproduction r = named.get();
        StringBuilder h = new StringBuilder("usage: ./lab reproduce " + r.name() + " [--quick] [--out DIR]"
                + (r.options().isEmpty() ? "" : " [options]")
                + (r.positionals().isEmpty() ? "" : " " + r.positionals())
                + "\n\nWrites a results folder (absent or empty --out, or results/<date>-<host>-" + r.name()
                + "[-N]/);\nits path is the last line printed. Each option's default is given with --quick "
                + "and without.\n\n");
        COMMON.forEach(o -> h.append(o.help()));
        appendOwn(h, r);
        return h.append(STOPS).toString();
    }

    /** A reproduction's own options and notes. */
    private static void appendOwn(StringBuilder h, Reproduction r) {
        r.options().forEach(o -> h.append(o.help()));
        if (r.options().isEmpty()) {
            h.append("  (only --quick and --out)\n");
        }
        if (!r.notes().isBlank()) {
            h.append(r.notes().stripTrailing().indent(2).replaceAll("(?m)^ +$", ""));
        }
    }

    /** How every reproduction stops and ends. */
    private static final String STOPS = """

            Ctrl-C, SIGTERM or SIGHUP during any reproduction ends the running child and stops between
            runs (graph-lookup and lanes: between batches). Every reproduction writes what was measured,
            marked interrupted in summary.json (at the top and per row: runs_asked, runs_completed, or
            batches_asked, batches_completed); rows not reached are listed as not measured. Before
            anything is measured nothing is left: no folder, or an --out folder left empty. A second
            signal ends at once.

            A run that fails part-way (an error, not a row's refusal) stops the same way: what was
            measured is written, marked interrupted with the failure named, and the error is printed
            with its status below.

            Exit status: 0 all rows measured, 1 a row failed (the folder still holds every other row),
            2 bad input, 128 + the signal's number when a signal stopped the run (130 Ctrl-C, 143 SIGTERM);
            after a failed run, the error's own (1 refused, 2 bad input or a file error, 3 a bug).
            """;

    @Override
    public int run(List<String> argv) throws InterruptedException {
        return run(argv, System.out, System.err);
    }

    /**
     * Runs {@code ./lab reproduce} with these words; the table and the folder go to {@code out}, progress to {@code
     * err}.
     */
    public static int run(List<String> argv, PrintStream out, PrintStream err) throws InterruptedException {
        int at = nameIndex(argv);
        Reproduction r = find(argv.get(at));
        List<String> rest = new ArrayList<>(argv);
        rest.remove(at);
        Set<String> flags = new LinkedHashSet<>();
        Set<String> valued = new LinkedHashSet<>();
        for (ReproductionOption o : declared(r)) {
            (o.valued() ? valued : flags).add(o.name());
        }
        Args args = Args.parse("reproduce " + r.name(), rest, flags, valued).atMost(r.maxPositionals());
        Reproduction.Run run = r.prepare(args); // bad options end here, before a folder exists
        ResultsFolder folder = args.value("--out")
                .map(p -> ResultsFolder.chosen(Path.of(p)))
                .orElseGet(() -> ResultsFolder.defaultFolder(r.name()));
        if (args.flag("--quick")) {
            folder.markQuick(); // its table and first screen say so
        }
        return finish(r, folder, run, out, err);
    }

    /**
     * The one path every reproduction ends by: the run under the stop flag, decided once as a
     * {@link RunOutcome} (the folder cleared when nothing was kept); for what was kept, the compact
     * distributions and any missing plots added and the table, failures, the interruption and the
     * folder printed; then the exit status, or a failed run's exception for its message and status.
     */
    static int finish(Reproduction r, ResultsFolder folder, Reproduction.Run run, PrintStream out, PrintStream err)
            throws InterruptedException {
        // Every reproduction stops the same way on Ctrl-C, SIGTERM or SIGHUP (Stoppable, Interruption).
        RunOutcome<ReproductionResult> outcome = Stoppable.run(
                r.name(),
                folder,
                err::println,
                run::into,
                ReproductionResult::interruption,
                ReproductionResult::written);
        if (outcome instanceof RunOutcome.Nothing<ReproductionResult> nothing) {
            return nothing.cause().exitStatus();
        }
        if (outcome instanceof RunOutcome.Failed<ReproductionResult> failed) {
            if (failed.kept().isPresent()) {
                show(r, failed.kept().get(), folder, out, err);
            }
            throw failed.error(); // its message and status, as if nothing were kept
        }
        if (outcome instanceof RunOutcome.Partial<ReproductionResult> partial) {
            show(r, partial.result(), folder, out, err);
            return partial.cause().exitStatus();
        }
        ReproductionResult result = ((RunOutcome.Complete<ReproductionResult>) outcome).result();
        show(r, result, folder, out, err);
        return result.failureLines().isEmpty() ? 0 : 1;
    }

    /**
     * What was kept: written and put in place by {@link Kept#keep}, then the reader's first screen
     * ({@link FirstScreen}), the table, report, failures, the interruption and the folder's path printed,
     * all from what the run holds in memory (nothing is read back from the folder).
     */
    private static void show(
            Reproduction r, ReproductionResult result, ResultsFolder folder, PrintStream out, PrintStream err) {
        Path written = Kept.keep(folder, result, err::println);
        // the reader's first screen (FirstScreen.MAX_LINES at most), then the full table
        FirstScreen.of(r.name(), result.summary(), folder, folder.quick()).forEach(out::println);
        out.println();
        out.print(folder.tableWritten().orElse(""));
        result.report().forEach(out::println);
        result.failureLines().forEach(f -> out.println("FAILED: " + f));
        result.interruption()
                .ifPresent(c -> out.println(c.said().substring(0, 1).toUpperCase(Locale.ROOT)
                        + c.said().substring(1) + ": what was measured is in the folder below, marked interrupted"));
        out.println(written);
    }

    /** A reproduction's options with the common ones. */
    static List<ReproductionOption> declared(Reproduction r) {
        List<ReproductionOption> all = new ArrayList<>(COMMON);
        all.addAll(r.options());
        return all;
    }

    /** Where NAME is: the first word that is not an option or an option's value. */
    private static int nameIndex(List<String> argv) {
        Set<String> valued = new LinkedHashSet<>();
        Set<String> known = new LinkedHashSet<>();
        for (Reproduction r : ALL) {
            declared(r).forEach(o -> (o.valued() ? valued : known).add(o.name()));
        }
        known.addAll(valued);
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("--")) {
                break;
            }
            if (a.startsWith("-") && a.length() > 1) {
                // an option no reproduction has is named as such, not reported as a missing NAME
                String key = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                if (!known.contains(key)) {
                    throw new BadInput("unknown option " + Printable.of(a) + " (./lab reproduce --help)");
                }
                if (valued.contains(a)) {
                    i++;
                }
            } else {
                return i;
            }
        }
        throw new BadInput("missing NAME (one of " + String.join(", ", NAMES) + ") (./lab reproduce --help)");
    }

    private static Reproduction find(String name) {
        for (Reproduction r : ALL) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        throw new BadInput("reproduce: unknown NAME '" + Printable.of(name) + "'; one of " + String.join(", ", NAMES));
    }
}
