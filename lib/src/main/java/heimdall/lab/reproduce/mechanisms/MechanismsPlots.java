package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.MechanismsRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.knowm.xchart.internal.chartpart.Chart;

/** mechanisms' plots: the added cost of each call by mechanism, Landlock beside the floor, and beside the broker. */
final class MechanismsPlots {
    private MechanismsPlots() {}

    /** The series of the broker chart: at most {@link Plots#MAX_SERIES}. */
    private static final List<String> BROKER_SERIES = List.of(
            "landlock",
            "broker · native continue",
            "broker · native broker",
            "broker · java continue",
            "broker · java broker",
            "floor + broker · native broker",
            "broker + landlock · native continue");

    static Map<String, Chart<?, ?>> of(Results r) {
        List<MechanismsRow> rows = r.rows(MechanismsRow.class);
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        // Landlock's admitted openat at each depth beside the same call with nothing (thin): 6 lines
        List<Integer> landlock = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (r.row(i) instanceof MechanismsRow m
                    && m.mechanism().equals(Mechanisms.LANDLOCK)
                    && m.call().equals("openat")
                    && m.policy().equals("admit")
                    && r.hasSamples(i, "filtered")) {
                landlock.add(i);
            }
        }
        if (r.hasCallSamples() && !landlock.isEmpty()) {
            charts.put(
                    "distribution-landlock-openat.png",
                    CallPlots.distribution(
                            r, new Plots.Group("landlock-openat", "Landlock, openat admitted by depth", landlock)));
        }
        if (rows.stream().anyMatch(x -> x.addedNs() != null)) {
            charts.put(
                    "added-landlock-floor.png",
                    chart(
                            rows,
                            x -> x.broker() == null,
                            List.of("landlock", "floor", "floor + landlock"),
                            "Added cost per call, ns: Landlock and the static floor (median − median with nothing)"));
            charts.put(
                    "added-broker.png",
                    chart(
                            rows,
                            x -> x.call().equals("openat"),
                            BROKER_SERIES,
                            "Added cost per openat, ns: Landlock beside the broker (values ≤ 0 not drawn)"));
        }
        return charts;
    }

    private static Chart<?, ?> chart(
            List<MechanismsRow> rows, Predicate<MechanismsRow> which, List<String> names, String title) {
        List<String> x = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        boolean log = names == BROKER_SERIES;
        for (MechanismsRow row : rows) {
            if (!which.test(row) || row.addedNs() == null) {
                continue;
            }
            String series = row.mechanism() + (row.broker() == null ? "" : " · " + row.broker());
            if (!names.contains(series)) {
                continue;
            }
            String col = row.call() + " " + row.policy() + " " + row.depth();
            if (!x.contains(col)) {
                x.add(col);
            }
            double v = row.addedNs();
            cells.computeIfAbsent(series, k -> new LinkedHashMap<>()).put(col, log && v <= 0 ? null : v);
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String n : names) {
            if (cells.containsKey(n)) {
                Map<String, Double> byX = cells.get(n);
                series.put(n, x.stream().map(byX::get).toList());
            }
        }
        return Charts.dots(title, "call, policy's answer, depth (components)", "added (ns)", x, series);
    }
}
