package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import java.awt.RenderingHints;
import java.awt.font.TextLayout;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.internal.chartpart.ChartParts;
import org.knowm.xchart.internal.series.AxesChartSeries;
import org.knowm.xchart.internal.series.Series;

/**
 * Every plot of every committed results folder (one per reproduction kind: floor-cost, follower-cost,
 * kernel-matrix, host-load, attach-cost, kernel-bitmap, graph, ...), loaded and drawn through
 * {@link Plots#all} as {@code ./lab} draws them, obeys the rules a reader needs (issue 22, item 5):
 * at most {@link Plots#MAX_SERIES} series in a legend, the legend inside the image, column labels
 * that are whole and tell the columns apart, log axes without an empty decade beyond the data and with
 * two numbers on them, and a title that says its unit and lies inside the image as XChart draws it. Each rule is
 * checked on the chart objects after the chart was painted.
 * With {@code -Dplotrules.out=DIR} the PNGs are also written there, to look at.
 */
class PlotRulesTest {
    /** A unit word in a title: a time, a count, a ratio. */
    private static final Pattern UNIT = Pattern.compile("(?s).*(\\bns\\b|µs|\\bms\\b|\\bcount\\b|\\bratio|×|%|/).*");

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyPlotOfEveryCommittedFolderFollowsTheRules() throws Exception {
        List<Path> folders = new ArrayList<>();
        try (var list = Files.list(Fixtures.resultsRoot())) {
            list.filter(d -> Files.isRegularFile(d.resolve("summary.json")))
                    .sorted()
                    .forEach(folders::add);
        }
        assertTrue(folders.size() >= 16, "the committed folders: " + folders);
        String out = System.getProperty("plotrules.out");
        List<String> broken = new ArrayList<>();
        int drawn = 0;
        Set<String> kinds = new HashSet<>();
        for (Path dir : folders) {
            Results r = Results.load(dir);
            Map<String, Chart<?, ?>> charts = Plots.all(r);
            if (!charts.isEmpty()) {
                kinds.add(r.kind().toString());
            }
            for (var e : charts.entrySet()) {
                String name = dir.getFileName() + "/" + e.getKey();
                BufferedImage png = Plots.image(e.getValue());
                if (out != null) {
                    Plots.save(e.getValue(), Path.of(out, dir.getFileName().toString(), e.getKey()));
                }
                broken.addAll(check(name, e.getValue(), png));
                drawn++;
            }
        }
        System.out.println("plot rules: " + drawn + " plots of " + folders.size() + " folders, kinds " + kinds);
        assertTrue(drawn >= 30, "plots drawn: " + drawn);
        assertTrue(broken.isEmpty(), broken.size() + " broken rules:\n" + String.join("\n", broken));
    }

    /** The synthetic folders' plots (a floor-cost, a host-load and a graph folder) follow the same rules. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void syntheticFoldersPlotsFollowTheRules(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        List<String> broken = new ArrayList<>();
        int drawn = 0;
        for (Path dir : List.of(
                SyntheticResults.floorFolder(tmp.resolve("floor")),
                SyntheticResults.loadFolder(tmp.resolve("load")),
                SyntheticResults.graphFolder(tmp.resolve("graph")))) {
            for (var e : Plots.all(Results.load(dir)).entrySet()) {
                broken.addAll(check(dir.getFileName() + "/" + e.getKey(), e.getValue(), Plots.image(e.getValue())));
                drawn++;
            }
        }
        assertTrue(drawn >= 3, "plots drawn: " + drawn);
        assertTrue(broken.isEmpty(), String.join("\n", broken));
    }

    /** {@code ./lab compare}'s two plots, of the committed floor-cost folders, follow the same rules. */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void comparePlotsFollowTheRules() throws Exception {
        Path root = Fixtures.resultsRoot();
        Compare c = Compare.load(
                List.of(root.resolve("2026-11-30-vm-floor-cost"), root.resolve("2026-12-01-vm-floor-cost")));
        String out = System.getProperty("plotrules.out");
        List<String> broken = new ArrayList<>();
        Map<String, Chart<?, ?>> charts =
                Map.of("compare-added.png", c.plot(), "compare-change.png", c.changePlot(0.05));
        for (var e : charts.entrySet()) {
            BufferedImage png = Plots.image(e.getValue());
            if (out != null) {
                Plots.save(e.getValue(), Path.of(out, "compare", e.getKey()));
            }
            broken.addAll(check("compare/" + e.getKey(), e.getValue(), png, ComparePlot.LABEL_CHARS));
            // one number format on each axis: never "1E4" beside "1000"
            List<String> ticks = new ArrayList<>(ChartParts.yTickLabels(e.getValue()));
            ticks.removeIf(t -> t == null || !t.matches(".*[0-9].*"));
            if (ticks.stream().anyMatch(t -> t.matches(".*[0-9][eE][-+]?[0-9].*"))) {
                broken.add(e.getKey() + ": the y axis writes numbers two ways: " + ticks);
            }
        }
        assertTrue(broken.isEmpty(), String.join("\n", broken));
    }

    /** explore's bars of BPF instructions per call (the notebook's eight calls) follow the same rules. */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void exploresInstructionBarsFollowTheRules() throws Exception {
        Path podman = Path.of("/usr/share/containers/seccomp.json");
        heimdall.lab.testing.Requires.file(podman, "Debian package golang-github-containers-common");
        CategoryChart chart = heimdall.lab.explore.Lab.floor(podman)
                .plot("getppid", "gettid", "getpid", "mprotect", "prctl", "openat", "personality", "reboot");
        BufferedImage png = Plots.image(chart);
        String out = System.getProperty("plotrules.out");
        if (out != null) {
            Plots.save(chart, Path.of(out, "explore", "insns-per-call.png"));
        }
        List<String> broken = check("explore/insns-per-call.png", chart, png, 40);
        assertTrue(broken.isEmpty(), String.join("\n", broken));
    }

    /** The rules one painted chart breaks, each a line naming the plot. */
    static List<String> check(String name, Chart<?, ?> chart, BufferedImage png) {
        return check(name, chart, png, Charts.MAX_COLUMN_LABEL + "999: ".length());
    }

    /** As {@link #check(String, Chart, BufferedImage)}, column labels up to {@code maxLabel} characters. */
    static List<String> check(String name, Chart<?, ?> chart, BufferedImage png, int maxLabel) {
        List<String> broken = new ArrayList<>();
        String title = chart.getTitle();
        if (title == null || title.isBlank() || !UNIT.matcher(title).matches()) {
            broken.add(name + ": the title names no unit: '" + title + "'");
        }
        java.awt.Graphics2D g = png.createGraphics();
        try {
            broken.addAll(titleInside(name, chart, png, g));
            if (chart instanceof XYChart || chart instanceof CategoryChart) {
                var axes = (org.knowm.xchart.style.AxesChartStyler) chart.getStyler();
                int y = g.getFontMetrics(axes.getAxisTitleFont()).stringWidth(chart.getYAxisTitle());
                if (y > ChartParts.plot(chart).getHeight() + 40) {
                    broken.add(name + ": the y axis' title (" + y + " px) is longer than the axis: '"
                            + chart.getYAxisTitle() + "'");
                }
                int x = g.getFontMetrics(axes.getAxisTitleFont()).stringWidth(chart.getXAxisTitle());
                if (x > png.getWidth() - 8) {
                    broken.add(name + ": the x axis' title (" + x + " px) is wider than the image: '"
                            + chart.getXAxisTitle() + "'");
                }
            }
        } finally {
            g.dispose();
        }
        long shown = chart.getSeriesMap().values().stream()
                .filter(Series::isShowInLegend)
                .count();
        if (shown > Plots.MAX_SERIES) {
            broken.add(name + ": " + shown + " series in the legend, more than " + Plots.MAX_SERIES);
        }
        // two legend entries that look alike are two things a reader cannot tell apart
        Map<String, String> looks = new java.util.HashMap<>();
        for (Series o : chart.getSeriesMap().values()) {
            if (o.isShowInLegend()) {
                String look = look(o);
                String before = looks.put(look, o.getName());
                if (before != null) {
                    broken.add(name + ": '" + before + "' and '" + o.getName() + "' look alike (" + look + ")");
                }
            }
        }
        Rectangle2D legend = ChartParts.legend(chart);
        if (legend != null
                && chart.getStyler().isLegendVisible()
                && shown > 0
                && (legend.getMinX() < 0
                        || legend.getMinY() < 0
                        || legend.getMaxX() > png.getWidth()
                        || legend.getMaxY() > png.getHeight())) {
            broken.add(name + ": the legend " + legend + " leaves the " + png.getWidth() + "×" + png.getHeight()
                    + " image");
        }
        Rectangle2D plot = ChartParts.plot(chart);
        if (plot.getWidth() < 200 || plot.getHeight() < 150) {
            broken.add(name + ": the plot area is squeezed to " + plot);
        }
        Rectangle2D xAxis = ChartParts.xAxis(chart);
        if (xAxis.getMaxY() > png.getHeight() + 1 || xAxis.getMinX() < -1) {
            broken.add(name + ": the x axis' labels run off the image: " + xAxis);
        }
        if (chart instanceof CategoryChart c) {
            broken.addAll(columnLabels(name, c, maxLabel));
            if (c.getStyler().getXAxisLabelRotation() == 0 && !c.getSeriesMap().isEmpty()) {
                // upright labels share the axis' width: each must fit its column, or they run together
                java.util.Collection<?> x =
                        c.getSeriesMap().values().iterator().next().getXData();
                java.awt.Graphics2D gg = png.createGraphics();
                var fm = gg.getFontMetrics(c.getStyler().getAxisTickLabelsFont());
                double column = plot.getWidth() / Math.max(1, x.size());
                for (Object l : x) {
                    if (fm.stringWidth(String.valueOf(l)) > column - 4) {
                        broken.add(name + ": the upright label '" + l + "' is wider than its column (" + (int) column
                                + " px)");
                    }
                }
                gg.dispose();
            }
            if (c.getStyler().isYAxisLogarithmic()) {
                broken.addAll(decades(name, "y", ChartParts.yRange(chart), dataRange(c, false)));
                broken.addAll(logLabels(name, "y", ChartParts.yTickLabels(chart)));
            }
        }
        if (chart instanceof XYChart x) {
            if (x.getStyler().isXAxisLogarithmic()) {
                broken.addAll(decades(name, "x", ChartParts.xRange(chart), dataRange(x, true)));
                broken.addAll(logLabels(name, "x", ChartParts.xTickLabels(chart)));
            }
            if (x.getStyler().isYAxisLogarithmic()) {
                broken.addAll(decades(name, "y", ChartParts.yRange(chart), dataRange(x, false)));
                broken.addAll(logLabels(name, "y", ChartParts.yTickLabels(chart)));
            }
        }
        return broken;
    }

    /**
     * The title inside the image. XChart neither wraps nor cuts a title: it centres it over the plot area
     * (not the image), so a title wider than the room either side of the plot's centre loses its end (or
     * its start) at the image's edge, the legend beside the plot moving the centre left. Measured as
     * XChart measures it: a {@link TextLayout} of the title font, antialiased.
     */
    static List<String> titleInside(String name, Chart<?, ?> chart, BufferedImage png, java.awt.Graphics2D g) {
        String title = chart.getTitle();
        if (title == null || title.isEmpty() || !chart.getStyler().isChartTitleVisible()) {
            return List.of();
        }
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        Rectangle2D text =
                new TextLayout(title, chart.getStyler().getChartTitleFont(), g.getFontRenderContext()).getBounds();
        Rectangle2D plot = ChartParts.plot(chart);
        double left = plot.getX() + (plot.getWidth() - text.getWidth()) / 2;
        double right = left + text.getWidth();
        if (left < 2 || right > png.getWidth() - 2) {
            return List.of(String.format(
                    java.util.Locale.ROOT,
                    "%s: the title runs %.0f–%.0f px in a %d px image (cut at its %s): '%s'",
                    name,
                    left,
                    right,
                    png.getWidth(),
                    right > png.getWidth() - 2 ? "end" : "start",
                    title));
        }
        return List.of();
    }

    /** What tells a series apart in the legend: its colours, its line's width, its marker. */
    private static String look(Series o) {
        if (o instanceof org.knowm.xchart.XYSeries x) {
            return x.getLineColor() + "/"
                    + (x.getLineStyle() == null ? "-" : x.getLineStyle().getLineWidth()) + "/"
                    + (x.getMarker() == null ? "-" : x.getMarker().getClass().getSimpleName()) + "/"
                    + x.getMarkerColor();
        }
        if (o instanceof CategorySeries c) {
            return (c.getMarker() == null ? "-" : c.getMarker().getClass().getSimpleName()) + "/" + c.getMarkerColor()
                    + "/" + c.getFillColor();
        }
        return o.getName();
    }

    /** Column labels: never cut at their end, and still different once their row number is dropped. */
    private static List<String> columnLabels(String name, CategoryChart c, int maxLabel) {
        List<String> broken = new ArrayList<>();
        for (CategorySeries s : c.getSeriesMap().values()) {
            List<String> labels = s.getXData().stream().map(String::valueOf).toList();
            Set<String> seen = new HashSet<>();
            for (String l : labels) {
                if (l.endsWith("…")) {
                    broken.add(name + ": column label cut: '" + l + "'");
                }
                if (!seen.add(l.replaceFirst("^\\d+:? ", "")) && l.matches("^\\d+:? .*")) {
                    broken.add(name + ": two columns read alike without their row number: '" + l + "'");
                }
                if (l.length() > maxLabel) {
                    broken.add(name + ": column label longer than the axis shows (" + l.length() + "): '" + l + "'");
                }
            }
            break; // every series of a category chart has the same columns
        }
        return broken;
    }

    /**
     * A log axis with at least two numbers on it: XChart labels only a log axis' decades, and one number
     * alone says neither where the others lie nor how far apart the gridlines are.
     */
    private static List<String> logLabels(String name, String axis, List<String> ticks) {
        List<String> numbers =
                ticks.stream().filter(t -> t != null && t.matches(".*[0-9].*")).toList();
        return numbers.size() >= 2
                ? List.of()
                : List.of(name + ": the log " + axis + " axis is labelled only " + numbers);
    }

    /** A log axis reaches at most one decade below and above its data: no empty decade. */
    private static List<String> decades(String name, String axis, double[] range, double[] data) {
        List<String> broken = new ArrayList<>();
        if (!(data[0] > 0) || !(data[1] > 0)) {
            return broken;
        }
        double below = Math.log10(data[0]) - Math.log10(range[0]);
        double above = Math.log10(range[1]) - Math.log10(data[1]);
        if (below >= 1 || above >= 1) {
            broken.add(String.format(
                    java.util.Locale.ROOT,
                    "%s: the log %s axis runs %.3g–%.3g for data %.3g–%.3g (an empty decade)",
                    name,
                    axis,
                    range[0],
                    range[1],
                    data[0],
                    data[1]));
        }
        return broken;
    }

    /** The data's smallest and largest positive value on one axis, over every series drawn. */
    private static double[] dataRange(Chart<?, ?> chart, boolean x) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (Object o : chart.getSeriesMap().values()) {
            AxesChartSeries s = (AxesChartSeries) o;
            double min = x ? s.getXMin() : s.getYMin();
            double max = x ? s.getXMax() : s.getYMax();
            if (min > 0) {
                lo = Math.min(lo, min);
            }
            hi = Math.max(hi, max);
        }
        return new double[] {lo, hi};
    }
}
