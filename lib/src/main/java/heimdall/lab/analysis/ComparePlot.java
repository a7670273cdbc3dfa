package heimdall.lab.analysis;

import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;
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
    private static final int LABEL_CHARS = 80;

    private ComparePlot() {}

    static CategoryChart addedByRow(Compare c) {
        Table t = c.table();
        int folders = c.folderNames().size();
        List<String> labels = c.rowLabels();
        List<String> categories = new ArrayList<>();
        for (int k = 0; k < labels.size(); k++) {
            String l = (k + 1) + " " + labels.get(k);
            categories.add(l.length() > LABEL_CHARS ? l.substring(0, LABEL_CHARS - 1) + "…" : l);
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
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(c.reproduction() + (ratios ? ": added / unfiltered by row, per " + (c.acrossKernels() ? "kernel" : "folder")
                        + " (" + Compare.EMULATED + ")" : ": added cost by row, per " + (c.acrossKernels() ? "kernel" : "folder")))
                .xAxisTitle("row (numbered as in the table)").yAxisTitle(ratios ? "added / unfiltered" + (positive ? " (log scale)" : "")
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
        chart.getStyler().setAxisTickLabelsFont(chart.getStyler().getAxisTickLabelsFont().deriveFont(10f));
        for (int f = 0; f < folders; f++) {
            CompareHost h = c.folders().get(f).host();
            // across kernels the kernel is the series: it leads the name
            String name = c.acrossKernels() ? h.kernel() + (h.emulated() ? " (emulated)" : "") + " · " + c.folderNames().get(f)
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

    private static <T> List<T> pick(List<T> all, List<Integer> keep) {
        List<T> out = new ArrayList<>();
        keep.forEach(k -> out.add(all.get(k)));
        return out;
    }

    static byte[] png(CategoryChart chart) {
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
