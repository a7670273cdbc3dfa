package heimdall.lab.cli;

import heimdall.lab.command.Command;
import heimdall.lab.results.ReproductionKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The two pages of {@code docs/} that are generated, not written: the command-line reference (every
 * command's {@code --help}, from the same picocli tree {@code ./lab} runs) and the results format (every
 * key of every kind's {@code summary.json} rows, from the row records). {@code DocsTest} fails when the
 * committed page differs from what this makes, so neither can drift from the code.
 */
public final class DocsReference {
    /** The line each generated page starts with. */
    public static final String GENERATED = "<!-- generated from the code by heimdall.lab.cli.DocsReference; "
            + "DocsTest checks it: do not edit by hand -->";

    private DocsReference() {}

    /** {@code docs/cli.md}: {@code ./lab --help}, then each command's help, in {@code ./lab --help}'s order. */
    public static String cli() {
        StringBuilder md = new StringBuilder(GENERATED).append("\n\n# Command-line reference\n\n");
        md.append("Every command of `./lab`, as its `--help` prints it. Exit statuses and the rules every command")
                .append(
                        " follows (options, `--`, files read strictly) are in [the command line](command-line.md).\n\n");
        md.append("```text\n").append(help(List.of("--help"))).append("```\n");
        for (Command c : Main.everyCommand()) {
            md.append("\n## ./lab ").append(c.name()).append("\n\n```text\n");
            List<String> words = new ArrayList<>(List.of("help"));
            words.addAll(Arrays.asList(c.name().split(" ")));
            md.append(help(words)).append("```\n");
        }
        return md.toString();
    }

    /** {@code docs/results-format.md}'s key lists: each kind's row keys, in the order they are written. */
    public static String resultsFormat() {
        StringBuilder md = new StringBuilder(GENERATED).append("\n\n# Results format: the row keys of every kind\n\n");
        md.append("Each kind's `summary.json` holds `rows`, one object a row, with exactly these keys in this order")
                .append(" (a key a row has no value for is absent or `null`; a reader refuses any other key).")
                .append(" What the files of a folder are, and what the keys mean, is in")
                .append(" [results folders](results.md).\n");
        for (ReproductionKind<?, ?> kind : ReproductionKind.all()) {
            md.append("\n## ").append(kind.name()).append("\n");
            for (Map.Entry<String, List<String>> record : kind.rowKeys().entrySet()) {
                md.append("\nRow record `").append(record.getKey()).append("`, ");
                md.append(record.getValue().size()).append(" keys:\n\n");
                for (String k : record.getValue()) {
                    md.append("- `").append(k).append("`\n");
                }
            }
        }
        return md.toString();
    }

    /** What {@code ./lab WORDS} prints on standard output, as text with a final newline. */
    private static String help(List<String> words) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(words, o, e);
        }
        if (status != 0) {
            throw new IllegalStateException("./lab " + String.join(" ", words) + " ended " + status + ": "
                    + err.toString(StandardCharsets.UTF_8));
        }
        String text = out.toString(StandardCharsets.UTF_8).stripTrailing();
        return text + "\n";
    }
}
