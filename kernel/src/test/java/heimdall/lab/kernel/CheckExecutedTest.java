package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.JupyterPython;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * notebooks/check_executed.py, the CI gate after the notebooks run: it must pass a notebook with a
 * question, a table and a plot, and name every notebook that lacks one, holds an error, left a cell
 * unexecuted, lost a finding it prints (a cell whose source prints "Finding:" without that line in its
 * output) or has no executed copy at all.
 */
class CheckExecutedTest {
    static final Path SCRIPT =
            Path.of("../notebooks/check_executed.py").toAbsolutePath().normalize();

    record Outcome(int exit, String text) {}

    @Test
    void passesACompleteNotebookAndNamesEachMissingPart(@TempDir Path tmp) throws Exception {
        Path python = JupyterPython.require();
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path src = Files.createDirectories(tmp.resolve("src"));
        String table = output("display_data", "\"text/html\": \"<table><tr><td>1</td></tr></table>\"");
        String png = output("display_data", "\"image/png\": \"iVBORw0KGgo=\"");
        String error =
                "{\"output_type\": \"error\", \"ename\": \"EvalException\", \"evalue\": \"boom\", \"traceback\": []}";
        write(out.resolve("good.ipynb"), cell(1, table, png));
        write(out.resolve("noplot.ipynb"), cell(1, table));
        write(out.resolve("notable.ipynb"), cell(1, png));
        write(out.resolve("error.ipynb"), cell(1, table, png) + "," + cell(2, error));
        write(out.resolve("unrun.ipynb"), cell(1, table, png) + "," + cell(null));
        String finding = "{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\"x\\n\", \"Finding: 7 ns [4, "
                + "9]\\n\"]}";
        write(out.resolve("found.ipynb"), findingCell(1, finding) + "," + cell(2, table, png));
        write(out.resolve("lost.ipynb"), findingCell(1) + "," + cell(2, table, png));
        Files.writeString(
                out.resolve("noquestion.ipynb"),
                "{\"cells\": [" + cell(1, table, png) + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
        for (String name :
                List.of("good", "noplot", "notable", "error", "unrun", "found", "lost", "noquestion", "failed")) {
            write(src.resolve(name + ".ipynb"), cell(null));
        }

        Outcome ok = run(python, List.of(out.resolve("good.ipynb").toString()));
        assertEquals(0, ok.exit(), ok.text());
        assertTrue(ok.text().contains("good.ipynb: ok"), ok.text());

        List<String> args = new ArrayList<>(List.of("--sources", src.toString()));
        try (var files = Files.list(out)) {
            files.map(Path::toString).sorted().forEach(args::add);
        }
        Outcome all = run(python, args);
        assertEquals(1, all.exit(), all.text());
        String t = all.text();
        assertTrue(t.contains("good.ipynb: ok"), t);
        assertTrue(t.contains("noplot.ipynb: no image/png output"), t);
        assertTrue(t.contains("notable.ipynb: no text/html table output"), t);
        assertTrue(t.contains("error.ipynb: cell 2: EvalException: boom"), t);
        assertTrue(t.contains("unrun.ipynb: cell 2 was not executed"), t);
        assertTrue(t.contains("found.ipynb: ok, 1 finding(s)"), t);
        assertTrue(t.contains("lost.ipynb: cell 1 prints no 'Finding:' line"), t);
        assertTrue(t.contains("noquestion.ipynb: the first cell does not state the notebook's **Question.**"), t);
        assertTrue(t.contains("good.ipynb: ok (note: prints no 'Finding:' line yet)"), t);
        assertTrue(t.contains("failed.ipynb: no executed copy"), t);

        // notebooks/run NAME.ipynb: the named copies are expected, a missing one named
        Outcome named = run(
                python,
                List.of(
                        "--expect",
                        out.resolve("found.ipynb").toString(),
                        out.resolve("failed.ipynb").toString()));
        assertEquals(1, named.exit(), named.text());
        assertTrue(named.text().contains("found.ipynb: ok, 1 finding(s)"), named.text());
        assertTrue(named.text().contains("failed.ipynb: no executed copy (its execution failed)"), named.text());
    }

    /**
     * A {@code // shows: TYPE} cell must show its value as a table and a PNG in one output; {@code --shows}
     * names each type no cell showed so.
     */
    @Test
    void aShowsCellNeedsTableAndPngInOneOutputAndEveryTypeIsShown(@TempDir Path tmp) throws Exception {
        Path python = JupyterPython.require();
        String rich = output(
                "execute_result",
                "\"text/html\": \"<table><tr><td>1</td></tr></table>\", " + "\"image/png\": \"iVBORw0KGgo=\"");
        String table = output("execute_result", "\"text/html\": \"<table><tr><td>1</td></tr></table>\"");
        String png = output("display_data", "\"image/png\": \"iVBORw0KGgo=\"");
        Path good = tmp.resolve("good.ipynb");
        write(good, shows(1, "Measurement", rich) + "," + shows(2, "Sweep", rich));
        Path split = tmp.resolve("split.ipynb");
        write(split, shows(1, "FloorView", table, png)); // a table and a plot made by hand, not the value's own

        Outcome ok = run(python, List.of("--shows", "Measurement,Sweep", good.toString()));
        assertEquals(0, ok.exit(), ok.text());

        Outcome bad =
                run(python, List.of("--shows", "Measurement,FloorView,Stepper", good.toString(), split.toString()));
        assertEquals(1, bad.exit(), bad.text());
        assertTrue(
                bad.text()
                        .contains(
                                "split.ipynb: cell 1: FloorView left as the last expression shows no table with a PNG"),
                bad.text());
        assertTrue(bad.text().contains("no cell shows FloorView, Stepper as a table with a PNG"), bad.text());
    }

    private static String shows(int count, String type, String... outputs) {
        return "{\"cell_type\": \"code\", \"metadata\": {}, \"execution_count\": " + count
                + ", \"source\": [\"// shows: " + type + "\\n\", \"value\"], \"outputs\": ["
                + String.join(",", outputs) + "]}";
    }

    /** Runs the script with the Python notebooks/run would use; the script is ours, so a missing script fails. */
    private static Outcome run(Path python, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(python.toString(), SCRIPT.toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "check_executed.py did not finish");
        return new Outcome(p.exitValue(), text);
    }

    private static String output(String type, String data) {
        return "{\"output_type\": \"" + type + "\", \"metadata\": {}, \"data\": {" + data + "}}";
    }

    private static String cell(Integer count, String... outputs) {
        return "{\"cell_type\": \"code\", \"metadata\": {}, \"execution_count\": " + count
                + ", \"source\": [\"x\"], \"outputs\": [" + String.join(",", outputs) + "]}";
    }

    /** A code cell whose source prints a finding, with the outputs given. */
    private static String findingCell(Integer count, String... outputs) {
        return "{\"cell_type\": \"code\", \"metadata\": {}, \"execution_count\": " + count
                + ", \"source\": [\"System.out.println(\\\"Finding: \\\" + x);\"], \"outputs\": ["
                + String.join(",", outputs) + "]}";
    }

    /** A notebook: its question (a markdown cell, cell 0), then the cells given. */
    private static void write(Path file, String cells) throws Exception {
        String question =
                "{\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\"# T\\n\", \"**Question.** Q?\"]}";
        Files.writeString(
                file,
                "{\"cells\": [" + question + "," + cells
                        + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}");
    }
}
