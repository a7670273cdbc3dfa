package heimdall.lab.analysis;

import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.MeasuredCallRow;
import heimdall.lab.results.ResultRow;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plots of rows that time calls one by one (floor-cost, host-load, attach-cost, kernel-bitmap, mechanisms):
 * the distributions per floor group or per variant ({@link #floorGroups}), and the run medians per section
 * ({@link #sections}). A floor-cost folder has some thirty rows, too many for one readable chart, so the plots
 * come per {@link Plots.Group}: the rows under one floor, the brokered rows of one answer.
 */
public final class CallPlots {
    private CallPlots() {}

    /**
     * The plots of rows that time calls one by one (floor-cost, host-load, attach-cost, kernel-bitmap):
     * the distributions per floor group or per variant, and the run medians per section.
     */
    public static Map<String, Chart<?, ?>> callPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        // samples.arrow, or without it (a committed folder) the compact distributions.json
        boolean samples = r.hasCallSamples();
        if (samples && r.variants().contains("filtered")) {
            for (Plots.Group g : floorGroups(r)) {
                if (g.rows().stream().anyMatch(i -> r.hasSamples(i, "filtered"))) {
                    charts.put("distribution-" + g.slug() + ".png", distribution(r, g));
                }
            }
        } else if (samples) {
            // A reproduction with variants of its own (per-call, attach, fork): one chart per variant.
            for (String variant : r.variants()) {
                charts.put("distribution-" + Charts.slug(variant) + ".png", distributionOf(r, variant));
            }
        }
        for (Plots.Group g : sections(r)) {
            if (g.rows().stream().anyMatch(i -> !runMediansOf(r.row(i)).isEmpty())) {
                charts.put("run-medians-" + g.slug() + ".png", runMedians(r, g));
            }
        }
        return charts;
    }

    /** Row {@code i} when it is a floor-cost row, else null. */
    public static FloorCostRow floorCost(Results r, int i) {
        return r.row(i) instanceof FloorCostRow f ? f : null;
    }

    /** Whether row {@code i} is brokered (has a supervisor). */
    public static boolean brokered(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f != null && f.brokered();
    }

    /** Whether row {@code i} is a round-trip floor (a pipe ping-pong in a supervisor's placement). */
    public static boolean reference(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f != null && f.isReference();
    }

    /** Whether row {@code i} is one of floor-cost's paired round trips (their own chart shows them). */
    public static boolean paired(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f != null && f.paired();
    }

    /** Whether a brokered row runs the default way: supervisor on its own CPU, no synchronous wake-up. */
    public static boolean defaultPlacement(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f == null || f.defaultPlacement();
    }

    /** What a row measures (its floor, configuration or check), or null for rows without one (graph, lanes). */
    public static String whatOf(ResultRow row) {
        if (row instanceof MeasuredCallRow m) {
            return m.what();
        } else if (row instanceof KernelBitmapRow k) {
            return k.what();
        } else if (row instanceof AttachCostRow a) {
            return a.what();
        }
        return null;
    }

    /** The call a row times, or null. */
    public static String callOf(ResultRow row) {
        if (row instanceof MeasuredCallRow m) {
            return m.call();
        } else if (row instanceof AttachCostRow a) {
            return a.call();
        }
        return null;
    }

    /**
     * A row's per-run medians ({@code run_medians_ns}: floor, broker, load and kernel-bitmap configuration rows); empty
     * when it has none.
     */
    public static List<Double> runMediansOf(ResultRow row) {
        if (row instanceof MeasuredCallRow m) {
            return Charts.doubles(m.runMediansNs());
        } else if (row instanceof KernelBitmapRow.Configuration c) {
            return Charts.doubles(c.runMediansNs());
        }
        return List.of();
    }

    /** A row's per-run medians with no filter ({@code run_medians_none_ns}); empty when it has none. */
    public static List<Double> runMediansNoneOf(ResultRow row) {
        return row instanceof MeasuredCallRow m ? Charts.doubles(m.runMediansNoneNs()) : List.of();
    }

    /**
     * The rows that are not brokered, grouped by {@code what} (the floor), in row order; neighbouring
     * floors of one row each share a group (rows 7–9 of the floor-cost table: three answers and
     * stacked).
     */
    public static List<Plots.Group> floorGroups(Results r) {
        List<List<Integer>> byWhat = new ArrayList<>();
        Map<Object, List<Integer>> index = new LinkedHashMap<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (brokered(r, i) || paired(r, i)) {
                continue;
            }
            Object what = whatOf(r.row(i));
            List<Integer> g = index.get(what);
            if (g == null) {
                g = new ArrayList<>();
                index.put(what, g);
                byWhat.add(g);
            }
            g.add(i);
        }
        List<List<Integer>> merged = new ArrayList<>();
        for (List<Integer> g : byWhat) {
            List<Integer> last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            boolean lastSingles = last != null
                    && last.size() < 4
                    && last.stream().map(i -> whatOf(r.row(i))).distinct().count() == last.size();
            if (g.size() == 1 && lastSingles) {
                last.addAll(g);
            } else {
                merged.add(new ArrayList<>(g));
            }
        }
        // A group past the legend's room (its rows and each distinct no-filter baseline, Plots.MAX_SERIES in all) is
        // drawn as parts, each a chart of its own: its rows split by baseline (floor-cost's notify loop traps gettid
        // and openat, each with its own baseline), and each of those into even parts of at most Plots.MAX_SERIES - 1
        // rows (one baseline each).
        List<List<Integer>> parts = new ArrayList<>();
        List<String> partNames = new ArrayList<>();
        for (List<Integer> g : merged) {
            List<List<Integer>> split = fitLegend(r, g);
            for (int k = 0; k < split.size(); k++) {
                parts.add(split.get(k));
                partNames.add(split.size() == 1 ? "" : (k + 1) + " of " + split.size());
            }
        }
        List<Plots.Group> out = new ArrayList<>();
        Set<String> slugs = new LinkedHashSet<>();
        for (int p = 0; p < parts.size(); p++) {
            List<Integer> g = parts.get(p);
            String part = partNames.get(p);
            List<String> whats = g.stream()
                    .map(i -> whatOf(r.row(i)) == null ? "row " + i : whatOf(r.row(i)))
                    .distinct()
                    .toList();
            // Merged single-row floors: the legend names each; the title only what kinds they are.
            String title = whats.size() == 1
                    ? whats.get(0)
                    : String.join(
                                    " and ",
                                    whats.stream()
                                            .map(w -> w.split(",")[0].trim())
                                            .distinct()
                                            .toList()) + " floors";
            String slug = whats.size() == 1
                    ? Charts.slug(whats.get(0))
                    : Charts.slug(String.join(
                            " ",
                            whats.stream()
                                    .map(w -> w.split(",")[0].trim())
                                    .distinct()
                                    .toList()));
            if (!part.isEmpty()) {
                title = title + " (" + part + ")";
                slug = slug + "-" + part.substring(0, part.indexOf(' '));
            }
            out.add(new Plots.Group(Charts.unique(slugs, slug), title, List.copyOf(g)));
        }
        return out;
    }

    /** {@code g} whole when its rows and their distinct baselines fit one legend; else parts that each do. */
    private static List<List<Integer>> fitLegend(Results r, List<Integer> g) {
        Map<Integer, List<Integer>> byBaseline = new LinkedHashMap<>(); // -1: rows with no baseline drawn
        for (int i : g) {
            int b = r.hasSamples(r.baselineRow(i), "none") ? r.baselineRow(i) : -1;
            byBaseline.computeIfAbsent(b, k -> new ArrayList<>()).add(i);
        }
        int legend = g.size()
                + (int) byBaseline.keySet().stream().filter(b -> b >= 0).count();
        if (legend <= Plots.MAX_SERIES) {
            return List.of(g);
        }
        List<List<Integer>> parts = new ArrayList<>();
        int room = Plots.MAX_SERIES - 1;
        for (List<Integer> rows : byBaseline.values()) {
            int n = (rows.size() + room - 1) / room;
            int each = (rows.size() + n - 1) / n; // even parts: 8 rows as 4 and 4, not 7 and 1
            for (int from = 0; from < rows.size(); from += each) {
                parts.add(rows.subList(from, Math.min(rows.size(), from + each)));
            }
        }
        return parts;
    }

    /**
     * Rows by kind: {@code floors} (not brokered), {@code broker} (brokered, default placement),
     * {@code faster} (brokered, other placements or the synchronous wake-up); empty ones left out.
     */
    public static List<Plots.Group> sections(Results r) {
        List<Integer> floors = new ArrayList<>();
        List<Integer> broker = new ArrayList<>();
        List<Integer> faster = new ArrayList<>();
        List<Integer> references = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (paired(r, i)) {
                continue;
            }
            (reference(r, i) ? references : !brokered(r, i) ? floors : defaultPlacement(r, i) ? broker : faster).add(i);
        }
        List<Plots.Group> out = new ArrayList<>();
        if (!floors.isEmpty()) {
            // kernel-bitmap's rows are the selftest's configurations (section "configuration"), not floors.
            boolean configurations = floors.stream().anyMatch(i -> r.row(i) instanceof KernelBitmapRow.Configuration);
            out.add(
                    configurations
                            ? new Plots.Group("configurations", "configurations", floors)
                            : new Plots.Group("floors", "floors", floors));
        }
        if (!broker.isEmpty()) {
            out.add(new Plots.Group("broker", "brokered calls (supervisor on its own CPU)", broker));
        }
        if (!faster.isEmpty()) {
            out.add(new Plots.Group("faster", "faster round trips", faster));
        }
        if (!references.isEmpty()) {
            out.add(new Plots.Group(
                    "round-trip-floor", "the host's round-trip floor (pipe ping-pong, no seccomp)", references));
        }
        return out;
    }

    /**
     * Every floor-style row's samples (with the floor) as ECDFs on one chart: fine for a handful of
     * rows; a whole floor-cost folder reads better per {@link #floorGroups group}.
     */
    public static XYChart distribution(Results r) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (!brokered(r, i)) {
                rows.add(i);
            }
        }
        return distribution(r, new Plots.Group("floors", "every floor row", rows));
    }

    /** One row's samples with and without the filter, as two ECDFs. */
    public static XYChart distribution(Results r, int row) {
        if (!r.hasSamples(row, "filtered")) {
            throw new IllegalArgumentException("row " + row + " has no samples in " + r.dir());
        }
        List<Charts.Line> lines = new ArrayList<>();
        lines.add(new Charts.Line("filtered", r.ecdfOf(row, "filtered"), Charts.PALETTE[0], false));
        if (r.hasSamples(r.baselineRow(row), "none")) {
            lines.add(new Charts.Line("no filter", r.ecdfOf(r.baselineRow(row), "none"), Charts.PALETTE[0], true));
        }
        return Charts.ecdfChart(
                "Time per call (ns): " + r.label(row) + (lines.size() > 1 ? " (thin, light: no filter)" : ""), lines);
    }

    /**
     * A group's rows as ECDFs of their samples with the floor (solid), each beside the same call with
     * no filter (thin and light, same colour; a baseline shared by several rows is drawn once). The horizontal
     * gap between a solid line and its thin twin is the floor's added cost.
     */
    public static XYChart distribution(Results r, Plots.Group g) {
        List<String> labels = Charts.compactLabels(r, g.rows());
        List<Charts.Line> lines = new ArrayList<>();
        Map<Integer, Color> baselines = new LinkedHashMap<>();
        int colour = 0;
        for (int k = 0; k < g.rows().size(); k++) {
            int i = g.rows().get(k);
            if (!r.hasSamples(i, "filtered")) {
                continue;
            }
            Color c = Charts.PALETTE[colour++ % Charts.PALETTE.length];
            Ecdf e = r.ecdfOf(i, "filtered");
            lines.add(new Charts.Line(labels.get(k) + " — " + Charts.quantiles(e), e, c, false));
            baselines.putIfAbsent(r.baselineRow(i), c);
        }
        for (var b : baselines.entrySet()) {
            if (r.hasSamples(b.getKey(), "none")) {
                Ecdf e = r.ecdfOf(b.getKey(), "none");
                String call = callOf(r.row(b.getKey()));
                lines.add(new Charts.Line(
                        (call == null ? "" : call + ", ") + "no filter — " + Charts.quantiles(e),
                        e,
                        b.getValue(),
                        true));
            }
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("rows " + g.rows() + " have no samples in " + r.dir());
        }
        String twins = lines.stream().anyMatch(Charts.Line::thin) ? " (thin, light: no filter)" : "";
        return Charts.ecdfChart("Time per call (ns): " + g.title() + twins, lines);
    }

    /**
     * Every row's samples of one variant as ECDFs, for reproductions whose variants are their own
     * ({@code per-call}, {@code attach}, {@code fork}): one line per row that has them.
     */
    public static XYChart distributionOf(Results r, String variant) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (r.hasSamples(i, variant)) {
                rows.add(i);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(r.dir() + " has no '" + variant + "' samples");
        }
        List<String> labels = Charts.compactLabels(r, rows);
        List<Charts.Line> lines = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            Ecdf e = r.ecdfOf(rows.get(k), variant);
            lines.add(new Charts.Line(
                    labels.get(k) + " — " + Charts.quantiles(e), e, Charts.PALETTE[k % Charts.PALETTE.length], false));
        }
        return Charts.ecdfChart("Time per call (ns), samples '" + variant + "': ECDF", lines);
    }

    /**
     * Per-run medians of every row: readable up to about a dozen rows; use
     * {@link #runMedians(Results, Plots.Group)} per {@link #sections section} for a whole folder.
     */
    public static CategoryChart runMedians(Results r) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            all.add(i);
        }
        return runMedians(r, new Plots.Group("all", "every row", all));
    }

    /**
     * Per-run medians of a group's rows: one column per row (labelled with its {@code row} number and
     * what sets it apart), one dot per run in that run's colour — runs are interleaved across rows, so
     * a colour high in every column is a burst of host load, a column whose dots scatter is a row
     * whose runs disagree (see the table's spread) — and a grey diamond: the median of the same call
     * with no filter.
     */
    public static CategoryChart runMedians(Results r, Plots.Group g) {
        return runValues(
                r,
                g,
                CallPlots::runMediansOf,
                CallPlots::runMediansNoneOf,
                "Per-run medians (ns): " + g.title(),
                "run median (ns)");
    }

    /**
     * {@link #runValues(Results, Plots.Group, Function, Function, String, String)} for rows of one type: the
     * lists of the group's rows that are {@code type}s ({@code AttachCostRow.class,
     * row -> row.attach().runMediansNs()}); {@code noneValues} may be null.
     */
    public static <T extends ResultRow> CategoryChart runValues(
            Results r,
            Plots.Group g,
            Class<T> type,
            Function<? super T, ? extends List<? extends Number>> values,
            Function<? super T, ? extends List<? extends Number>> noneValues,
            String title,
            String yTitle) {
        Function<ResultRow, List<? extends Number>> f =
                row -> type.isInstance(row) ? values.apply(type.cast(row)) : List.of();
        Function<ResultRow, List<? extends Number>> n =
                noneValues == null ? null : row -> type.isInstance(row) ? noneValues.apply(type.cast(row)) : List.of();
        return runValues(r, g, f, n, title, yTitle);
    }

    /**
     * One value per run of each row of a group, from a typed row's list ({@code values}, e.g.
     * {@code runMediansNs}, {@code batchRunNsPerCall}, {@code attachRunMediansNs}): a column per row, a
     * dot per run in that run's colour, and a grey diamond for the median of {@code noneValues}' values
     * (the same call with no filter) where the row has them (null: none). Rows without values are left out.
     */
    public static CategoryChart runValues(
            Results r,
            Plots.Group g,
            Function<ResultRow, ? extends List<? extends Number>> values,
            Function<ResultRow, ? extends List<? extends Number>> noneValues,
            String title,
            String yTitle) {
        Function<Integer, List<Double>> field = i -> Charts.doubles(values.apply(r.row(i)));
        Function<Integer, List<Double>> noneField =
                noneValues == null ? i -> List.of() : i -> Charts.doubles(noneValues.apply(r.row(i)));
        List<Integer> rows = g.rows().stream()
                .filter(i -> !field.apply(i).isEmpty() || !noneField.apply(i).isEmpty())
                .toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "rows " + g.rows() + " have no values for '" + title + "' in " + r.dir());
        }
        List<String> categories = rowCategories(r, rows);
        CategoryChart c = Charts.rowScatter(title, yTitle, rows.size());
        int runs = rows.stream().mapToInt(i -> field.apply(i).size()).max().orElse(0);
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (int run = 0; run < runs; run++) {
            List<Double> y = new ArrayList<>();
            for (int i : rows) {
                List<Double> f = field.apply(i);
                Double v = run < f.size() ? f.get(run) : null;
                y.add(v);
                if (v != null) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            var s = c.addSeries("run " + (run + 1), categories, y);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(Charts.PALETTE[run % Charts.PALETTE.length]);
            // Past a dozen runs the legend no longer fits the chart's height; the colours still pair a run's dots.
            s.setShowInLegend(runs <= Plots.MAX_RUN_LEGEND);
        }
        if (runs > Plots.MAX_RUN_LEGEND) {
            c.setTitle(title + " (" + runs + " runs, a colour each)");
        }
        double runLo = lo;
        double runHi = hi;
        List<Double> none = new ArrayList<>();
        boolean anyNone = false;
        for (int i : rows) {
            List<Double> n = noneField.apply(i);
            Double v = n.isEmpty() ? null : Stats.median(n);
            none.add(v);
            if (v != null) {
                anyNone = true;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        // The run dots are the point: a no-filter diamond far below them (a brokered call is a hundred
        // times its bare call) would force a log axis that squashes their spread, so it is then left out
        // and its values named in the title instead.
        boolean noneFits = anyNone
                && (runs == 0
                        || noneLo(none) > 0
                                && runHi / Math.min(runLo, noneLo(none)) <= 20
                                && Math.max(runHi, noneHi(none)) / runLo <= 20);
        if (anyNone && noneFits) {
            var s = c.addSeries("no filter (median of its runs)", categories, none);
            s.setMarker(SeriesMarkers.DIAMOND);
            s.setMarkerColor(Color.GRAY);
        } else if (anyNone) {
            String range = noneLo(none) == noneHi(none)
                    ? Charts.ns(noneLo(none))
                    : Charts.ns(noneLo(none)) + "–" + Charts.ns(noneHi(none));
            c.setXAxisTitle("row (the same call with no filter: " + range + ", below this axis)");
            lo = runLo;
            hi = runHi;
        }
        // the order-statistic interval of each row's median run, where it has two runs or more
        List<Double> mid = new ArrayList<>();
        List<Double> half = new ArrayList<>();
        List<Double> lows = new ArrayList<>();
        List<Double> highs = new ArrayList<>();
        boolean anyInterval = false;
        double confidence = 1;
        for (int i : rows) {
            List<Double> f = field.apply(i);
            if (f.size() >= 2) {
                double[] v = f.stream().mapToDouble(Double::doubleValue).toArray();
                Interval iv = OrderStatistics.overRuns(Stats.median(f), v, Intervals.LEVEL);
                mid.add((iv.low() + iv.high()) / 2);
                half.add((iv.high() - iv.low()) / 2);
                lows.add(iv.low());
                highs.add(iv.high());
                confidence = Math.min(confidence, iv.confidence());
                anyInterval = true;
            } else {
                mid.add(null);
                half.add(0.0);
                lows.add(null);
                highs.add(null);
            }
        }
        boolean logAxis = lo > 0 && hi / lo > 20;
        if (anyInterval && (logAxis || mid.contains(null))) {
            // XChart draws error bars wrong on a log axis, and fails on a row without one (a null middle):
            // the interval's ends as triangles instead
            var low = c.addSeries("interval low", categories, lows);
            low.setMarker(SeriesMarkers.TRIANGLE_UP);
            low.setMarkerColor(Color.BLACK);
            low.setShowInLegend(false);
            var high = c.addSeries("interval high", categories, highs);
            high.setMarker(SeriesMarkers.TRIANGLE_DOWN);
            high.setMarkerColor(Color.BLACK);
            high.setShowInLegend(false);
            c.setYAxisTitle(c.getYAxisTitle()
                    + String.format(Locale.ROOT, "; ▲▼: %.0f%% CI", 100 * Math.min(confidence, Intervals.LEVEL)));
        } else if (anyInterval) {
            // drawn as a bar about the interval's middle: XChart's error bars are symmetric
            var s = c.addSeries("interval of the median run", categories, mid, half);
            s.setMarker(SeriesMarkers.NONE);
            s.setMarkerColor(Color.BLACK);
            // out of the legend (the runs fill it): the axis' title says what the bars are
            s.setShowInLegend(false);
            c.setYAxisTitle(c.getYAxisTitle()
                    + String.format(Locale.ROOT, "; bar: %.0f%% CI", 100 * Math.min(confidence, Intervals.LEVEL)));
        }
        c.getStyler().setErrorBarsColor(Color.BLACK);
        if (runs == 0 && !anyNone) {
            throw new IllegalArgumentException("rows " + rows + " have no run medians in " + r.dir());
        }
        if (runs > Plots.MAX_RUN_LEGEND && !anyNone) {
            c.getStyler().setLegendVisible(false); // every series is out of the legend: no empty box
        }
        if (logAxis) {
            c.getStyler().setYAxisLogarithmic(true);
            Charts.logTicks(c.getStyler(), lo, hi);
            String y = c.getYAxisTitle();
            c.setYAxisTitle(
                    y.startsWith(yTitle) && yTitle.endsWith(")")
                            ? yTitle.substring(0, yTitle.length() - 1) + ", log scale)" + y.substring(yTitle.length())
                            : y + " (log scale)");
        } else if (hi > lo) {
            // a linear axis fitted to the values, not from zero: the spread between runs is what it shows
            double pad = (hi - lo) * 0.08;
            c.getStyler().setYAxisMin(Math.max(0, lo - pad));
            c.getStyler().setYAxisMax(hi + pad);
        }
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    public static double noneLo(List<Double> none) {
        return none.stream()
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .min()
                .orElse(0);
    }

    public static double noneHi(List<Double> none) {
        return none.stream()
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
    }

    /** A column label per row: its number and what sets it apart from the others. */
    public static List<String> rowCategories(Results r, List<Integer> rows) {
        List<String> labels =
                Charts.distinctLabels(Charts.shortParts(r, rows, Charts.MAX_COLUMN_LABEL), Charts.MAX_COLUMN_LABEL);
        List<String> categories = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            categories.add(rows.get(k) + ": " + labels.get(k));
        }
        return categories;
    }
}
