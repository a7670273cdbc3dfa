package heimdall.lab.analysis;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * XChart plots of a {@link Results} folder. Each has a title, axis titles with units and a legend;
 * {@link #save} writes one as PNG, {@link #image} returns it as a {@link BufferedImage} (which any
 * Java Jupyter kernel, stock IJava included, shows inline).
 */
public final class Plots {
    /** Default size in pixels. */
    public static final int WIDTH = 900;
    public static final int HEIGHT = 520;
    /** An ECDF line keeps at most this many points; enough for a smooth curve at plot resolution. */
    static final int ECDF_POINTS = 400;

    private Plots() {}

    /** Writes the chart as a PNG file at exactly {@code file} (parent folders created). */
    public static Path save(Chart<?, ?> chart, Path file) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        if (!ImageIO.write(image(chart), "png", file.toFile())) {
            throw new IOException("no PNG writer available");
        }
        return file;
    }

    /**
     * Writes every plot that applies to the folder's rows into {@code dir} (normally
     * {@code <results>/plots/}): {@code distribution.png} and {@code run-medians.png} for floor-style
     * rows, {@code broker-cdf.png} when there are broker rows, {@code p99-vs-load.png} when there are
     * load rows, {@code graph-by-layout.png} for graph rows. Never overwrites: a results folder is
     * written once, so an existing file is an error.
     *
     * @return the files written, in that order
     */
    public static List<Path> saveAll(Results r, Path dir) throws IOException {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.hasGraphRows()) {
            charts.put("graph-by-layout.png", graphByLayout(r));
        } else {
            charts.put("distribution.png", distribution(r));
            if (r.rows().stream().anyMatch(row -> row.get("run_medians_ns") instanceof List)) {
                charts.put("run-medians.png", runMedians(r));
            }
            if (r.rows().stream().anyMatch(row -> row.get("supervisor") != null)) {
                charts.put("broker-cdf.png", brokerCdf(r));
            }
            if (r.rows().stream().anyMatch(row -> row.get("load") != null && row.get("load_avg_runs") != null)) {
                charts.put("p99-vs-load.png", p99VsLoad(r));
            }
        }
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (var e : charts.entrySet()) {
            Path file = dir.resolve(e.getKey());
            if (Files.exists(file)) {
                throw new java.nio.file.FileAlreadyExistsException(file.toString(), null,
                        "results folders are written once; plots already there");
            }
            written.add(save(e.getValue(), file));
        }
        return written;
    }

    /** The chart drawn into an image of the chart's size. */
    public static BufferedImage image(Chart<?, ?> chart) {
        return BitmapEncoder.getBufferedImage(chart);
    }

    /**
     * The distribution of each row's samples (filtered variant) as an ECDF: x the call's time in ns,
     * y the fraction of calls at or below it. The x axis is logarithmic when the slowest sample is more
     * than ten times the fastest, so the tail stays visible.
     */
    public static XYChart distribution(Results r) {
        Map<Integer, Map<String, Map<Integer, double[]>>> groups = Tables.group(r.samples());
        Map<String, double[]> series = new LinkedHashMap<>();
        for (var e : groups.entrySet()) {
            series.put(label(r, e.getKey()), Tables.all(e.getValue().get("filtered")));
        }
        return ecdf("Distribution of each row's samples (with the floor installed)", series);
    }

    /** One row's samples with and without the filter, as two ECDFs. */
    public static XYChart distribution(Results r, int row) {
        Map<String, Map<Integer, double[]>> g = Tables.group(r.samples()).get(row);
        if (g == null) {
            throw new IllegalArgumentException("row " + row + " has no samples in " + r.dir());
        }
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("filtered", Tables.all(g.get("filtered")));
        series.put("no filter", Tables.all(g.get("none")));
        return ecdf("Samples of " + r.label(row), series);
    }

    /**
     * The broker's latency CDF: one line per brokered row (supervisor and answer), every sample of the
     * filtered variant, logarithmic x where the tail needs it.
     */
    public static XYChart brokerCdf(Results r) {
        Map<Integer, Map<String, Map<Integer, double[]>>> groups = Tables.group(r.samples());
        Map<String, double[]> series = new LinkedHashMap<>();
        for (int i = 0; i < r.rows().size(); i++) {
            if (r.rows().get(i).get("supervisor") == null || !groups.containsKey(i)) {
                continue;
            }
            series.put(label(r, i), Tables.all(groups.get(i).get("filtered")));
        }
        if (series.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no broker rows (rows with 'supervisor')");
        }
        return ecdf("Broker round trip: latency CDF", series);
    }

    /**
     * Per-run medians: a strip per row (x), one dot per run, with-filter and no-filter side by side. A
     * row whose dots scatter has runs that disagree (see the table's spread).
     */
    public static XYChart runMedians(Results r) {
        Table t = Tables.runMedians(r);
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Per-run medians (one dot per run; grey: same call, no filter)")
                .xAxisTitle("row (numbered as in the legend)").yAxisTitle("median per run (ns)").build();
        style(c);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(8);
        int rows = r.rows().size();
        // Rows sit at integer x; long labels do not fit under the axis, so they go in the legend.
        c.getStyler().setXAxisMin(-1.0);
        c.getStyler().setXAxisMax((double) rows);
        c.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
            long i = Math.round(x);
            if (Math.abs(x - i) < 1e-6 && i >= 0 && i < rows) {
                return Long.toString(i);
            }
            // XChart drops every tick label when two are equal, so blank ones differ in length.
            return " ".repeat(1 + (int) Math.max(0, Math.round((x + 2) * 8)));
        });
        double lo = t.doubleColumn("median_ns").min();
        double hi = t.doubleColumn("median_ns").max();
        if (lo > 0 && hi / lo > 20) {
            c.getStyler().setYAxisLogarithmic(true);
            c.getStyler().setYAxisDecimalPattern("#,##0.###");
            c.setYAxisTitle("median per run (ns, log scale)");
        }
        List<Double> noneX = new ArrayList<>();
        List<Double> noneY = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            List<Double> f = r.numbers(i, "run_medians_ns");
            if (!f.isEmpty()) {
                List<Double> xs = new ArrayList<>();
                for (int k = 0; k < f.size(); k++) {
                    xs.add(i + 0.1);
                }
                c.addSeries(i + ": " + label(r, i), xs, f).setMarker(SeriesMarkers.CIRCLE);
            }
            for (double v : r.numbers(i, "run_medians_none_ns")) {
                noneX.add(i - 0.1);
                noneY.add(v);
            }
        }
        if (!noneX.isEmpty()) {
            XYSeries none = c.addSeries("no filter (each row's baseline)", noneX, noneY);
            none.setMarker(SeriesMarkers.DIAMOND);
            none.setMarkerColor(java.awt.Color.GRAY);
        }
        return c;
    }

    /**
     * Graph lookups: median ns/event per graph and trace (x), one bar per layout. Refused or missing
     * layouts have no bar.
     */
    public static CategoryChart graphByLayout(Results r) {
        Table t = Tables.graphByLayout(r);
        if (t.rowCount() == 0) {
            throw new IllegalArgumentException(r.dir() + " has no graph rows");
        }
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Graph lookups: ns per event by layout (median)")
                .xAxisTitle("graph / trace").yAxisTitle("ns per event").build();
        style(c);
        c.getStyler().setOverlapped(false);
        List<String> x = new ArrayList<>();
        StringColumn g = t.stringColumn("graph");
        StringColumn tr = t.stringColumn("trace");
        for (int i = 0; i < t.rowCount(); i++) {
            x.add(tr.get(i).isEmpty() ? g.get(i) : g.get(i) + " / " + tr.get(i));
        }
        for (String layout : t.columnNames().subList(2, t.columnCount())) {
            NumericColumn<?> col = t.numberColumn(layout);
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < t.rowCount(); i++) {
                // XChart draws no bar for a NaN-free zero; missing means not measured, so zero is wrong.
                y.add(col.isMissing(i) ? null : col.getDouble(i));
            }
            c.addSeries(layout, x, y);
        }
        return c;
    }

    /**
     * Tail latency against host load: one point per run of each load row, x the load average sampled
     * over that run ({@code load_avg_runs}), y that run's p99 (from samples.arrow). Rows without
     * per-run loads fall back to one point: the mean load and the row's {@code p99_ns}.
     */
    public static XYChart p99VsLoad(Results r) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("p99 against host load (one point per run)")
                .xAxisTitle("load average during the run").yAxisTitle("p99 (ns)").build();
        style(c);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(9);
        Map<Integer, Map<String, Map<Integer, double[]>>> groups = null;
        boolean any = false;
        for (int i = 0; i < r.rows().size(); i++) {
            Map<String, Object> row = r.rows().get(i);
            if (row.get("load") == null) {
                continue;
            }
            List<Double> loads = r.numbers(i, "load_avg_runs");
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            if (groups == null) {
                groups = Tables.group(r.samples());
            }
            Map<Integer, double[]> runs = groups.containsKey(i) ? groups.get(i).get("filtered") : null;
            if (runs != null && !loads.isEmpty()) {
                for (var run : runs.entrySet()) {
                    if (run.getKey() < loads.size()) {
                        double[] s = run.getValue().clone();
                        Arrays.sort(s);
                        xs.add(loads.get(run.getKey()));
                        ys.add(Stats.quantileSorted(s, 0.99));
                    }
                }
            } else if (row.get("p99_ns") instanceof Number p99 && !loads.isEmpty()) {
                xs.add(loads.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
                ys.add(p99.doubleValue());
            }
            if (!xs.isEmpty()) {
                c.addSeries(label(r, i), xs, ys);
                any = true;
            }
        }
        if (!any) {
            throw new IllegalArgumentException(r.dir() + " has no load rows (rows with 'load' and 'load_avg_runs')");
        }
        return c;
    }

    /**
     * ECDFs of arbitrary samples (ns), one line per entry: the building block of the distribution plots,
     * public for samples measured in a notebook.
     */
    public static XYChart ecdf(String title, Map<String, double[]> series) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (double[] s : series.values()) {
            for (double v : s) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        boolean log = min > 0 && max / min > 10;
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(log ? "time per call (ns, log scale)" : "time per call (ns)")
                .yAxisTitle("fraction of calls ≤ x").build();
        style(c);
        c.getStyler().setXAxisLogarithmic(log);
        c.getStyler().setXAxisDecimalPattern("#,##0.###"); // 10,000 rather than 1E4
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(1.0);
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
        for (var e : series.entrySet()) {
            double[] s = e.getValue().clone();
            if (s.length == 0) {
                continue;
            }
            Arrays.sort(s);
            double[][] xy = ecdfPoints(s);
            XYSeries xs = c.addSeries(e.getKey(), xy[0], xy[1]);
            xs.setMarker(SeriesMarkers.NONE);
            xs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        }
        return c;
    }

    /** Up to {@link #ECDF_POINTS} (value, fraction ≤ value) pairs of sorted samples, last one = 1. */
    static double[][] ecdfPoints(double[] sorted) {
        int n = sorted.length;
        int k = Math.min(n, ECDF_POINTS);
        double[] x = new double[k];
        double[] y = new double[k];
        for (int j = 0; j < k; j++) {
            int idx = k == 1 ? n - 1 : (int) Math.round((double) j * (n - 1) / (k - 1));
            x[j] = sorted[idx];
            y[j] = (idx + 1) / (double) n;
        }
        return new double[][] {x, y};
    }

    private static void style(Chart<?, ?> c) {
        Styler s = c.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(java.awt.Color.WHITE);
        s.setPlotBackgroundColor(java.awt.Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setToolTipsEnabled(false);
        if (s instanceof org.knowm.xchart.style.AxesChartStyler a) {
            a.setPlotGridLinesVisible(true);
            a.setPlotGridLinesColor(new java.awt.Color(0xdd, 0xdd, 0xdd));
        }
    }

    private static String label(Results r, int i) {
        String l = r.label(i);
        return l.length() > 48 ? l.substring(0, 47) + "…" : l;
    }

    private static String shortLabel(Results r, int i) {
        Object call = r.rows().get(i).get("call");
        String l = i + ": " + (call != null ? call : r.label(i));
        return l.length() > 22 ? l.substring(0, 21) + "…" : l;
    }
}
