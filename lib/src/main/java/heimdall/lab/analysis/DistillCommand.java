package heimdall.lab.analysis;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.command.Args;
import heimdall.lab.command.Command;
import heimdall.lab.command.CommandOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./lab results distill DIR...}: writes {@code distributions.json} beside an existing
 * folder's {@code samples.arrow} (for folders made before reproductions wrote it themselves).
 */
public final class DistillCommand implements Command {
    private final PrintStream out;

    public DistillCommand() {
        this(System.out);
    }

    DistillCommand(PrintStream out) {
        this.out = out;
    }

    private static final CommandOptions OPTIONS = CommandOptions.of(Set.of(), Set.of());

    @Override
    public Optional<CommandOptions> options() {
        return Optional.of(OPTIONS);
    }

    @Override
    public String name() {
        return "results distill";
    }

    @Override
    public String summary() {
        return "write distributions.json (compact, for git) from a results folder's samples.arrow";
    }

    @Override
    public String help() {
        return """
                usage: ./lab results distill DIR...

                Reads DIR/samples.arrow and writes DIR/distributions.json: per row and variant the sample
                and run counts and the exact value at 1,101 quantiles (every 0.001, and 20 a decade from
                0.99 to 1 - 1e-7), or for graph-lookup and lanes every batch sample. Notebooks and
                Results.load redraw ECDFs, medians and p99s from it when samples.arrow is absent (it is
                not in git). Refused when DIR has no summary.json or samples.arrow, or already has a
                distributions.json (results are never overwritten).
                """;
    }

    @Override
    public int run(List<String> argv) {
        Args args = Args.parse("results distill", argv, OPTIONS);
        if (args.positionals().isEmpty()) {
            throw new BadInput("missing DIR (./lab results distill --help)");
        }
        for (String d : args.positionals()) {
            Path dir = Path.of(d);
            // A results folder: summary.json there, a regular file (no link followed, no FIFO waited on).
            try (HostileFiles.Folder folder = HostileFiles.Folder.open(dir, "not a results folder")) {
                if (folder.readIfExists("summary.json", CompareFiles.LIMIT).isEmpty()) {
                    throw new BadInput(dir.resolve("summary.json") + ": missing (is " + dir + " a results folder?)");
                }
            }
            Path file = Distributions.distill(dir);
            Distributions.read(file); // what was written reads back
            out.println(String.format(Locale.ROOT, "%s (%,d bytes)", file, sizeOf(file)));
        }
        return 0;
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }
}
