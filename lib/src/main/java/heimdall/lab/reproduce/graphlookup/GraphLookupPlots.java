package heimdall.lab.reproduce.graphlookup;

import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.analysis.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** graph-lookup's (and graph-jmh's) plots: ns per event by layout, in panels past {@link Plots#MAX_SERIES}
 * layouts. Its kinds' plots facet ({@link GraphLookupRun#plots}). */
public final class GraphLookupPlots {
    private GraphLookupPlots() {}

    /** graph-lookup's and graph-jmh's plots: {@link #graphByLayoutPanels}. */
    public static Map<String, Chart<?, ?>> of(Results r) {
        return new LinkedHashMap<>(graphByLayoutPanels(r));
    }

    /**
     * Graph lookups: median ns/event per graph and trace (x), one dot per layout. Refused or missing
     * layouts have no dot. Every layout on one chart: past {@link Plots#MAX_SERIES} layouts,
     * {@link #graphByLayoutPanels}.
     */
    public static CategoryChart graphByLayout(Results r) {
        Table t = graphTable(r);
        return graphByLayout(t, layouts(t), layouts(t), "Graph lookups: ns per event by layout (median of batches)");
    }

    /**
     * {@link #graphByLayout}, at most {@link Plots#MAX_SERIES} layouts a chart: {@code graph-by-layout.png} when
     * they fit, else a panel per family of layouts (the name without its last part: {@code dfa-min-words}
     * is a {@code dfa-min}), each beside the first family ({@code hash}, the baseline the speed-ups are
     * against). Panels share the y axis and a layout keeps its colour on each, so two panels read as one.
     */
    public static Map<String, CategoryChart> graphByLayoutPanels(Results r) {
        Table t = graphTable(r);
        List<String> layouts = layouts(t);
        Map<String, CategoryChart> charts = new LinkedHashMap<>();
        if (layouts.size() <= Plots.MAX_SERIES) {
            charts.put("graph-by-layout.png", graphByLayout(r));
            return charts;
        }
        Map<String, List<String>> families = new LinkedHashMap<>();
        for (String l : layouts) {
            families.computeIfAbsent(l.contains("-") ? l.substring(0, l.lastIndexOf('-')) : l, k -> new ArrayList<>())
                    .add(l);
        }
        String first = families.keySet().iterator().next();
        // a baseline that would crowd out what it is compared with is a family like any other
        List<String> baseline = families.get(first).size() <= Plots.MAX_SERIES / 2 ? families.remove(first) : List.of();
        List<List<String>> panels = Charts.panels(List.copyOf(families.values()), Plots.MAX_SERIES - baseline.size());
        double[] range = graphRange(t, layouts);
        Set<String> slugs = new LinkedHashSet<>();
        for (List<String> panel : panels) {
            List<String> shown = new ArrayList<>(baseline);
            shown.addAll(panel);
            List<String> names = shown.stream()
                    .map(l -> l.contains("-") ? l.substring(0, l.lastIndexOf('-')) : l)
                    .distinct()
                    .toList();
            String slug = Charts.slug(String.join(
                    " ",
                    names.stream()
                            .filter(n -> baseline.isEmpty() || !n.equals(first))
                            .toList()));
            CategoryChart c = graphByLayout(
                    t,
                    shown,
                    layouts,
                    "Graph lookups: ns per event, " + String.join(" and ", names) + " layouts (median of batches)");
            // one y axis for every panel, fitted to all of them: a dot's height compares across panels
            boolean log = range[0] > 0 && range[1] / range[0] > 20;
            c.getStyler().setYAxisLogarithmic(log);
            c.getStyler().setYAxisLogarithmicDecadeOnly(true);
            if (log) {
                Charts.logTicks(c.getStyler(), range[0], range[1]);
            }
            c.setYAxisTitle("ns per event" + (log ? " (log scale)" : ""));
            c.getStyler().setYAxisMin(log ? range[0] : 0.0);
            c.getStyler().setYAxisMax(range[1]);
            charts.put("graph-by-layout-" + Charts.unique(slugs, slug) + ".png", c);
        }
        return charts;
    }

    /** {@link Tables#graphByLayout}; an error when the folder has no graph rows. */
    public static Table graphTable(Results r) {
        Table t = Tables.graphByLayout(r);
        if (t.rowCount() == 0) {
            throw new IllegalArgumentException(r.dir() + " has no graph rows");
        }
        return t;
    }

    /** The layouts of a {@link Tables#graphByLayout} table: its columns after graph and trace. */
    public static List<String> layouts(Table t) {
        return List.copyOf(t.columnNames().subList(2, t.columnCount()));
    }

    /** The smallest and largest median of the given layouts. */
    public static double[] graphRange(Table t, List<String> layouts) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (String layout : layouts) {
            NumericColumn<?> col = t.numberColumn(layout);
            for (int i = 0; i < t.rowCount(); i++) {
                if (!col.isMissing(i)) {
                    lo = Math.min(lo, col.getDouble(i));
                    hi = Math.max(hi, col.getDouble(i));
                }
            }
        }
        return new double[] {lo, hi};
    }

    /** The chart of some layouts' dots, each coloured by its place in {@code colours}. */
    public static CategoryChart graphByLayout(Table t, List<String> layouts, List<String> colours, String title) {
        List<String> x = new ArrayList<>();
        StringColumn g = t.stringColumn("graph");
        StringColumn tr = t.stringColumn("trace");
        for (int i = 0; i < t.rowCount(); i++) {
            x.add(tr.get(i).isEmpty() ? g.get(i) : g.get(i) + " / " + tr.get(i));
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String layout : layouts) {
            NumericColumn<?> col = t.numberColumn(layout);
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < t.rowCount(); i++) {
                y.add(col.isMissing(i) ? null : col.getDouble(i)); // missing: not measured (or refused)
            }
            series.put(layout, y);
        }
        return Charts.categoryDots(title, "graph / trace", "ns per event", x, series, colours);
    }
}
