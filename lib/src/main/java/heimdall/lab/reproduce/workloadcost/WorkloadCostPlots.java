package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.WorkloadCostRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** workload-cost's plots: the overhead per workload and mechanism, and the prediction against the measurement. */
final class WorkloadCostPlots {
    private WorkloadCostPlots() {}

    /**
     * The two panels of each chart: ten mechanisms in one legend would pass {@link Plots#MAX_SERIES} (colours
     * repeat, a series would have to be dropped), so the kernel's own (filters, Landlock, the follower) and the
     * supervisor's (the broker rows) are drawn apart, each beside the unfiltered runs where a chart has them.
     */
    enum Panel {
        KERNEL(""),
        SUPERVISOR("-broker");

        final String suffix;

        Panel(String suffix) {
            this.suffix = suffix;
        }

        boolean holds(WorkloadCostRow r) {
            return (r.subject().supervisor() != null) == (this == SUPERVISOR);
        }

        String title(String title) {
            return this == KERNEL ? title : title + ", brokered";
        }
    }

    static Map<String, Chart<?, ?>> of(Results r) {
        List<WorkloadCostRow> all = r.rows(WorkloadCostRow.class);
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        for (Panel panel : Panel.values()) {
            List<WorkloadCostRow> rows = all.stream().filter(panel::holds).toList();
            if (rows.stream().anyMatch(x -> x.overhead().ratio() != null)) {
                charts.put("overhead" + panel.suffix + ".png", overhead(rows, panel));
            }
        }
        for (Panel panel : Panel.values()) {
            Map<String, Map<String, double[]>> runs = new LinkedHashMap<>();
            for (WorkloadCostRow x : all) {
                boolean baseline = x.subject().mechanism().equals(Mechanism.NONE.label);
                if ((baseline || panel.holds(x))
                        && x.cost().wallRunsNs() != null
                        && !x.cost().wallRunsNs().isEmpty()) {
                    runs.computeIfAbsent(x.subject().workload(), k -> new LinkedHashMap<>())
                            .put(
                                    x.subject().mechanismLabel(),
                                    x.cost().wallRunsNs().stream()
                                            .mapToDouble(v -> v / 1e6)
                                            .toArray());
                }
            }
            runs.forEach((workload, series) -> {
                if (series.size() < 2) {
                    return; // the unfiltered runs alone: this panel has no mechanism for the workload
                }
                charts.put(
                        "ecdf-" + workload.replaceAll("[^A-Za-z0-9-]", "_") + panel.suffix + ".png",
                        Plots.ecdf(
                                panel.title("Run wall times (ms) of " + workload + ", one line per mechanism"),
                                "wall time of a run",
                                "ms",
                                series));
            });
        }
        for (Panel panel : Panel.values()) {
            List<WorkloadCostRow> rows = all.stream().filter(panel::holds).toList();
            if (rows.stream()
                    .anyMatch(x -> x.predicted().addedNs() != null && x.cost().wallAddedNs() != null)) {
                charts.put("predicted-vs-measured" + panel.suffix + ".png", predictedVsMeasured(rows, panel));
            }
        }
        return charts;
    }

    /** One dot per workload and mechanism: B/A of the run wall times, no filter at 1. */
    static CategoryChart overhead(List<WorkloadCostRow> rows, Panel panel) {
        List<String> workloads = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        for (WorkloadCostRow r : rows) {
            if (!workloads.contains(r.subject().workload())) {
                workloads.add(r.subject().workload());
            }
            if (r.overhead().ratio() != null) {
                cells.computeIfAbsent(r.subject().mechanismLabel(), k -> new LinkedHashMap<>())
                        .put(r.subject().workload(), r.overhead().ratio());
            }
        }
        CategoryChart c = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title(panel.title("Overhead per workload: B/A ratio of run wall times against no filter (×)"))
                .xAxisTitle("workload")
                .yAxisTitle("B/A (×)")
                .build();
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        c.getStyler().setOverlapped(true);
        c.getStyler().setMarkerSize(10);
        c.getStyler().setYAxisDecimalPattern("0.00");
        cells.entrySet().stream()
                .limit(Plots.MAX_SERIES)
                .forEach(e -> c.addSeries(
                        e.getKey(),
                        workloads,
                        workloads.stream().map(w -> e.getValue().get(w)).toList()));
        return c;
    }

    /** Predicted against measured added time a run, one dot a row, and the line where they agree. */
    static XYChart predictedVsMeasured(List<WorkloadCostRow> rows, Panel panel) {
        XYChart c = new XYChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title(panel.title(
                        "Predicted against measured added time a run (ms): the call mix times per-call costs"))
                .xAxisTitle("predicted added (ms)")
                .yAxisTitle("measured added (ms)")
                .build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(9);
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        double lo = 0;
        double hi = 0;
        for (WorkloadCostRow r : rows) {
            if (r.predicted().addedNs() == null || r.cost().wallAddedNs() == null) {
                continue;
            }
            double x = r.predicted().addedNs() / 1e6;
            double y = r.cost().wallAddedNs() / 1e6;
            points.computeIfAbsent(r.subject().mechanismLabel(), k -> new ArrayList<>())
                    .add(new double[] {x, y});
            lo = Math.min(lo, Math.min(x, y));
            hi = Math.max(hi, Math.max(x, y));
        }
        points.entrySet().stream()
                .limit(Plots.MAX_SERIES - 1)
                .forEach(e -> c.addSeries(
                        e.getKey(),
                        e.getValue().stream().mapToDouble(p -> p[0]).toArray(),
                        e.getValue().stream().mapToDouble(p -> p[1]).toArray()));
        XYSeries line = c.addSeries("predicted = measured", new double[] {lo, hi}, new double[] {lo, hi});
        line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        line.setMarker(SeriesMarkers.NONE);
        return c;
    }
}
