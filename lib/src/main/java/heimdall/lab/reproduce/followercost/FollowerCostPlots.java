package heimdall.lab.reproduce.followercost;

import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Ecdf;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.FollowerCostRow;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;

/** follower-cost's plots: per hook, each row's calls without and with the follower; the added cost per row.
 * Its kind's plots facet ({@link FollowerCostRun#plots}). */
public final class FollowerCostPlots {
    private FollowerCostPlots() {}

    /** follower-cost's plots: per hook, each row's calls without and with the follower; the added cost per row. */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.hasCallSamples()) {
            for (String hook : followerHooks(r)) {
                charts.put("ecdf-" + Charts.slug(hook) + ".png", followerEcdf(r, hook));
            }
        }
        if (r.followerCost().stream().anyMatch(row -> row.figures().addedNs() != null)) {
            charts.put("added-cost.png", followerAdded(r));
        }
        return charts;
    }

    /** follower-cost: the hooks with measured rows, in row order. */
    public static List<String> followerHooks(Results r) {
        List<String> hooks = new ArrayList<>();
        List<FollowerCostRow> rows = r.followerCost();
        for (int i = 0; i < rows.size(); i++) {
            String h = rows.get(i).subject().hook();
            if (h != null && r.hasSamples(i, "with") && !hooks.contains(h)) {
                hooks.add(h);
            }
        }
        return hooks;
    }

    /**
     * follower-cost, one hook: an ECDF per row and variant, without the follower thin and light and with it
     * solid in the row's colour, so each row's shift is read between its two lines.
     */
    public static XYChart followerEcdf(Results r, String hook) {
        List<Integer> rows = new ArrayList<>();
        List<FollowerCostRow> all = r.followerCost();
        for (int i = 0; i < all.size(); i++) {
            if (hook.equals(all.get(i).subject().hook()) && r.hasSamples(i, "with")) {
                rows.add(i);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no samples for hook " + hook);
        }
        List<String> labels = Charts.compactLabels(r, rows);
        List<Charts.Line> lines = new ArrayList<>();
        // past four rows the legend has an entry per row, its "with" line, naming both medians: a row's
        // thin line is found by its colour, and the legend keeps to Plots.MAX_SERIES entries
        boolean pairs = rows.size() * 2 > Plots.MAX_SERIES;
        for (int k = 0; k < rows.size(); k++) {
            Color colour = Charts.PALETTE[k % Charts.PALETTE.length];
            int at = rows.get(k);
            Ecdf without = r.hasSamples(at, "without") ? r.ecdfOf(at, "without") : null;
            for (String v : List.of("without", "with")) {
                if (r.hasSamples(at, v)) {
                    Ecdf e = r.ecdfOf(at, v);
                    String label = labels.get(k) + " · " + v + " follower — " + Charts.quantiles(e);
                    if (pairs && v.equals("with") && without != null) {
                        label = labels.get(k) + " — with: " + Charts.quantiles(e) + "; without: p50 "
                                + Charts.ns(without.median());
                    }
                    lines.add(new Charts.Line(label, e, colour, v.equals("without"), !pairs || v.equals("with")));
                }
            }
        }
        return Charts.ecdfChart(
                "Time per call (ns) without (thin, light) and with (solid) the follower, hook " + hook, lines);
    }

    /** follower-cost: each row's added median (with − without), one dot series per hook. */
    public static CategoryChart followerAdded(Results r) {
        List<String> x = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        for (FollowerCostRow row : r.followerCost()) {
            if (row.figures().addedNs() == null) {
                continue;
            }
            FollowerCostRow.Subject s = row.subject();
            String label = s.measure().label() + " · " + s.process() + " · " + s.call();
            if (!x.contains(label)) {
                x.add(label);
            }
            cells.computeIfAbsent(s.hook(), k -> new LinkedHashMap<>())
                    .put(label, row.figures().addedNs().doubleValue());
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        cells.forEach((hook, byX) -> series.put(hook, x.stream().map(byX::get).toList()));
        return Charts.categoryDots(
                "Added cost per call, ns (median with − median without the follower)", "row", "added (ns)", x, series);
    }
}
