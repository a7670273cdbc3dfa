package heimdall.lab.reproduce.hostload;

import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.HostLoadRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/** host-load's plots: the call rows' ({@link CallPlots}) and the p99 against the load average, in panels.
 * Its kind's plots facet ({@link HostLoadRun#plots}). */
public final class HostLoadPlots {
    private HostLoadPlots() {}

    /**
     * host-load's plots: {@link CallPlots#callPlots} and the p99 against the load average
     * ({@link #p99VsLoadPanels}).
     */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = CallPlots.callPlots(r);
        if (r.hostLoad().stream()
                .anyMatch(h -> h.loadAvgRuns() != null && !h.loadAvgRuns().isEmpty())) {
            charts.putAll(p99VsLoadPanels(r));
        }
        return charts;
    }

    /**
     * Tail latency against host load, one series per row (the same what and call idle and loaded):
     * one point per run, x the load average sampled over that run ({@code load_avg_runs}), y that
     * run's p99 ({@code run_p99_ns}, else from samples.arrow). Rows without per-run loads fall back to
     * one point: the mean load and the row's {@code p99_ns}. Each series' legend gives its own loaded /
     * idle p99 ratio, so one call's move under load is not mistaken for the difference between calls.
     * Every row on one chart: for a folder with more than {@link Plots#MAX_SERIES} rows, {@link #p99VsLoadPanels}.
     */
    public static XYChart p99VsLoad(Results r) {
        Map<String, LoadSeries> series = loadSeries(r);
        return p99VsLoad(
                series.values(), "p99 (ns) against host load: one series per row, its idle and loaded runs together");
    }

    /**
     * {@link #p99VsLoad}, at most {@link Plots#MAX_SERIES} series a chart: {@code p99-vs-load.png} when every
     * row fits, else a panel per kind of floor (the part of a row's {@code what} before its comma:
     * "static floor", "three answers", ...), kinds with few rows sharing a panel while it has room and a kind
     * with more rows than that split in turn, so each colour and marker stands for one row.
     */
    public static Map<String, XYChart> p99VsLoadPanels(Results r) {
        Map<String, LoadSeries> series = loadSeries(r);
        Map<String, XYChart> charts = new LinkedHashMap<>();
        if (series.size() <= Plots.MAX_SERIES) {
            charts.put(
                    "p99-vs-load.png",
                    p99VsLoad(
                            series.values(),
                            "p99 (ns) against host load: one series per row, its idle and loaded runs together"));
            return charts;
        }
        Map<String, List<LoadSeries>> byKind = new LinkedHashMap<>();
        for (LoadSeries l : series.values()) {
            byKind.computeIfAbsent(l.kind(), k -> new ArrayList<>()).add(l);
        }
        List<List<LoadSeries>> panels = Charts.panels(List.copyOf(byKind.values()), Plots.MAX_SERIES);
        Set<String> slugs = new LinkedHashSet<>();
        for (List<LoadSeries> panel : panels) {
            String kinds = String.join(
                    " and ", panel.stream().map(LoadSeries::kind).distinct().toList());
            charts.put(
                    "p99-vs-load-" + Charts.unique(slugs, Charts.slug(kinds)) + ".png",
                    p99VsLoad(
                            panel, "p99 (ns) against host load, " + kinds + ": a row's idle and loaded runs together"));
        }
        return charts;
    }

    /**
     * One host-load series: a row (what and call), its runs' loads and p99s, and its p99 by load.
     *
     * @param kind the kind of floor, the part of {@code what} before its comma, for {@link #p99VsLoadPanels}
     */
    public record LoadSeries(
            String key, String kind, List<Double> loads, List<Double> p99s, Map<String, Double> p99ByLoad) {}

    /** Every host-load row's series, by what and call, in row order; an error when there are none. */
    public static Map<String, LoadSeries> loadSeries(Results r) {
        Map<String, LoadSeries> out = new LinkedHashMap<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (!(r.row(i) instanceof HostLoadRow row)) {
                continue;
            }
            String key = row.what() + " · " + row.call();
            String kind = String.valueOf(row.what()).split(",")[0].trim();
            LoadSeries l = out.computeIfAbsent(
                    key, x -> new LoadSeries(key, kind, new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>()));
            if (row.p99Ns() != null) {
                l.p99ByLoad().put(row.load(), row.p99Ns().doubleValue());
            }
            List<Double> loads = Charts.doubles(row.loadAvgRuns());
            List<Double> p99s = Charts.doubles(row.runP99Ns());
            if (p99s.isEmpty() && r.hasCallSamples()) {
                for (long[] run : r.samplesOf(i, "filtered")) {
                    p99s.add((double) heimdall.lab.bench.Stats.of(run).p99());
                }
            }
            if (p99s.isEmpty() && row.p99Ns() != null && !loads.isEmpty()) {
                loads = List.of(loads.stream()
                        .mapToDouble(Double::doubleValue)
                        .average()
                        .orElseThrow());
                p99s = List.of(row.p99Ns().doubleValue());
            }
            for (int k = 0; k < p99s.size() && k < loads.size(); k++) {
                l.loads().add(loads.get(k));
                l.p99s().add(p99s.get(k));
            }
        }
        out.values().removeIf(l -> l.loads().isEmpty());
        if (out.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no load rows (rows with 'load' and 'load_avg_runs')");
        }
        return out;
    }

    /** The p99-against-load chart of some series, each a colour and marker of its own. */
    public static XYChart p99VsLoad(Collection<LoadSeries> series, String title) {
        // The legend names each row with its own loaded / idle ratio: below the plot, a line each.
        XYChart c = new XYChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT + 22 * series.size())
                .title(title)
                .xAxisTitle("load average during the run (1 min)")
                .yAxisTitle("p99 of the run (ns)")
                .build();
        Charts.style(c);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(9);
        double lo = series.stream()
                .flatMap(l -> l.p99s().stream())
                .mapToDouble(Double::doubleValue)
                .min()
                .orElse(1);
        double hi = series.stream()
                .flatMap(l -> l.p99s().stream())
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(1);
        if (lo > 0 && hi / lo > 20) {
            c.getStyler().setYAxisLogarithmic(true);
            Charts.logTicks(c.getStyler(), lo, hi);
            c.setYAxisTitle("p99 of the run (ns, log scale)");
        }
        c.getStyler().setYAxisDecimalPattern("#,##0");
        int k = 0;
        for (LoadSeries l : series) {
            XYSeries s = c.addSeries(loadSeriesName(l.key(), l.p99ByLoad()), l.loads(), l.p99s());
            s.setMarker(Charts.MARKERS[k % Charts.MARKERS.length]);
            s.setMarkerColor(Charts.PALETTE[k % Charts.PALETTE.length]);
            k++;
        }
        return c;
    }

    /** A host-load series' legend entry: the row, and its loaded / idle p99 when both were measured. */
    public static String loadSeriesName(String row, Map<String, Double> p99ByLoad) {
        String name = row.length() > 40 ? row.substring(0, 39) + "…" : row;
        Double idle = p99ByLoad == null ? null : p99ByLoad.get("idle");
        Double loaded = p99ByLoad == null ? null : p99ByLoad.get("loaded");
        return idle != null && loaded != null && idle > 0
                ? String.format(Locale.ROOT, "%s: p99 loaded/idle %.2f×", name, loaded / idle)
                : name;
    }
}
