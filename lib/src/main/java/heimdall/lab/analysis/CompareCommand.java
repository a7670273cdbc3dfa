package heimdall.lab.analysis;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tech.tablesaw.api.Table;

/**
 * {@code ./lab compare DIR DIR... [-o PLOT.png | --out DIR]}: results folders of one reproduction
 * from several hosts lined up row by row ({@link Compare}); the table on stdout, the plot where asked.
 */
public final class CompareCommand implements Command {
    private final PrintStream out;

    public CompareCommand() {
        this(System.out);
    }

    CompareCommand(PrintStream out) {
        this.out = out;
    }

    /** {@code -o} is the short spelling of {@code --plot} (a PNG), not of {@code --out} (a folder). */
    private static final CommandOptions OPTIONS = new CommandOptions(
                    Set.of(), Set.of("--plot", "--out", "--threshold", "--change-plot"), Map.of("-o", "--plot"))
            .writing("--plot", "--change-plot");

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "compare";
    }

    @Override
    public String summary() {
        return "line up results folders of one reproduction from several hosts, row by row, with a plot";
    }

    @Override
    public String help() {
        return """
                usage: ./lab compare DIR DIR... [--threshold 5%] [--change-plot PNG] [-o PLOT.png | --out OUTDIR]

                Lines up two or more results folders of the same reproduction (floor-cost, host-load,
                graph-lookup, kernel-matrix or workload-cost), made on different hosts, kernels, or in and
                out of a container, row by row:
                a row is matched by what it measures (floor-cost: floor, call, and for brokered rows
                supervisor, answer, placement, wake-up; workload-cost: workload, mechanism, supervisor,
                answer, its runs paired round by round with its workload's unfiltered ones), not by its
                position. Prints a table of the folders (host, kernel, CPU, clocksource, PTI, the seccomp
                filters the measuring process already ran under, container) and one line per row and
                folder: median, added cost, the published added cost and the ratio to it. A row a folder
                lacks is shown "(absent)"; a row a signal cut short is marked interrupted, with its
                completed runs.

                Kernels: folders made on different kernels (./lab vm run --kernel K -- reproduce ...) are
                the plot's series, named by kernel. A folder whose environment.json says vm.emulated (a
                TCG guest; a vm object that does not say counts as emulated) has emulated figures: they
                are never set beside a native figure. Its median and added are left blank, its lines
                marked "emulated", and every row is then compared by added_ratio (added over the same
                run's unfiltered call), which is also what the plot shows; kernel-matrix rows of an
                emulated kernel likewise.

                Changes: every folder after the first (B) is then set against the first (A), row by
                row: B/A of the row's median with its 95% interval and a verdict, slower, faster or
                no difference beyond noise. The test is the Mann-Whitney U test over the rows' run
                medians (two-sided, exact with ties; a run is one observation, its samples are not
                independent); the interval is the Hodges-Lehmann ratio with its Mann-Whitney bounds,
                distribution-free. A change is called only when p < 0.05, the interval excludes 1 and
                B/A is beyond the threshold (> 1 + t or < 1 - t). With fewer than 4 runs a side the
                test cannot reach p < 0.05: a warning says so. Emulated folders are compared by each
                run's filtered median over the same run's unfiltered one, never in nanoseconds.

                  --threshold T the smallest change called slower or faster, a percentage from 0%
                                to below 100% (default 5%); "5%" or "5"
                  --change-plot PNG  write the changes' plot: B/A by row with its interval as a bar,
                                the verdict as the marker, lines at 1 and 1 +/- threshold
                  -o PLOT.png   write the plot (added cost by row, one series per folder) as PNG;
                                a symbolic link or FIFO at the name is refused
                  --out OUTDIR  write compare.md (the table above), compare.csv (every column of
                                Results.compare's table), changes.csv (Compare.changes()), added-by-row.png
                                and change-by-row.png (B/A with interval bars) into OUTDIR, which must be
                                absent or an empty folder of our own (never overwritten)

                Refused (exit 2): a DIR that is not a results folder, is a symbolic link, or holds a
                summary.json or environment.json that is a link or not a regular file; an unreadable
                summary; a summary.json schema this build does not read; folders of different
                reproductions ("A is floor-cost, B is graph-lookup"); a reproduction compare cannot line
                up yet; fewer than two folders; a --threshold that is not a percentage from 0% to
                below 100% ("abc", "-5%", "150%"); a run-median field that is not an array of numbers.
                """;
    }

    @Override
    public int run(List<String> argv) throws IOException {
        Args args = Args.parse(
                "compare", argv.stream().map(s -> s.equals("-o") ? "--plot" : s).toList(), OPTIONS);
        if (args.positionals().size() < 2) {
            throw new BadInput("compare needs at least two results folders, got "
                    + args.positionals().size()
                    + " (usage: ./lab compare DIR DIR... [-o PLOT.png | --out OUTDIR]; ./lab compare --help)");
        }
        if (args.value("--plot").isPresent() && args.value("--out").isPresent()) {
            throw new BadInput("-o and --out exclude each other: --out OUTDIR already holds the plot");
        }
        double threshold = threshold(args.value("--threshold").orElse(null));
        Compare c = Compare.load(args.positionals().stream().map(Path::of).toList());
        String text = c.text(threshold);
        out.print(text);
        if (args.value("--plot").isPresent()) {
            Path file = Path.of(args.value("--plot").get());
            SafeFiles.writeOutput("-o", file, c.plotPng());
            out.println("plot: " + file);
        }
        if (args.value("--change-plot").isPresent()) {
            Path file = Path.of(args.value("--change-plot").get());
            SafeFiles.writeOutput("--change-plot", file, c.changePlotPng(threshold));
            out.println("change plot: " + file);
        }
        if (args.value("--out").isPresent()) {
            ResultsFolder folder =
                    ResultsFolder.chosen(Path.of(args.value("--out").get()));
            try {
                folder.writeText("compare.md", text);
                folder.writeText("compare.csv", csv(c.table()));
                folder.writeText("changes.csv", csv(c.changes(threshold)));
                SafeFiles.writeNew(folder.path().resolve("added-by-row.png"), c.plotPng());
                SafeFiles.writeNew(folder.path().resolve("change-by-row.png"), c.changePlotPng(threshold));
                folder.publish(); // complete: only now does it appear at its name
            } finally {
                folder.abandon(); // a failure (a full disk) leaves nothing part-written; a no-op once published
            }
            out.println(folder.path());
        }
        return 0;
    }

    /** The threshold option's pattern: a plain decimal, optionally ending in %. */
    private static final Pattern PERCENT = Pattern.compile("(\\d{1,3}(\\.\\d{1,6})?)%?");

    /**
     * {@code --threshold}: a percentage ("5%" or "5") from 0 to below 100, as a fraction; the default
     * (5%) when absent. Anything else is bad input naming the option and the value.
     */
    public static double threshold(String value) {
        if (value == null) {
            return ChangeTest.DEFAULT_THRESHOLD;
        }
        String v = value.strip();
        Matcher m = PERCENT.matcher(v);
        if (v.startsWith("-") && PERCENT.matcher(v.substring(1)).matches()) {
            throw new BadInput("option --threshold: '" + Printable.of(value)
                    + "' is negative; a change threshold is a percentage from 0% to below 100%, such as 5%");
        }
        if (!m.matches()) {
            throw new BadInput("option --threshold: '" + Printable.of(value)
                    + "' is not a percentage; give one from 0% to below 100%, such as 5%");
        }
        double pct = Double.parseDouble(m.group(1));
        if (pct >= 100) {
            throw new BadInput("option --threshold: '" + Printable.of(value)
                    + "' is 100% or more: no ratio could be called faster; give one below 100%, such as 5%");
        }
        return pct / 100;
    }

    private static String csv(Table t) throws IOException {
        StringWriter w = new StringWriter();
        t.write().csv(w);
        return w.toString();
    }
}
