package heimdall.lab.analysis;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The chart kit every family of plots is built with: the palette, markers and style, labels cut to fit
 * ({@link #shortParts}, {@link #distinctLabels}, {@link #compactLabels}), ECDF charts ({@link #ecdfChart}),
 * dot and grid charts of one figure per row, panels of a few series each ({@link #panels}), slugs for file
 * names. Knows no kind of row: the kinds' families (in their packages) and {@link CallPlots} use it.
 */
public final class Charts {
    private Charts() {}

    /** Line colours: distinct, readable on white, in the order series are added. */
    public static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
        new Color(0xff7f0e), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22)
    };

    /** Numbers as doubles, in a new list; empty for null (a field the row does not have). */
    public static List<Double> doubles(List<? extends Number> values) {
        List<Double> out = new ArrayList<>();
        if (values != null) {
            for (Number n : values) {
                out.add(n == null ? null : n.doubleValue());
            }
        }
        return out;
    }

    /**
     * Each row's label parts without those every row shares, and, while a label is longer than
     * {@code width}, without a further part whose loss leaves every label different from the others
     * (the floor's description where its short name says the same), first parts first.
     */
    public static List<String> shortParts(Results r, List<Integer> rows, int width) {
        return shortParts(rows.stream().map(r::labelParts).toList(), width);
    }

    /** {@link #shortParts(Results, List, int)} of labels given as their parts (not modified). */
    public static List<String> shortParts(List<List<String>> labelParts, int width) {
        List<List<String>> parts = new ArrayList<>();
        for (List<String> p : labelParts) {
            parts.add(new ArrayList<>(p));
        }
        if (parts.size() > 1) {
            Set<String> common = new LinkedHashSet<>(parts.get(0));
            parts.forEach(common::retainAll);
            parts.forEach(p -> p.removeIf(x -> common.contains(x) && p.size() > 1));
        }
        Function<List<List<String>>, List<String>> join =
                ps -> ps.stream().map(p -> String.join(" · ", p)).toList();
        Set<String> tried = new LinkedHashSet<>();
        while (join.apply(parts).stream().anyMatch(l -> l.length() > width)) {
            String drop = null;
            // the longest parts first: a floor's description goes before its short name
            List<String> candidates = parts.stream()
                    .flatMap(List::stream)
                    .distinct()
                    .sorted(Comparator.comparingInt(String::length).reversed())
                    .toList();
            for (List<String> p : List.of(candidates)) {
                for (String x : p) {
                    if (drop == null && !tried.contains(x)) {
                        List<List<String>> without = parts.stream()
                                .map(q -> q.stream().filter(y -> !y.equals(x)).toList())
                                .toList();
                        List<String> joined = join.apply(without);
                        boolean apart = new LinkedHashSet<>(joined).size() == joined.size();
                        if (without.stream().noneMatch(List::isEmpty) && apart) {
                            drop = x;
                        }
                        tried.add(x);
                    }
                }
            }
            if (drop == null) {
                break;
            }
            String d = drop;
            parts.forEach(p -> p.remove(d));
        }
        return join.apply(parts);
    }

    /** The longest column label (after its row number) the rotated axis has room for. */
    public static final int MAX_COLUMN_LABEL = 44;

    /**
     * Labels that fit {@code width} and still tell rows apart: the words every label begins with are
     * dropped first, then a label still too long loses the middle of its first part, never its last
     * parts (the placement, the wake-up: what sets the rows of a section apart).
     */
    public static List<String> distinctLabels(List<String> labels, int width) {
        if (labels.stream().allMatch(l -> l.length() <= width)) {
            return labels;
        }
        String prefix = labels.get(0);
        for (String l : labels) {
            int n = 0;
            while (n < prefix.length() && n < l.length() && prefix.charAt(n) == l.charAt(n)) {
                n++;
            }
            prefix = prefix.substring(0, n);
        }
        int cut = labels.size() > 1 ? Math.max(prefix.lastIndexOf(' '), prefix.lastIndexOf(',')) + 1 : 0;
        List<String> out = new ArrayList<>();
        for (String l : labels) {
            String t = (cut > 0 ? "…" : "") + l.substring(cut).strip();
            if (t.length() > width) {
                int sep = t.indexOf(" · ");
                String head = sep < 0 ? t : t.substring(0, sep);
                String tail = sep < 0 ? "" : t.substring(sep);
                int room = width - tail.length() - 1;
                if (room >= 6 && head.length() > room) {
                    // keep the head's start and end: "pipe ping-pong then openat" → "pipe pi…n openat"
                    head = head.substring(0, room / 2) + "…" + head.substring(head.length() - (room - room / 2));
                    t = head + tail;
                } else if (room < 6) {
                    t = "…" + t.substring(t.length() - (width - 1));
                }
            }
            out.add(t);
        }
        return out;
    }

    /** An empty scatter chart with a column per row, dots of the same column overlapping. */
    public static CategoryChart rowScatter(String title, String yTitle, int rows) {
        // Taller than the others: the rotated row labels need the room.
        CategoryChart c = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(rows > 4 ? Plots.HEIGHT + 180 : Plots.HEIGHT)
                .title(title)
                .xAxisTitle("row")
                .yAxisTitle(yTitle)
                .build();
        style(c);
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(9);
        c.getStyler().setOverlapped(true);
        // Upright labels collide past four rows; at 90° XChart centres each on its column (slanted ones drift right).
        c.getStyler().setXAxisLabelRotation(rows > 4 ? 90 : 0);
        c.getStyler()
                .setAxisTickLabelsFont(c.getStyler().getAxisTickLabelsFont().deriveFont(10f));
        c.getStyler().setLegendFont(c.getStyler().getLegendFont().deriveFont(11f));
        return c;
    }

    /**
     * Rows arranged as a grid: a column per distinct {@code x} (e.g. lanes' workers), a dot series per
     * distinct {@code series} (e.g. the variant), the dot at {@code y} (e.g. the median wall time);
     * rows with any of the three null are left out.
     */
    public static <T> CategoryChart grid(
            List<T> rows,
            Function<T, ?> xOf,
            Function<T, ?> seriesOf,
            Function<T, ? extends Number> yOf,
            String xTitle,
            String title,
            String yTitle) {
        List<String> x = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        for (T row : rows) {
            Object xv0 = xOf.apply(row);
            Object sv = seriesOf.apply(row);
            Number v = yOf.apply(row);
            if (xv0 == null || sv == null || v == null) {
                continue;
            }
            String xv = String.valueOf(xv0);
            if (!x.contains(xv)) {
                x.add(xv);
            }
            cells.computeIfAbsent(String.valueOf(sv), k -> new LinkedHashMap<>())
                    .put(xv, v.doubleValue());
        }
        if (x.isEmpty()) {
            throw new IllegalArgumentException("no rows with " + xTitle + ", a series and a value for '" + title + "'");
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        cells.forEach((name, byX) -> series.put(name, x.stream().map(byX::get).toList()));
        return categoryDots(title, xTitle, yTitle, x, series);
    }

    /**
     * Dots by category, one series each (null: no dot), the project's style; a log y axis where the values span
     * more than a factor of 20 and are all positive. For a kind's own plots ({@code reproduce.<kind>}).
     */
    public static CategoryChart dots(
            String title, String xTitle, String yTitle, List<String> x, Map<String, List<Double>> series) {
        return categoryDots(title, xTitle, yTitle, x, series);
    }

    /** A dot per (category, series), log y past a 20× range, labels upright or turned when they are long. */
    public static CategoryChart categoryDots(
            String title, String xTitle, String yTitle, List<String> x, Map<String, List<Double>> series) {
        return categoryDots(title, xTitle, yTitle, x, series, List.copyOf(series.keySet()));
    }

    /** As above, each series coloured by its place in {@code colours}, so that charts shown together agree. */
    public static CategoryChart categoryDots(
            String title,
            String xTitle,
            String yTitle,
            List<String> x,
            Map<String, List<Double>> series,
            List<String> colours) {
        boolean turn = x.stream().mapToInt(String::length).sum() > 80;
        CategoryChart c = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(turn ? Plots.HEIGHT + 120 : Plots.HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        style(c);
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        c.getStyler().setOverlapped(true);
        c.getStyler().setMarkerSize(10);
        c.getStyler().setXAxisLabelRotation(turn ? 90 : 0);
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        int k = 0;
        for (var e : series.entrySet()) {
            for (Double v : e.getValue()) {
                if (v != null) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            var s = c.addSeries(e.getKey(), x, e.getValue());
            int place = colours.indexOf(e.getKey());
            int at = place >= 0 ? place : colours.size() + k;
            s.setMarker(MARKERS[(at / PALETTE.length) % MARKERS.length]);
            s.setMarkerColor(PALETTE[at % PALETTE.length]);
            k++;
        }
        if (lo > 0 && hi / lo > 20) {
            c.getStyler().setYAxisLogarithmic(true);
            logTicks(c.getStyler(), lo, hi);
            c.setYAxisTitle(yTitle + " (log scale)");
        }
        c.getStyler().setYAxisDecimalPattern("#,##0.##");
        return c;
    }

    /**
     * A log y axis over {@code lo..hi} that holds fewer than two decades labels its other ticks too (2, 3,
     * ..., 20, 30): XChart labels only a log axis' decades, and one number alone lets no reader place a dot.
     */
    public static void logTicks(AxesChartStyler s, double lo, double hi) {
        if (lo > 0 && hi > lo && Math.floor(Math.log10(hi)) - Math.ceil(Math.log10(lo)) < 1) {
            s.setYAxisLogarithmicDecadeOnly(false);
        }
    }

    public static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP
    };

    /**
     * Groups (in order) packed into as few panels of at most {@code room} items as splitting them allows,
     * the panels about equal: a group stays whole on one panel unless it alone outgrows one, and a panel
     * is closed once the next group would take it past its even share, so nine items make panels of six
     * and three rather than of eight and one.
     */
    public static <T> List<List<T>> panels(List<List<T>> groups, int room) {
        int total = groups.stream().mapToInt(List::size).sum();
        int count = Math.max(1, (total + room - 1) / room);
        int share = (total + count - 1) / count;
        List<List<T>> panels = new ArrayList<>();
        List<T> open = new ArrayList<>();
        for (List<T> group : groups) {
            if (!open.isEmpty() && open.size() + group.size() > share) {
                panels.add(open);
                open = new ArrayList<>();
            }
            for (T item : group) {
                if (open.size() == room) {
                    panels.add(open);
                    open = new ArrayList<>();
                }
                open.add(item);
            }
        }
        if (!open.isEmpty()) {
            panels.add(open);
        }
        return panels;
    }

    /** One ECDF line of a chart. */
    public record Line(String label, Ecdf ecdf, Color colour, boolean thin, boolean inLegend) {
        public Line(String label, Ecdf ecdf, Color colour, boolean thin) {
            this(label, ecdf, colour, thin, true);
        }
    }

    /**
     * The chart of ECDF lines: log x when the plotted range spans more than 30×, so a tail shows without hiding the
     * body.
     */
    public static XYChart ecdfChart(String title, List<Line> lines) {
        return ecdfChart(title, lines, "time per call", "ns");
    }

    public static XYChart ecdfChart(String title, List<Line> lines, String quantity, String unit) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Line l : lines) {
            if (l.ecdf().count() > 0) {
                min = Math.min(min, l.ecdf().x()[0]);
                max = Math.max(max, l.ecdf().x()[l.ecdf().x().length - 1]);
            }
        }
        // The last 0.1% can reach a hundred times the p99 on a busy host and would squeeze the body
        // into a corner: the axis ends past the largest p99.9 and the legend gives each line's max.
        // One row's burst can put its p99.9 decades past every other line's body: the axis ends at the
        // nearer of 1.5 × the largest p99.9 and 4 × the largest p99, so it is fitted to the data shown.
        double cut = 0;
        double p99s = 0;
        for (Line l : lines) {
            if (l.ecdf().count() > 0) {
                cut = Math.max(cut, l.ecdf().at(0.999) * 1.5);
                p99s = Math.max(p99s, l.ecdf().p99() * 4);
            }
        }
        cut = Math.min(cut, p99s);
        boolean cropped = cut < max;
        if (cropped) {
            max = cut;
        }
        // Log x only for a wide range: XChart labels only the decades of a log axis.
        boolean log = min > 0 && max / min > 30;
        // A log axis labels only its decades: one that holds fewer than two of them reads as a single
        // number, so such a chart is linear, its axis ending nearer (2 × the largest p99) and starting
        // at the first 0.1% of the lines (a stray fast call would otherwise set it).
        if (log && Math.floor(Math.log10(max)) - Math.ceil(Math.log10(min)) < 1) {
            log = false;
            double end = Math.min(max, 2 * p99s / 4);
            if (end < max) {
                cropped = true;
                cut = end;
                max = end;
            }
        }
        double left = min;
        if (!log) {
            double first = Double.POSITIVE_INFINITY;
            for (Line l : lines) {
                if (l.ecdf().count() > 0) {
                    first = Math.min(first, l.ecdf().at(0.001));
                }
            }
            left = Math.max(0, Math.min(min + (max - min) * 0.5, first - (max - first) * 0.03));
            left = Math.max(left, min);
        }
        // The legend where the curves are not: bottom right, else top left, else below the plot. A
        // corner is free when no line passes through the box the legend takes there (in axis fractions).
        long entries0 = lines.stream().filter(Line::inLegend).count();
        double boxW = 0.55;
        double boxH = Math.min(0.95, (18.0 * entries0 + 14) / 400);
        int se = 0;
        int nw = 0;
        for (Line l : lines) {
            if (l.ecdf().count() == 0) {
                continue;
            }
            for (int k = 0; k <= 200; k++) {
                double q = k / 200.0;
                double x = l.ecdf().at(Math.min(q, 0.9999));
                double fx = log
                        ? (Math.log10(Math.max(x, min)) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                        : (x - left) / (max - left);
                if (fx > 1) {
                    fx = 1;
                }
                se += fx > 1 - boxW && q < boxH ? 1 : 0;
                nw += fx < boxW && q > 1 - boxH ? 1 : 0;
            }
        }
        Styler.LegendPosition inside = se == 0
                ? Styler.LegendPosition.InsideSE
                : nw == 0 ? Styler.LegendPosition.InsideNW : Styler.LegendPosition.OutsideS;
        String xTitle = quantity + " (" + unit + (log ? ", log scale" : "")
                + (cropped ? "; axis cut at " + ns(cut) + ", the legend gives each max" : "")
                + (left > min ? "; the fastest 0.1% left of the axis" : "") + ")";
        // Past a handful of lines a legend inside the plot hides the curves: below it, the chart taller.
        long entries = entries0;
        boolean legendBelow = entries > Plots.MAX_INSIDE_LEGEND || inside == Styler.LegendPosition.OutsideS;
        XYChart c = new XYChartBuilder()
                .width(Plots.WIDTH)
                .height(legendBelow ? Plots.HEIGHT + 18 * (int) entries : Plots.HEIGHT)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(quantity.equals("time per call") ? "fraction of calls ≤ x" : "fraction of samples ≤ x")
                .build();
        style(c);
        c.getStyler().setXAxisLogarithmic(log);
        if (cropped) {
            c.getStyler().setXAxisMax(max);
        }
        if (log) {
            // the axis from the data's first value, not from the decade below it
            c.getStyler().setXAxisMin(min);
        } else if (left > min) {
            c.getStyler().setXAxisMin(left);
        }
        c.getStyler().setXAxisDecimalPattern("#,##0.###"); // 10,000 rather than 1E4
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisMax(1.0);
        c.getStyler().setYAxisDecimalPattern("0.0#"); // a few hundred samples give fractions like 0.98666…
        c.getStyler().setLegendPosition(legendBelow ? Styler.LegendPosition.OutsideS : inside);
        c.getStyler().setLegendFont(c.getStyler().getLegendFont().deriveFont(11f));
        for (Line l : lines) {
            if (l.ecdf().count() == 0) {
                continue;
            }
            double[] x = l.ecdf().x();
            double[] y = l.ecdf().y();
            int keep = x.length;
            if (cropped) {
                keep = 0;
                while (keep < x.length && x[keep] <= max) {
                    keep++;
                }
                keep = Math.max(1, keep);
            }
            XYSeries s = c.addSeries(l.label(), Arrays.copyOf(x, keep), Arrays.copyOf(y, keep));
            s.setMarker(SeriesMarkers.NONE);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
            // A twin line (no filter, Java supervisor) is thin and light, not dashed: XChart starts the dash
            // pattern afresh on every segment, and an ECDF's segments are shorter than a dash, so it drew solid.
            s.setLineColor(l.thin() ? lighter(l.colour()) : l.colour());
            s.setLineStyle(new BasicStroke(l.thin() ? 1.2f : 2.2f));
            s.setShowInLegend(l.inLegend());
        }
        return c;
    }

    /** The colour halfway to white: a twin line beside its solid one. */
    public static Color lighter(Color c) {
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }

    /** "p50 250 ns, p99 361 ns" for a legend. */
    public static String quantiles(Ecdf e) {
        return "p50 " + ns(e.median()) + ", p99 " + ns(e.p99()) + ", max " + ns(e.max());
    }

    /** A time for a legend: ns below a microsecond, then µs, then ms. */
    public static String ns(double v) {
        if (v < 1_000) {
            return String.format(Locale.ROOT, "%.0f ns", v);
        }
        if (v < 1_000_000) {
            return String.format(Locale.ROOT, v < 10_000 ? "%.2f µs" : "%.1f µs", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.2f ms", v / 1e6);
    }

    /**
     * Row labels without the parts every row of the group shares (they belong in the title), so a
     * legend stays narrow; a row left with nothing keeps its full label.
     */
    public static List<String> compactLabels(Results r, List<Integer> rows) {
        return compactLabels(r, rows, 88);
    }

    public static List<String> compactLabels(Results r, List<Integer> rows, int width) {
        List<List<String>> parts = rows.stream().map(r::labelParts).toList();
        Set<String> common = new LinkedHashSet<>(parts.isEmpty() ? List.of() : parts.get(0));
        if (rows.size() > 1) {
            parts.forEach(common::retainAll);
        } else {
            common.clear();
        }
        List<String> out = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            List<String> keep =
                    parts.get(k).stream().filter(p -> !common.contains(p)).toList();
            String l = String.join(" · ", keep.isEmpty() ? parts.get(k) : keep);
            out.add(l.length() > width ? l.substring(0, width - 1) + "…" : l);
        }
        return out;
    }

    public static String slug(String s) {
        String out = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return out.isEmpty() ? "rows" : out;
    }

    public static String unique(Set<String> taken, String slug) {
        String s = slug;
        for (int n = 2; !taken.add(s); n++) {
            s = slug + "-" + n;
        }
        return s;
    }

    public static void style(Chart<?, ?> c) {
        Styler s = c.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setToolTipsEnabled(false);
        if (s instanceof AxesChartStyler a) {
            a.setPlotGridLinesVisible(true);
            a.setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
        }
    }

    /** A row's legend label; long enough to keep the placement and wake-up words that tell rows apart. */
    public static String label(Results r, int i) {
        String l = r.label(i);
        return l.length() > 80 ? l.substring(0, 79) + "…" : l;
    }
}
