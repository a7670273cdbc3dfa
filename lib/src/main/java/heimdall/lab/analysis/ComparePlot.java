package heimdall.lab.analysis;

import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Verdict;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

/**
 * {@link Compare}'s chart: added cost by row, a column per row (numbered as in the table), one marker
 * series per folder and the published figures as open diamonds. Floor rows add tens of nanoseconds
 * and brokered ones microseconds, so the axis is logarithmic whenever every plotted value is above
 * zero (a negative added cost, a faster filtered call, forces a linear axis rather than being hidden).
 */
final class ComparePlot {
    private static final int WIDTH = 1400;
    private static final int HEIGHT = 1100;
    /** Longer category labels are cut: 90°-rotated, they eat the plot's height. */
    static final int LABEL_CHARS = 80;

    private ComparePlot() {}

    static CategoryChart addedByRow(Compare c) {
        Table t = c.table();
        int folders = c.folderNames().size();
        List<String> labels = c.rowLabels();
        List<String> categories = new ArrayList<>();
        // never cut at the end (where the placement is): the parts every row shares go, then parts whose
        // loss keeps the rows apart (Charts.shortParts)
        int room = LABEL_CHARS - 3;
        List<List<String>> parts =
                labels.stream().map(l -> List.of(l.split(" · "))).toList();
        List<String> short_ = Charts.distinctLabels(Charts.shortParts(parts, room), room);
        for (int k = 0; k < labels.size(); k++) {
            categories.add((k + 1) + " " + short_.get(k));
        }
        // With an emulated figure among them, every folder is drawn as ratios (added / unfiltered), never ns.
        boolean ratios = c.anyEmulated();
        DoubleColumn added = t.doubleColumn(ratios ? "added_ratio" : "added");
        DoubleColumn published = t.doubleColumn("published_added");
        boolean positive = true;
        List<List<Double>> series = new ArrayList<>();
        for (int f = 0; f < folders; f++) {
            List<Double> ys = new ArrayList<>();
            for (int k = 0; k < labels.size(); k++) {
                int line = k * folders + f; // the table holds one line per (row, folder), folders in order
                Double y = added.isMissing(line) ? null : added.getDouble(line);
                positive &= y == null || y > 0;
                ys.add(y);
            }
            series.add(ys);
        }
        List<Double> pub = new ArrayList<>();
        boolean anyPublished = false;
        for (int k = 0; k < labels.size(); k++) {
            Double y = null;
            for (int f = 0; f < folders && y == null; f++) {
                int line = k * folders + f;
                y = ratios || published.isMissing(line) ? null : published.getDouble(line);
            }
            anyPublished |= y != null;
            positive &= y == null || y > 0;
            pub.add(y);
        }
        // Rows with no added cost anywhere (the round-trip floor: a reference, nothing added) are left out;
        // the numbers keep every other row findable in the table.
        List<Integer> keep = new ArrayList<>();
        for (int k = 0; k < labels.size(); k++) {
            boolean any = pub.get(k) != null;
            for (List<Double> ys : series) {
                any |= ys.get(k) != null;
            }
            if (any) {
                keep.add(k);
            }
        }
        categories = pick(categories, keep);
        pub = pick(pub, keep);
        series.replaceAll(ys -> pick(ys, keep));
        CategoryChart chart = new CategoryChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(c.reproduction()
                        + (ratios
                                ? ": added / unfiltered by row, per " + (c.acrossKernels() ? "kernel" : "folder") + " ("
                                        + Compare.EMULATED + ")"
                                : ", " + c.unit() + ": added cost by row, per "
                                        + (c.acrossKernels() ? "kernel" : "folder")))
                .xAxisTitle("row (numbered as in the table)")
                .yAxisTitle(
                        ratios
                                ? "added / unfiltered" + (positive ? " (log scale)" : "")
                                : "added (" + c.unit() + (positive ? ", log scale)" : ")"))
                .build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setToolTipsEnabled(false);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        chart.getStyler().setOverlapped(true);
        chart.getStyler().setMarkerSize(9);
        chart.getStyler().setXAxisLabelRotation(90);
        chart.getStyler().setYAxisLogarithmic(positive);
        // one number format on the axis: a log axis otherwise reads "1E4" beside "1000"
        chart.getStyler().setYAxisDecimalPattern(ratios ? "#,##0.###" : "#,##0");
        chart.getStyler()
                .setAxisTickLabelsFont(chart.getStyler().getAxisTickLabelsFont().deriveFont(10f));
        for (int f = 0; f < folders; f++) {
            CompareHost h = c.folders().get(f).host();
            // across kernels the kernel is the series: it leads the name
            String name = c.acrossKernels()
                    ? h.kernel() + (h.emulated() ? " (emulated)" : "") + " · "
                            + c.folderNames().get(f)
                    : c.folderNames().get(f) + " (" + h.describe() + ")";
            chart.addSeries(name, categories, series.get(f));
        }
        if (anyPublished) {
            CategorySeries p = chart.addSeries("published", categories, pub);
            p.setMarker(SeriesMarkers.DIAMOND);
            p.setMarkerColor(Color.BLACK);
        }
        return chart;
    }

    /** One colour per later folder (B), distinct from each other; the reference lines are grey. */
    private static final Color[] FOLDER_COLOURS = {
        new Color(0x1f, 0x77, 0xb4),
        new Color(0xd6, 0x27, 0x28),
        new Color(0x2c, 0xa0, 0x2c),
        new Color(0x94, 0x67, 0xbd),
        new Color(0xff, 0x7f, 0x0e),
        new Color(0x8c, 0x56, 0x4b)
    };

    /**
     * B/A by row, each later folder against the first: the ratio as a marker (a triangle up where the
     * verdict is slower, down where faster, a circle for no difference beyond noise) and its interval as
     * a bar from its low to its high end; lines at 1 and at the threshold's 1 ± t. Rows that could not be
     * compared are left out (the table says why). The axis is linear unless the ratios span over 4×.
     */
    static XYChart changeByRow(Compare c, List<CompareChanges.Line> lines, double threshold) {
        boolean ratios = c.anyEmulated();
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(800)
                .title(c.reproduction() + ": B/A by row against "
                        + c.folderNames().get(0) + " ("
                        + (ratios ? "within-run filtered/unfiltered, " + Compare.EMULATED : "median")
                        + "), bars: " + CompareChanges.pct(ChangeTest.DEFAULT_LEVEL) + " interval over runs")
                .xAxisTitle("row (numbered as in the table)")
                .yAxisTitle("B/A (" + (ratios ? "ratio of within-run ratios" : "median") + "; 1 = no change)")
                .build();
        var s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideS); // inside, it would hide the rows at the top right
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setToolTipsEnabled(false);
        s.setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        s.setMarkerSize(9);
        s.setErrorBarsColorSeriesColor(true);
        s.setXAxisDecimalPattern("#");
        s.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        int maxN = 1;
        List<String> names = c.folderNames().subList(1, c.folderNames().size());
        for (int f = 0; f < names.size(); f++) {
            String name = names.get(f);
            Color colour = FOLDER_COLOURS[f % FOLDER_COLOURS.length];
            List<Double> xs = new ArrayList<>();
            List<Double> mids = new ArrayList<>();
            List<Double> halves = new ArrayList<>();
            Map<Verdict, List<double[]>> points = new EnumMap<>(Verdict.class);
            // a later folder's x is shifted a little so several folders' bars stand side by side
            double dx = names.size() == 1 ? 0 : (f - (names.size() - 1) / 2.0) * 0.6 / names.size();
            for (CompareChanges.Line l : lines) {
                if (!l.folder().equals(name) || l.change() == null) {
                    continue;
                }
                Interval r = l.change().ratio();
                xs.add(l.n() + dx);
                mids.add((r.low() + r.high()) / 2);
                halves.add((r.high() - r.low()) / 2);
                points.computeIfAbsent(l.change().verdict(), v -> new ArrayList<>())
                        .add(new double[] {l.n() + dx, r.estimate()});
                lo = Math.min(lo, r.low());
                hi = Math.max(hi, r.high());
                maxN = Math.max(maxN, l.n());
            }
            if (xs.isEmpty()) {
                continue;
            }
            // the interval: a marker-less series at the interval's middle whose error bar spans low to high
            XYSeries bars = chart.addSeries(Compare.clean(name) + " interval", xs, mids, halves);
            bars.setMarker(SeriesMarkers.NONE);
            bars.setLineColor(colour);
            bars.setMarkerColor(colour);
            bars.setShowInLegend(false);
            for (var e : points.entrySet()) {
                double[] px = e.getValue().stream().mapToDouble(p -> p[0]).toArray();
                double[] py = e.getValue().stream().mapToDouble(p -> p[1]).toArray();
                XYSeries m =
                        chart.addSeries(Compare.clean(name) + ": " + e.getKey().text(), px, py);
                m.setMarkerColor(colour);
                m.setMarker(
                        switch (e.getKey()) {
                            case SLOWER -> SeriesMarkers.TRIANGLE_UP;
                            case FASTER -> SeriesMarkers.TRIANGLE_DOWN;
                            case NO_DIFFERENCE -> SeriesMarkers.CIRCLE;
                        });
            }
        }
        if (Double.isInfinite(lo)) {
            lo = 1;
            hi = 1;
        }
        double[] ends = {0.5, maxN + 0.5};
        addLine(chart, "no change (1)", ends, 1, new Color(0x55, 0x55, 0x55), false);
        Color grey = new Color(0x99, 0x99, 0x99);
        addLine(chart, "threshold 1 ± " + CompareChanges.pct(threshold), ends, 1 + threshold, grey, true);
        addLine(chart, "threshold low", ends, 1 - threshold, grey, true).setShowInLegend(false);
        lo = Math.min(lo, 1 - threshold);
        hi = Math.max(hi, 1 + threshold);
        boolean log = lo > 0 && hi / lo > 4;
        s.setYAxisLogarithmic(log);
        s.setYAxisDecimalPattern("0.0##"); // one format for every tick, never "1E0"
        double pad = log ? 0 : (hi - lo) * 0.05;
        s.setYAxisMin(log ? lo / 1.1 : lo - pad);
        s.setYAxisMax(log ? hi * 1.1 : hi + pad);
        s.setXAxisMin(0.0);
        s.setXAxisMax(maxN + 1.0);
        return chart;
    }

    private static XYSeries addLine(XYChart chart, String name, double[] xs, double y, Color colour, boolean dashed) {
        XYSeries line = chart.addSeries(name, xs, new double[] {y, y});
        line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        line.setMarker(SeriesMarkers.NONE);
        line.setLineColor(colour);
        line.setLineStyle(dashed ? SeriesLines.DASH_DASH : SeriesLines.SOLID);
        return line;
    }

    private static <T> List<T> pick(List<T> all, List<Integer> keep) {
        List<T> out = new ArrayList<>();
        keep.forEach(k -> out.add(all.get(k)));
        return out;
    }

    static byte[] png(Chart<?, ?> chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(Plots.image(chart), "png", out)) {
                throw new IOException("no PNG writer available");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the comparison plot", e);
        }
        return out.toByteArray();
    }
}
