package heimdall.lab.reproduce.floorcost;

import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Ecdf;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.FloorCostRow;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** floor-cost's plots: the call rows' ({@link CallPlots}) and, per answer, the brokered rows' ECDFs and
 * faster round trips. Its kind's plots facet ({@link FloorCostRun#plots}). */
public final class FloorCostPlots {
    private FloorCostPlots() {}

    /**
     * floor-cost's plots: {@link CallPlots#callPlots} and, per answer, the brokered rows' ECDFs and faster round
     * trips.
     */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = CallPlots.callPlots(r);
        List<PairedRoundTrips.Paired> pairs = PairedRoundTrips.pairs(rows(r));
        if (pairs.stream().anyMatch(p -> p.ratio() != null)) {
            charts.put("paired-round-trips.png", pairedRoundTrips(pairs));
        }
        if (r.hasCallSamples()) {
            for (String answer : answers(r)) {
                charts.put("broker-cdf-" + Charts.slug(answer) + ".png", brokerCdf(r, answer));
                if (!fasterRows(r, answer).isEmpty()) {
                    charts.put("broker-faster-" + Charts.slug(answer) + ".png", fasterRoundTrips(r, answer));
                }
            }
        }
        return charts;
    }

    /** The folder's rows as floor-cost rows (a row of another kind: none). */
    private static List<FloorCostRow> rows(Results r) {
        List<FloorCostRow> out = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            FloorCostRow f = CallPlots.floorCost(r, i);
            if (f == null) {
                return List.of();
            }
            out.add(f);
        }
        return out;
    }

    /**
     * The paired round trips ({@link PairedRoundTrips}): a column per supervisor, placement and wake-up, a dot per
     * round (its supervisor's round trip over the loop's, in that round), the median of the rounds as a black
     * diamond and the goal as a red bar.
     */
    public static CategoryChart pairedRoundTrips(List<PairedRoundTrips.Paired> pairs) {
        List<PairedRoundTrips.Paired> shown =
                pairs.stream().filter(p -> p.ratio() != null).toList();
        List<String> columns = shown.stream()
                .map(p -> p.row().supervisor() + " · " + p.row().placement()
                        + (Boolean.TRUE.equals(p.row().syncWakeup()) ? " · sync" : ""))
                .toList();
        int rounds = shown.stream().mapToInt(p -> p.perRound().length).max().orElse(0);
        // XChart never wraps a title: it stays within the image's width (PlotRulesTest measures it)
        String title = "Round trip over the notify loop's, same round (ratio)";
        CategoryChart c = Charts.rowScatter(
                title + (rounds > Plots.MAX_RUN_LEGEND ? ": " + rounds + " rounds, a colour each" : ""),
                "round trip / loop's, same round",
                shown.size());
        for (int k = 0; k < rounds; k++) {
            List<Double> y = new ArrayList<>();
            for (PairedRoundTrips.Paired p : shown) {
                y.add(k < p.perRound().length ? p.perRound()[k] : null);
            }
            var s = c.addSeries("round " + (k + 1), columns, y);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(Charts.PALETTE[k % Charts.PALETTE.length]);
            s.setShowInLegend(rounds <= Plots.MAX_RUN_LEGEND);
        }
        var median = c.addSeries(
                "median of the rounds",
                columns,
                shown.stream().map(p -> p.ratio().estimate()).toList());
        median.setMarker(SeriesMarkers.DIAMOND);
        median.setMarkerColor(Color.BLACK);
        var goal = c.addSeries(
                "goal",
                columns,
                shown.stream().map(PairedRoundTrips.Paired::goal).toList());
        goal.setMarker(SeriesMarkers.RECTANGLE);
        goal.setMarkerColor(Color.RED);
        c.setXAxisTitle("supervisor · placement · synchronous wake-up");
        c.getStyler().setYAxisDecimalPattern("0.00");
        return c;
    }

    /** The answers of the brokered rows, in row order. */
    public static List<String> answers(Results r) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (CallPlots.brokered(r, i)
                    && !CallPlots.paired(r, i)
                    && CallPlots.floorCost(r, i).answer() != null) {
                out.add(CallPlots.floorCost(r, i).answer());
            }
        }
        return List.copyOf(out);
    }

    /**
     * The broker's latency CDF, default placement (supervisor on its own CPU): one line per brokered
     * row, native supervisors solid and Java ones thin and light in the same colour per floor.
     */
    public static XYChart brokerCdf(Results r) {
        return brokerCdf(r, null);
    }

    /** As {@link #brokerCdf(Results)}, the rows of one answer ({@code continue}, {@code broker}); null: all. */
    public static XYChart brokerCdf(Results r, String answer) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (CallPlots.brokered(r, i)
                    && !CallPlots.paired(r, i)
                    && CallPlots.defaultPlacement(r, i)
                    && (answer == null
                            || answer.equals(CallPlots.floorCost(r, i).answer()))) {
                rows.add(i);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no broker rows (rows with 'supervisor')"
                    + (answer == null ? "" : " answering " + answer));
        }
        return supervisorChart(
                r,
                rows,
                FloorCostRow::what,
                "Brokered call round trip" + (answer == null ? "" : ", answer " + answer)
                        + ": time per call, ECDF (ns)");
    }

    /**
     * Faster round trips for one answer: for each floor that has them, the native supervisor's rows in
     * every placement, with and without the synchronous wake-up, a colour each (at most
     * {@link Plots#MAX_SERIES} lines; the Java supervisor's twins and the host's floor are in the table, and
     * join the chart only while it has room, the host's floor thin and light in its placement's colour).
     */
    public static XYChart fasterRoundTrips(Results r, String answer) {
        List<Integer> rows = fasterRows(r, answer);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no faster round-trip rows answering " + answer);
        }
        List<Integer> nativeRows = new ArrayList<>();
        List<Integer> others = new ArrayList<>();
        for (int i : rows) {
            if (!r.hasSamples(i, "filtered")) {
                continue;
            }
            (CallPlots.brokered(r, i)
                                    && !"java".equals(CallPlots.floorCost(r, i).supervisor())
                            ? nativeRows
                            : others)
                    .add(i);
        }
        List<Integer> shown = new ArrayList<>(nativeRows.subList(0, Math.min(Plots.MAX_SERIES, nativeRows.size())));
        // the host's floor (reference rows) for scale while there is room; the Java twins are left to the table
        for (int i : others) {
            if (shown.size() < Plots.MAX_SERIES && CallPlots.reference(r, i)) {
                shown.add(i);
            }
        }
        if (shown.isEmpty()) {
            throw new IllegalArgumentException("rows " + rows + " have no samples in " + r.dir());
        }
        List<String> labels = Charts.compactLabels(r, shown);
        Map<String, Color> colours = new LinkedHashMap<>();
        List<Charts.Line> lines = new ArrayList<>();
        for (int k = 0; k < shown.size(); k++) {
            int i = shown.get(k);
            FloorCostRow row = CallPlots.floorCost(r, i);
            boolean ref = CallPlots.reference(r, i);
            // a colour per placement and wake-up: the host's floor shares its placement's colour, thin
            String key = ref ? row.placement() + "/false" : row.placement() + "/" + row.syncWakeup();
            Color c = colours.computeIfAbsent(key, x -> Charts.PALETTE[colours.size() % Charts.PALETTE.length]);
            Ecdf e = r.ecdfOf(i, "filtered");
            // the thin line's legend entry says what it is: the title has no room left for it
            String thin = ref ? " (thin: the host's floor)" : "";
            lines.add(new Charts.Line(labels.get(k) + thin + " — " + Charts.quantiles(e), e, c, ref));
        }
        // XChart never wraps a title: it stays within the image's width (PlotRulesTest measures it)
        String left = shown.size() < rows.size() ? "; more rows in the table" : "";
        return Charts.ecdfChart(
                "Faster round trips, answer " + answer + ", native supervisor: time per call (ns), ECDF" + left, lines);
    }

    public static List<Integer> fasterRows(Results r, String answer) {
        Set<Object> floors = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (CallPlots.brokered(r, i)
                    && !CallPlots.paired(r, i)
                    && !CallPlots.defaultPlacement(r, i)
                    && answer.equals(CallPlots.floorCost(r, i).answer())) {
                floors.add(CallPlots.floorCost(r, i).what());
            }
        }
        List<Integer> rows = new ArrayList<>();
        Set<Object> placements = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (CallPlots.brokered(r, i)
                    && floors.contains(CallPlots.floorCost(r, i).what())
                    && answer.equals(CallPlots.floorCost(r, i).answer())) {
                rows.add(i);
                placements.add(CallPlots.floorCost(r, i).placement());
            }
        }
        // The host's floor in the same placements, for scale (dotted).
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (!rows.isEmpty()
                    && CallPlots.reference(r, i)
                    && !CallPlots.paired(r, i)
                    && placements.contains(CallPlots.floorCost(r, i).placement())) {
                rows.add(i);
            }
        }
        return rows;
    }

    /**
     * Brokered rows as ECDFs: colour by {@code colourBy} (the floor, or placement and wake-up), line style by
     * supervisor.
     */
    public static XYChart supervisorChart(
            Results r, List<Integer> rows, Function<FloorCostRow, String> colourBy, String title) {
        List<String> labels = Charts.compactLabels(r, rows);
        Map<String, Color> colours = new LinkedHashMap<>();
        List<Charts.Line> lines = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            int i = rows.get(k);
            if (!r.hasSamples(i, "filtered")) {
                continue;
            }
            FloorCostRow row = CallPlots.floorCost(r, i);
            String key = colourBy.apply(row);
            Color c = colours.computeIfAbsent(key, x -> Charts.PALETTE[colours.size() % Charts.PALETTE.length]);
            Ecdf e = r.ecdfOf(i, "filtered");
            lines.add(new Charts.Line(
                    labels.get(k) + " — " + Charts.quantiles(e), e, c, "java".equals(row.supervisor())));
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("rows " + rows + " have no samples in " + r.dir());
        }
        // Legend order: by colour (floor or placement), native before Java, so twins sit together.
        List<Color> order = List.copyOf(colours.values());
        lines.sort(Comparator.comparingInt((Charts.Line l) -> order.indexOf(l.colour()))
                .thenComparing(Charts.Line::thin));
        // the title names the thin lines only when the chart has some
        return Charts.ecdfChart(
                title + (lines.stream().anyMatch(Charts.Line::thin) ? " (thin, light: Java supervisor)" : ""), lines);
    }
}
