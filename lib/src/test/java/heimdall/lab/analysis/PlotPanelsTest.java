package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.reproduce.graphlookup.GraphLookupPlots;
import heimdall.lab.reproduce.hostload.HostLoadPlots;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;

/**
 * Plots with more rows than {@link Plots#MAX_SERIES} come as panels (issue 22, item 5): each panel at most
 * eight series, every row on some panel, and panels a reader can set side by side. And the title rule of
 * {@link PlotRulesTest} catches the title that was cut.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class PlotPanelsTest {
    @Test
    void panelsKeepGroupsWholeAndShareTheRowsEvenly() {
        // host-load's nine rows by kind of floor: six, two and one make panels of six and three, not eight and one
        assertEquals(List.of(items(0, 6), items(6, 9)), Charts.panels(groups(6, 2, 1), 8));
        // a group larger than a panel is split at the panel's size
        assertEquals(List.of(items(0, 8), items(8, 10)), Charts.panels(groups(10), 8));
        // what fits on one panel stays on one
        assertEquals(List.of(items(0, 7)), Charts.panels(groups(3, 4), 8));
        // graph layouts beside a two-layout baseline: families of three and four on panels of at most six
        assertEquals(List.of(items(0, 3), items(3, 7)), Charts.panels(groups(3, 4), 6));
    }

    @Test
    void hostLoadsNineRowsArePanelsOfAtMostEightThatHoldEveryRow(@TempDir Path tmp) throws Exception {
        Results r = Results.load(Fixtures.resultsRoot().resolve("2026-11-30-vm-7"));
        XYChart all = HostLoadPlots.p99VsLoad(r);
        assertEquals(9, all.getSeriesMap().size(), "the committed folder's rows");
        Map<String, XYChart> panels = HostLoadPlots.p99VsLoadPanels(r);
        assertEquals(
                Set.of("p99-vs-load-static-floor.png", "p99-vs-load-three-answers-and-stacked.png"), panels.keySet());
        List<String> shown = new ArrayList<>();
        for (XYChart c : panels.values()) {
            assertTrue(c.getSeriesMap().size() <= Plots.MAX_SERIES, c.getTitle());
            shown.addAll(c.getSeriesMap().keySet());
            for (var s : c.getSeriesMap().values()) {
                // a series holds the same runs as on the chart of every row
                assertEquals(all.getSeriesMap().get(s.getName()).getXData().length, s.getXData().length, s.getName());
            }
        }
        assertEquals(new TreeSet<>(all.getSeriesMap().keySet()), new TreeSet<>(shown), "every row once");
        assertEquals(all.getSeriesMap().size(), shown.size(), "no row twice");
        assertEquals(
                Set.of("p99-vs-load.png"),
                HostLoadPlots.p99VsLoadPanels(Results.load(SyntheticResults.loadFolder(tmp.resolve("load"))))
                        .keySet(),
                "few rows: one chart");
    }

    @Test
    void graphLayoutsComeInFamiliesBesideTheBaselineOnOneAxis() {
        Results r = Results.load(Fixtures.resultsRoot().resolve("2026-11-30-vm-14"));
        Map<String, CategoryChart> panels = GraphLookupPlots.graphByLayoutPanels(r);
        assertEquals(Set.of("graph-by-layout-dfa.png", "graph-by-layout-dfa-min.png"), panels.keySet());
        Set<String> layouts = new TreeSet<>();
        Map<String, Color> colours = new HashMap<>();
        List<double[]> ranges = new ArrayList<>();
        for (CategoryChart c : panels.values()) {
            assertTrue(c.getSeriesMap().size() <= Plots.MAX_SERIES, c.getTitle());
            assertTrue(c.getSeriesMap().containsKey("hash") && c.getSeriesMap().containsKey("hash-fastutil"));
            for (CategorySeries s : c.getSeriesMap().values()) {
                layouts.add(s.getName());
                Color before = colours.putIfAbsent(s.getName(), s.getMarkerColor());
                assertTrue(before == null || before.equals(s.getMarkerColor()), s.getName() + " keeps its colour");
            }
            BufferedImage png = Plots.image(c);
            assertTrue(png.getWidth() > 0);
            ranges.add(org.knowm.xchart.internal.chartpart.ChartParts.yRange(c));
        }
        assertEquals(
                new TreeSet<>(GraphLookupPlots.graphByLayout(r).getSeriesMap().keySet()), layouts, "every layout");
        assertEquals(9, layouts.size());
        assertEquals(ranges.get(0)[0], ranges.get(1)[0], 1e-9, "one y axis");
        assertEquals(ranges.get(0)[1], ranges.get(1)[1], 1e-9, "one y axis");
    }

    @Test
    void theTitleRuleCatchesTheTitleThatWasCut() {
        Map<String, double[]> lines = new LinkedHashMap<>();
        for (int k = 0; k < 8; k++) {
            int shift = k * 1000;
            lines.put(
                    "line " + k,
                    IntStream.range(0, 500).mapToDouble(i -> 2000 + shift + i).toArray());
        }
        String cut = "Faster round trips, answer continue, native supervisor: time per call, ECDF (ns);"
                + " the other rows: in the table";
        XYChart old = Plots.ecdf(cut, lines);
        BufferedImage png = Plots.image(old);
        List<String> broken = PlotRulesTest.titleInside("old", old, png, png.createGraphics());
        assertFalse(broken.isEmpty(), "the old title, cut in the committed PNGs");
        assertTrue(broken.get(0).contains("cut at its end"), broken.get(0));
        XYChart fits = Plots.ecdf("Faster round trips, answer continue: time per call (ns), ECDF", lines);
        BufferedImage png2 = Plots.image(fits);
        assertEquals(List.of(), PlotRulesTest.titleInside("new", fits, png2, png2.createGraphics()));
    }

    /** Groups of the given sizes, their items numbered on from 0. */
    private static List<List<Integer>> groups(int... sizes) {
        List<List<Integer>> out = new ArrayList<>();
        int at = 0;
        for (int n : sizes) {
            out.add(items(at, at + n));
            at += n;
        }
        return out;
    }

    private static List<Integer> items(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }
}
