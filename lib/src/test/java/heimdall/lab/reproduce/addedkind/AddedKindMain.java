package heimdall.lab.reproduce.addedkind;

import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.cli.Main;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.SummaryJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * What {@link AddedKindTest} runs in a JVM of its own, whose class path also holds this package's services entry:
 * the added kind through the CLI ({@code ./lab reproduce tiny --quick}, twice, and its help), the first screen,
 * results loading, the plots and {@code ./lab compare}. Prints {@code ok: <step>} per step; the first step that
 * does not hold ends it with exit status 1 and says why.
 */
public final class AddedKindMain {
    /** The first screen's finding of the nanoTime row, from the kind's headline: its added cost and interval. */
    private static final String FINDING = "  System\\.nanoTime: added -?[\\d,]+ ns \\[-?[\\d,]+, -?[\\d,]+\\].*";

    private AddedKindMain() {}

    public static void main(String[] argv) throws Exception {
        Path tmp = Path.of(argv[0]);
        try {
            steps(tmp);
        } catch (AssertionError e) {
            System.out.println("failed: " + e.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }

    private static void steps(Path tmp) throws Exception {
        check(ReproductionKind.find("tiny").orElseThrow() instanceof TinyKind, "the registry holds tiny");
        Run help = run("reproduce", "--help");
        check(help.status == 0 && help.out.contains("tiny"), "reproduce's help names tiny:\n" + help.out + help.err);
        ok("help");

        Path a = tmp.resolve("a");
        Path b = tmp.resolve("b");
        for (Path dir : List.of(a, b)) {
            Run r = run("reproduce", "tiny", "--quick", "--out", dir.toString());
            check(r.status == 0, "reproduce tiny: status " + r.status + "\n" + r.out + r.err);
            List<String> lines = Arrays.asList(r.out.split("\n", -1));
            check(
                    lines.get(0).startsWith("tiny: " + ResultsFolder.QUICK_LINE),
                    "the first screen's first line: " + r.out);
            check(
                    lines.stream().anyMatch(l -> l.matches(FINDING)),
                    "the first screen's finding, from the kind's headline:\n" + r.out);
            check(r.out.contains("# tiny: what System.nanoTime costs"), "the table follows:\n" + r.out);
        }
        ok("reproduce and first screen");

        Results loaded = Results.load(a);
        check(loaded.kind() instanceof TinyKind, "the folder loads as tiny: " + loaded.kind());
        List<TinyRow> rows = loaded.rows(TinyRow.class);
        check(rows.size() == 2 && rows.get(1).what().equals("System.nanoTime"), "its typed rows: " + rows);
        check(SummaryJson.read(a).rows(TinyRow.class).equals(rows), "summary.json reads back as the same rows");
        ok("results loading");

        check(Files.size(a.resolve("plots").resolve("run-medians.png")) > 1000, "the framework drew its plot");
        check(Plots.all(loaded).containsKey("run-medians.png"), "Plots.all asks the kind");
        ok("plots");

        Run compare = run(
                "compare",
                a.toString(),
                b.toString(),
                "--out",
                tmp.resolve("cmp").toString());
        check(compare.status == 0, "compare: status " + compare.status + "\n" + compare.out + compare.err);
        check(compare.out.contains("System.nanoTime"), "compare lines the rows up:\n" + compare.out);
        check(Files.isRegularFile(tmp.resolve("cmp").resolve("compare.md")), "compare wrote compare.md");
        ok("compare");
    }

    private record Run(int status, String out, String err) {}

    private static Run run(String... argv) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream oldOut = System.out;
        System.setOut(o);
        try {
            int status = Main.run(List.of(argv), o, e);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
        }
    }

    private static void check(boolean holds, String what) {
        if (!holds) {
            throw new AssertionError(what);
        }
    }

    private static void ok(String step) {
        System.out.println("ok: " + step);
    }
}
