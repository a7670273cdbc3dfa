package heimdall.lab.display;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.Stats;
import heimdall.lab.explore.Added;
import heimdall.lab.explore.FloorView;
import heimdall.lab.explore.GraphView;
import heimdall.lab.explore.Lab;
import heimdall.lab.explore.Measurement;
import heimdall.lab.explore.PreparedView;
import heimdall.lab.explore.Stepper;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** Every value's text, HTML and PNG, built from its own figures. */
@Timeout(60)
class DisplayTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    /** A measurement of known samples, as Measure.run would build it from two runs. */
    static Measurement measurement(String label, long... base) {
        long[] a = Arrays.stream(base).toArray();
        long[] b = Arrays.stream(base).map(v -> v + 2).toArray();
        long[][] all = {a, b};
        return new Measurement(
                label,
                List.of("floor"),
                1,
                List.of(0, 1),
                List.of(a, b),
                3,
                true,
                Stats.ofAll(all),
                Stats.runMedians(all));
    }

    @Test
    void aMeasurementShowsItsFiguresOnLinesInHtmlAndAsAPlot() {
        Measurement m = measurement("getppid under floor", 100, 110, 120, 130, 1000);
        String text = m.toString();
        String[] lines = text.split("\n");
        assertEquals("getppid under floor", lines[0]);
        assertTrue(text.contains("median       " + Headline.ns(m.median())), text);
        assertTrue(text.contains("runs         2 of 3 (interrupted)"), text);
        assertTrue(text.contains(Headline.ns(m.p99())), text);
        // and one line a run, under the headline
        assertTrue(text.contains(m.label() + ": runs:"), text);
        assertEquals(lines.length, 10 + 1 + 1 + 2, text);

        String html = m.html();
        assertTrue(html.contains("<caption>getppid under floor</caption>"), html);
        // the median and the p99 carry their intervals over runs (Measurement.ci()), in their own column
        assertTrue(html.contains("<th>interval</th>"), html);
        assertTrue(
                html.contains("<td>median</td><td>" + Headline.ns(m.median()) + "</td><td>"
                        + m.ci().median().text()),
                html);
        assertTrue(text.contains("[" + m.ci().p99().text() + "]"), text);
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Display.png(m), 4));
    }

    @Test
    void anIntervalIsOneArgumentAndGetsItsColumn() {
        Table t = Headline.of("x")
                .row("median", "10 ns", "9 .. 11 ns")
                .row("p99", "20 ns")
                .table();
        assertEquals(List.of("figure", "value", "interval"), t.columnNames());
        assertEquals("9 .. 11 ns", t.getString(0, 2));
        assertEquals("", t.getString(1, 2));
        Displayable d = new Displayable() {
            public Table headline() {
                return t;
            }

            public org.knowm.xchart.XYChart chart() {
                return null;
            }
        };
        assertTrue(d.text().contains("median  10 ns  [9 .. 11 ns]"), d.text());
        assertTrue(d.html().contains("<th>interval</th>"), d.html());
        Refusal none = assertThrows(Refusal.class, d::show);
        assertTrue(none.getMessage().contains("has no plot"), none.getMessage());
    }

    /** A label is the user's (a profile file's name): in HTML it is escaped, on a terminal it cannot drive it. */
    @Test
    void aHostileLabelIsEscapedInHtmlAndText() {
        Measurement m = measurement("<script>alert(1)</script>\u001b[2J\nforged line", 5, 6, 7);
        assertFalse(m.html().contains("<script>"), m.html());
        assertTrue(m.html().contains("&lt;script&gt;"), m.html());
        String text = m.toString();
        assertFalse(text.contains("\u001b"), text);
        assertFalse(text.contains("\nforged line"), "a newline in a label cannot forge a line: " + text);
    }

    @Test
    void addedShowsTheDifferenceAndBothDistributions() {
        Measurement base = measurement("getppid", 50, 52, 54);
        Measurement under = measurement("getppid under floor", 80, 82, 84);
        Added a = under.addedOver(base);
        assertTrue(a.toString().contains("added             " + Headline.ns(a.addedNs())), a.toString());
        assertTrue(a.html().contains("<td>ratio</td>"), a.html());
        assertEquals(2, a.chart().getSeriesMap().size());
    }

    @Test
    void showWritesANewPngAndRefusesAnExistingName(@TempDir Path tmp) throws Exception {
        Measurement m = measurement("getppid", 1, 2, 3);
        Path shown = m.show();
        try {
            assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(shown), 4));
            assertTrue(shown.getFileName().toString().endsWith("-getppid.png"), shown.toString());
            Path second = m.show();
            assertFalse(second.equals(shown), "each show a new file");
            Files.delete(second);
        } finally {
            Files.deleteIfExists(shown);
        }
        Path file = tmp.resolve("m.png");
        assertEquals(file, m.show(file));
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(file), 4));
        Path planted = tmp.resolve("planted.png");
        Files.createSymbolicLink(planted, tmp.resolve("elsewhere"));
        assertThrows(Refusal.class, () -> m.show(file), "an existing file is not replaced");
        assertThrows(Refusal.class, () -> m.show(planted), "a planted link is not followed");
        assertFalse(Files.exists(tmp.resolve("elsewhere")));
    }

    @Test
    void aFloorAGraphAPreparationAndACursorShowThemselves() {
        FloorView f = Lab.fixtureFloor("abcdf");
        assertTrue(f.toString().startsWith("floor: static floor, abcdf\n  programs"), f.toString());
        assertTrue(f.toString().contains("length     " + f.length() + " instructions"), f.toString());
        assertTrue(f.allowedCount() > 0 && f.allowedCount() < 100, "abcdf allows a few calls: " + f.allowedCount());
        assertEquals(2, f.chart().getSeriesMap().size());
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Display.png(f), 4));

        GraphView g = Lab.fixtureGraph("abcdf");
        assertTrue(g.html().contains("<td>sites</td><td>" + g.graph().siteCount() + "</td>"), g.html());
        assertNotNull(g.chart());
        PreparedView p = g.prepare();
        assertTrue(
                p.toString().contains("layout")
                        && p.toString().contains(p.layout().wire()),
                p.toString());
        assertEquals(p.layouts().rowCount(), p.detail().rowCount());
        Stepper s = p.cursor("main");
        s.steps("getppid", "reboot");
        assertTrue(s.toString().contains("denied     1"), s.toString());
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Display.png(s), 4));
    }

    @Test
    void aResultsFolderShowsItsReproductionRowsAndAPlot() {
        Results r = Results.load(Fixtures.home().resolve("results/2026-11-30-vm-floor-cost"));
        String text = r.toString();
        assertTrue(text.startsWith("results: 2026-11-30-vm-floor-cost\n"), text);
        assertTrue(text.contains("reproduction  floor-cost"), text);
        assertFalse(text.contains("Results@"), text);
        // short enough that jshell shows it whole, cut only between rows, the rest counted
        assertTrue(text.length() <= Display.TEXT_LIMIT, text.length() + ": " + text);
        assertTrue(
                text.endsWith(" in all)")
                        && text.contains("more rows (" + r.resultRows().size() + " in all)"),
                text);
        assertTrue(r.html().contains("<caption>summary</caption>"), r.html());
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Display.png(r), 4));
    }
}
