package heimdall.lab.analysis;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.ExploreCheckRow;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.HostLoadRow;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.MeasuredCallRow;
import heimdall.lab.results.ResultRow;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import heimdall.lab.sys.SafeFiles;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
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
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * XChart plots of a {@link Results} folder. Each has a title, axis titles with units and a legend;
 * {@link #save} writes one as PNG, {@link #image} returns it as a {@link BufferedImage} (which any
 * Java Jupyter kernel, stock IJava included, shows inline).
 *
 * <p>A floor-cost folder has some thirty rows, too many for one readable chart, so the plots come
 * per {@link Group}: the rows under one floor, the brokered rows of one answer, the faster round
 * trips. Distribution plots draw each curve from at most {@link Ecdf#MAX_POINTS} order statistics,
 * so millions of samples plot in milliseconds.
 */
public final class Plots {
    /** Default size in pixels. */
    public static final int WIDTH = 900;

    public static final int HEIGHT = 520;
    /** Runs past which a run-values chart leaves its runs out of the legend (they would not fit). */
    static final int MAX_RUN_LEGEND = 7;
    /** More ECDF lines than this and the legend goes below the plot, where it hides no curve. */
    static final int MAX_INSIDE_LEGEND = 8;
    /** The most series a chart draws: past eight, colours repeat and the legend outgrows the plot. */
    public static final int MAX_SERIES = 8;

    /** Line colours: distinct, readable on white, in the order series are added. */
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
        new Color(0xff7f0e), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
        new Color(0x7f7f7f), new Color(0xbcbd22)
    };

    private Plots() {}

    /**
     * Rows plotted together.
     *
     * @param slug a file-name part ({@code distribution-<slug>.png})
     * @param title what the rows have in common, for a chart title
     * @param rows row indices, in row order
     */
    public record Group(String slug, String title, List<Integer> rows) {}

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
     * Every plot that applies to the folder's rows, by file name: for floor-style rows one
     * {@code distribution-<group>.png} per {@link #floorGroups floor group} (for samples whose variants
     * are a reproduction's own, one {@code distribution-<variant>.png} per variant instead) and
     * {@code run-medians-<section>.png} per {@link #sections section}; for brokered rows
     * {@code broker-cdf-<answer>.png} (default placement) and {@code broker-faster-<answer>.png}
     * (other placements and the synchronous wake-up, beside the default); {@code p99-vs-load.png}
     * when there are load rows ({@code p99-vs-load-<floors>.png} per {@link #p99VsLoadPanels panel} past
     * {@link #MAX_SERIES} rows); {@code graph-by-layout.png} for graph rows ({@code graph-by-layout-<family>.png}
     * per {@link #graphByLayoutPanels panel} past {@link #MAX_SERIES} layouts).
     */
    public static Map<String, Chart<?, ?>> all(Results r) {
        // each kind says which of the families below it draws (reproduce.ReproductionKinds)
        return r.kind() instanceof KindPlots p ? p.plots(r) : new LinkedHashMap<>();
    }

    /** graph-lookup's and graph-jmh's plots: {@link #graphByLayoutPanels}. */
    public static Map<String, Chart<?, ?>> graphPlots(Results r) {
        return new LinkedHashMap<>(graphByLayoutPanels(r));
    }

    /** follower-cost's plots: per hook, each row's calls without and with the follower; the added cost per row. */
    public static Map<String, Chart<?, ?>> followerPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.hasCallSamples()) {
            for (String hook : followerHooks(r)) {
                charts.put("ecdf-" + slug(hook) + ".png", followerEcdf(r, hook));
            }
        }
        if (r.followerCost().stream().anyMatch(row -> row.figures().addedNs() != null)) {
            charts.put("added-cost.png", followerAdded(r));
        }
        return charts;
    }

    /** kernel-matrix's plots: the added ratios by kernel, the brokered round trip on a panel of its own. */
    public static Map<String, Chart<?, ?>> kernelMatrixPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        // the brokered round trip (hundreds of times the call) on a panel of its own, so that the calls'
        // and the follower's ratios (tenths) are not flattened against it
        if (r.kernelMatrix().stream().anyMatch(row -> row.figures().addedRatio() != null && !brokeredRow(row))) {
            charts.put("added-ratio-by-kernel.png", kernelMatrixRatios(r, false));
        }
        if (r.kernelMatrix().stream().anyMatch(row -> row.figures().addedRatio() != null && brokeredRow(row))) {
            charts.put("added-ratio-broker-by-kernel.png", kernelMatrixRatios(r, true));
        }
        return charts;
    }

    /** lanes' plots: {@code wall-by-variant.png}. */
    public static Map<String, Chart<?, ?>> lanesPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.lanes().stream().anyMatch(l -> l.wallMsMedian() != null)) {
            charts.put("wall-by-variant.png", wallByVariant(r));
        }
        return charts;
    }

    /**
     * The plots of rows that time calls one by one (floor-cost, host-load, attach-cost, kernel-bitmap):
     * the distributions per floor group or per variant, and the run medians per section.
     */
    public static Map<String, Chart<?, ?>> callPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        // samples.arrow, or without it (a committed folder) the compact distributions.json
        boolean samples = r.hasCallSamples();
        if (samples && r.variants().contains("filtered")) {
            for (Group g : floorGroups(r)) {
                if (g.rows().stream().anyMatch(i -> r.hasSamples(i, "filtered"))) {
                    charts.put("distribution-" + g.slug() + ".png", distribution(r, g));
                }
            }
        } else if (samples) {
            // A reproduction with variants of its own (per-call, attach, fork): one chart per variant.
            for (String variant : r.variants()) {
                charts.put("distribution-" + slug(variant) + ".png", distributionOf(r, variant));
            }
        }
        for (Group g : sections(r)) {
            if (g.rows().stream().anyMatch(i -> !runMediansOf(r.row(i)).isEmpty())) {
                charts.put("run-medians-" + g.slug() + ".png", runMedians(r, g));
            }
        }
        return charts;
    }

    /** kernel-bitmap's plots: {@link #callPlots} and the configurations by code placement, per loop. */
    public static Map<String, Chart<?, ?>> kernelBitmapPlots(Results r) {
        Map<String, Chart<?, ?>> charts = callPlots(r);
        if (!placementRows(r, KernelBitmapRow.Loop.BARE).isEmpty()) {
            charts.put("by-placement.png", byPlacement(r));
        }
        if (!placementRows(r, KernelBitmapRow.Loop.SELFTEST).isEmpty()) {
            charts.put("by-placement-selftest-loop.png", byPlacement(r, SELFTEST_LOOP));
        }
        return charts;
    }

    /** floor-cost's plots: {@link #callPlots} and, per answer, the brokered rows' ECDFs and faster round trips. */
    public static Map<String, Chart<?, ?>> floorCostPlots(Results r) {
        Map<String, Chart<?, ?>> charts = callPlots(r);
        if (r.hasCallSamples()) {
            for (String answer : answers(r)) {
                charts.put("broker-cdf-" + slug(answer) + ".png", brokerCdf(r, answer));
                if (!fasterRows(r, answer).isEmpty()) {
                    charts.put("broker-faster-" + slug(answer) + ".png", fasterRoundTrips(r, answer));
                }
            }
        }
        return charts;
    }

    /** host-load's plots: {@link #callPlots} and the p99 against the load average ({@link #p99VsLoadPanels}). */
    public static Map<String, Chart<?, ?>> hostLoadPlots(Results r) {
        Map<String, Chart<?, ?>> charts = callPlots(r);
        if (r.hostLoad().stream()
                .anyMatch(h -> h.loadAvgRuns() != null && !h.loadAvgRuns().isEmpty())) {
            charts.putAll(p99VsLoadPanels(r));
        }
        return charts;
    }

    /**
     * explore-check's plots: both sources' samples as ECDFs ({@code distribution-filtered.png}) and
     * their run medians ({@code run-medians.png}).
     */
    public static Map<String, Chart<?, ?>> exploreCheckPlots(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        if (r.hasCallSamples() && r.variants().contains("filtered")) {
            charts.put("distribution-filtered.png", distributionOf(r, "filtered"));
        }
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            rows.add(i);
        }
        boolean runMedians = r.rows(ExploreCheckRow.class).stream()
                .anyMatch(row -> row.figures().runMediansNs() != null
                        && !row.figures().runMediansNs().isEmpty());
        if (runMedians) {
            String title = "floor-cost row code and fluent API";
            charts.put(
                    "run-medians.png",
                    runValues(
                            r,
                            new Group("sources", title, rows),
                            ExploreCheckRow.class,
                            row -> row.figures().runMediansNs(),
                            null,
                            "Per-run medians (ns): " + title,
                            "median of a run (ns)"));
        }
        return charts;
    }

    /**
     * The one place a results folder's plots are written: {@link #all} of the folder as written, into
     * {@code <folder>/plots/}. A plot that cannot be drawn is reported on {@code progress} and leaves the
     * folder's measured files as they are: the figures matter more than their pictures.
     */
    public static void writeInto(Path folder, Consumer<String> progress) {
        writeInto(folder, () -> Results.load(folder), progress);
    }

    /**
     * {@link #writeInto(Path, java.util.function.Consumer)} for the folder a run is writing, drawn once
     * from what the run holds in memory ({@link Results#written}: the rows it wrote and its samples as
     * counted while appended), so nothing is read back, samples.arrow least of all. The plots are those
     * a reload would draw. A folder with no summary.json written through it is loaded from disk.
     */
    public static void writeInto(ResultsFolder folder, Consumer<String> progress) {
        Path dir = folder.path();
        writeInto(dir, () -> Results.written(folder).orElseGet(() -> Results.load(dir)), progress);
    }

    private static void writeInto(Path folder, Supplier<Results> results, Consumer<String> progress) {
        long t0 = System.nanoTime();
        try {
            List<Path> files = saveAll(results.get(), folder.resolve("plots"));
            progress.accept(String.format(
                    Locale.ROOT,
                    "plots: %d written in %s (%.1f s)",
                    files.size(),
                    folder.resolve("plots"),
                    (System.nanoTime() - t0) / 1e9));
        } catch (IOException | RuntimeException e) {
            progress.accept("plots: not written: " + e);
        }
    }

    /**
     * Writes {@link #all} into {@code dir} (normally {@code <results>/plots/}). Never overwrites: a
     * results folder is written once, so an existing file is an error.
     *
     * @return the files written, in {@link #all}'s order
     */
    public static List<Path> saveAll(Results r, Path dir) throws IOException {
        Map<String, Chart<?, ?>> charts = all(r);
        Files.createDirectories(dir);
        for (String name : charts.keySet()) {
            if (Files.exists(dir.resolve(name))) {
                throw new FileAlreadyExistsException(
                        dir.resolve(name).toString(), null, "results folders are written once; plots already there");
            }
        }
        List<Path> written = new ArrayList<>();
        for (var e : charts.entrySet()) {
            // created exclusively: a name planted in the folder is an error, never written through
            Path file = dir.resolve(e.getKey());
            SafeFiles.writeNew(file, out -> {
                if (!ImageIO.write(image(e.getValue()), "png", out)) {
                    throw new IOException("no PNG writer available");
                }
            });
            written.add(file);
        }
        return written;
    }

    /** The chart drawn into an image of the chart's size. */
    public static BufferedImage image(Chart<?, ?> chart) {
        return BitmapEncoder.getBufferedImage(chart);
    }

    /** Row {@code i} when it is a floor-cost row, else null. */
    private static FloorCostRow floorCost(Results r, int i) {
        return r.row(i) instanceof FloorCostRow f ? f : null;
    }

    /** Whether row {@code i} is brokered (has a supervisor). */
    static boolean brokered(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f != null && f.brokered();
    }

    /** Whether row {@code i} is a round-trip floor (a pipe ping-pong in a supervisor's placement). */
    static boolean reference(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f != null && f.isReference();
    }

    /** Whether a brokered row runs the default way: supervisor on its own CPU, no synchronous wake-up. */
    static boolean defaultPlacement(Results r, int i) {
        FloorCostRow f = floorCost(r, i);
        return f == null || f.defaultPlacement();
    }

    /** What a row measures (its floor, configuration or check), or null for rows without one (graph, lanes). */
    static String whatOf(ResultRow row) {
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
    static String callOf(ResultRow row) {
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
    static List<Double> runMediansOf(ResultRow row) {
        if (row instanceof MeasuredCallRow m) {
            return doubles(m.runMediansNs());
        } else if (row instanceof KernelBitmapRow.Configuration c) {
            return doubles(c.runMediansNs());
        }
        return List.of();
    }

    /** A row's per-run medians with no filter ({@code run_medians_none_ns}); empty when it has none. */
    static List<Double> runMediansNoneOf(ResultRow row) {
        return row instanceof MeasuredCallRow m ? doubles(m.runMediansNoneNs()) : List.of();
    }

    /** Numbers as doubles, in a new list; empty for null (a field the row does not have). */
    static List<Double> doubles(List<? extends Number> values) {
        List<Double> out = new ArrayList<>();
        if (values != null) {
            for (Number n : values) {
                out.add(n == null ? null : n.doubleValue());
            }
        }
        return out;
    }

    /**
     * The rows that are not brokered, grouped by {@code what} (the floor), in row order; neighbouring
     * floors of one row each share a group (rows 7–9 of the floor-cost table: three answers and
     * stacked).
     */
    public static List<Group> floorGroups(Results r) {
        List<List<Integer>> byWhat = new ArrayList<>();
        Map<Object, List<Integer>> index = new LinkedHashMap<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (brokered(r, i)) {
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
        // A group past the legend's room (its rows and the no-filter baseline, MAX_SERIES in all) is drawn
        // as parts of MAX_SERIES - 1 rows, each a chart of its own (floor-cost's eight notify-loop rows).
        List<List<Integer>> parts = new ArrayList<>();
        List<String> partNames = new ArrayList<>();
        for (List<Integer> g : merged) {
            int n = (g.size() + MAX_SERIES - 2) / (MAX_SERIES - 1);
            for (int k = 0; k < n; k++) {
                parts.add(g.subList(k * (MAX_SERIES - 1), Math.min(g.size(), (k + 1) * (MAX_SERIES - 1))));
                partNames.add(n == 1 ? "" : (k + 1) + " of " + n);
            }
        }
        List<Group> out = new ArrayList<>();
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
                    ? slug(whats.get(0))
                    : slug(String.join(
                            " ",
                            whats.stream()
                                    .map(w -> w.split(",")[0].trim())
                                    .distinct()
                                    .toList()));
            if (!part.isEmpty()) {
                title = title + " (" + part + ")";
                slug = slug + "-" + part.substring(0, part.indexOf(' '));
            }
            out.add(new Group(unique(slugs, slug), title, List.copyOf(g)));
        }
        return out;
    }

    /**
     * Rows by kind: {@code floors} (not brokered), {@code broker} (brokered, default placement),
     * {@code faster} (brokered, other placements or the synchronous wake-up); empty ones left out.
     */
    public static List<Group> sections(Results r) {
        List<Integer> floors = new ArrayList<>();
        List<Integer> broker = new ArrayList<>();
        List<Integer> faster = new ArrayList<>();
        List<Integer> references = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            (reference(r, i) ? references : !brokered(r, i) ? floors : defaultPlacement(r, i) ? broker : faster).add(i);
        }
        List<Group> out = new ArrayList<>();
        if (!floors.isEmpty()) {
            // kernel-bitmap's rows are the selftest's configurations (section "configuration"), not floors.
            boolean configurations = floors.stream().anyMatch(i -> r.row(i) instanceof KernelBitmapRow.Configuration);
            out.add(
                    configurations
                            ? new Group("configurations", "configurations", floors)
                            : new Group("floors", "floors", floors));
        }
        if (!broker.isEmpty()) {
            out.add(new Group("broker", "brokered calls (supervisor on its own CPU)", broker));
        }
        if (!faster.isEmpty()) {
            out.add(new Group("faster", "faster round trips", faster));
        }
        if (!references.isEmpty()) {
            out.add(new Group(
                    "round-trip-floor", "the host's round-trip floor (pipe ping-pong, no seccomp)", references));
        }
        return out;
    }

    /** The answers of the brokered rows, in row order. */
    static List<String> answers(Results r) {
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (brokered(r, i) && floorCost(r, i).answer() != null) {
                out.add(floorCost(r, i).answer());
            }
        }
        return List.copyOf(out);
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
        return distribution(r, new Group("floors", "every floor row", rows));
    }

    /** One row's samples with and without the filter, as two ECDFs. */
    public static XYChart distribution(Results r, int row) {
        if (!r.hasSamples(row, "filtered")) {
            throw new IllegalArgumentException("row " + row + " has no samples in " + r.dir());
        }
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("filtered", r.ecdfOf(row, "filtered"), PALETTE[0], false));
        if (r.hasSamples(r.baselineRow(row), "none")) {
            lines.add(new Line("no filter", r.ecdfOf(r.baselineRow(row), "none"), PALETTE[0], true));
        }
        return ecdfChart(
                "Time per call (ns): " + r.label(row) + (lines.size() > 1 ? " (thin, light: no filter)" : ""), lines);
    }

    /**
     * A group's rows as ECDFs of their samples with the floor (solid), each beside the same call with
     * no filter (thin and light, same colour; a baseline shared by several rows is drawn once). The horizontal
     * gap between a solid line and its thin twin is the floor's added cost.
     */
    public static XYChart distribution(Results r, Group g) {
        List<String> labels = compactLabels(r, g.rows());
        List<Line> lines = new ArrayList<>();
        Map<Integer, Color> baselines = new LinkedHashMap<>();
        int colour = 0;
        for (int k = 0; k < g.rows().size(); k++) {
            int i = g.rows().get(k);
            if (!r.hasSamples(i, "filtered")) {
                continue;
            }
            Color c = PALETTE[colour++ % PALETTE.length];
            Ecdf e = r.ecdfOf(i, "filtered");
            lines.add(new Line(labels.get(k) + " — " + quantiles(e), e, c, false));
            baselines.putIfAbsent(r.baselineRow(i), c);
        }
        for (var b : baselines.entrySet()) {
            if (r.hasSamples(b.getKey(), "none")) {
                Ecdf e = r.ecdfOf(b.getKey(), "none");
                String call = callOf(r.row(b.getKey()));
                lines.add(new Line(
                        (call == null ? "" : call + ", ") + "no filter — " + quantiles(e), e, b.getValue(), true));
            }
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("rows " + g.rows() + " have no samples in " + r.dir());
        }
        String twins = lines.stream().anyMatch(Line::thin) ? " (thin, light: no filter)" : "";
        return ecdfChart("Time per call (ns): " + g.title() + twins, lines);
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
        List<String> labels = compactLabels(r, rows);
        List<Line> lines = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            Ecdf e = r.ecdfOf(rows.get(k), variant);
            lines.add(new Line(labels.get(k) + " — " + quantiles(e), e, PALETTE[k % PALETTE.length], false));
        }
        return ecdfChart("Time per call (ns), samples '" + variant + "': ECDF", lines);
    }

    /** follower-cost: the hooks with measured rows, in row order. */
    static List<String> followerHooks(Results r) {
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
        List<String> labels = compactLabels(r, rows);
        List<Line> lines = new ArrayList<>();
        // past four rows the legend has an entry per row, its "with" line, naming both medians: a row's
        // thin line is found by its colour, and the legend keeps to MAX_SERIES entries
        boolean pairs = rows.size() * 2 > MAX_SERIES;
        for (int k = 0; k < rows.size(); k++) {
            Color colour = PALETTE[k % PALETTE.length];
            int at = rows.get(k);
            Ecdf without = r.hasSamples(at, "without") ? r.ecdfOf(at, "without") : null;
            for (String v : List.of("without", "with")) {
                if (r.hasSamples(at, v)) {
                    Ecdf e = r.ecdfOf(at, v);
                    String label = labels.get(k) + " · " + v + " follower — " + quantiles(e);
                    if (pairs && v.equals("with") && without != null) {
                        label = labels.get(k) + " — with: " + quantiles(e) + "; without: p50 " + ns(without.median());
                    }
                    lines.add(new Line(label, e, colour, v.equals("without"), !pairs || v.equals("with")));
                }
            }
        }
        return ecdfChart("Time per call (ns) without (thin, light) and with (solid) the follower, hook " + hook, lines);
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
        return categoryDots(
                "Added cost per call, ns (median with − median without the follower)", "row", "added (ns)", x, series);
    }

    /**
     * kernel-matrix: each measured row's added cost as a ratio to its kernel's own unfiltered call, one
     * dot series per kernel (emulated kernels named so): ratios, never nanoseconds, so an emulated
     * guest's figures sit beside a native kernel's only in the terms they share. {@code brokered}: the
     * brokered rows only, else every other row.
     */
    public static CategoryChart kernelMatrixRatios(Results r, boolean brokered) {
        List<String> x = new ArrayList<>();
        // every kernel with a ratio in either panel, in one order: a kernel has one colour in both
        List<String> kernels = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        for (KernelMatrixRow row : r.kernelMatrix()) {
            if (row.figures().addedRatio() == null) {
                continue;
            }
            String series = row.kernel().name() + " " + row.kernel().release()
                    + (row.kernel().emulated() ? " (emulated)" : "");
            if (!kernels.contains(series)) {
                kernels.add(series);
            }
            if (brokeredRow(row) != brokered) {
                continue;
            }
            String label = kernelMatrixLabel(row);
            if (!x.contains(label)) {
                x.add(label);
            }
            cells.computeIfAbsent(series, k -> new LinkedHashMap<>())
                    .put(label, row.figures().addedRatio());
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        cells.forEach(
                (kernel, byX) -> series.put(kernel, x.stream().map(byX::get).toList()));
        return categoryDots(
                (brokered ? "Brokered openat round trip" : "Calls under a floor, and the follower")
                        + ": added / unfiltered call, per kernel",
                "row",
                "added / the kernel's own unfiltered call (ratio)",
                x,
                series,
                kernels);
    }

    /** A kernel-matrix row timed through the broker (a supervisor's round trip, not a filter's cost). */
    private static boolean brokeredRow(KernelMatrixRow row) {
        return row.section() == KernelMatrixRow.Section.FLOOR_COST && row.what().contains("broker");
    }

    /** A short x label for a kernel-matrix row (the table keeps the whole name). */
    static String kernelMatrixLabel(KernelMatrixRow row) {
        String w = row.what();
        if (row.section() == KernelMatrixRow.Section.FLOOR_COST) {
            return "floor " + w.replaceFirst("^[^·]*· ", "");
        }
        if (row.section() == KernelMatrixRow.Section.FOLLOWER_COST) {
            // measure · hook · process [· call]: the hook shortened, t_idle named by its process, t_follow by its call
            String[] p = w.split(" · ");
            if (p.length >= 3) {
                String hook =
                        p[1].equals("syscall-tracepoint") ? "tp" : p[1].equals("seccomp-fentry") ? "fentry" : p[1];
                String which = p[0].equals("t_idle") ? p[2].replace("unrelated, ", "") : p.length > 3 ? p[3] : p[2];
                return p[0] + " " + hook + " · " + which;
            }
        }
        return row.section().label() + " " + w;
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
            if (brokered(r, i)
                    && defaultPlacement(r, i)
                    && (answer == null || answer.equals(floorCost(r, i).answer()))) {
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
     * {@link #MAX_SERIES} lines; the Java supervisor's twins and the host's floor are in the table, and
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
            (brokered(r, i) && !"java".equals(floorCost(r, i).supervisor()) ? nativeRows : others).add(i);
        }
        List<Integer> shown = new ArrayList<>(nativeRows.subList(0, Math.min(MAX_SERIES, nativeRows.size())));
        // the host's floor (reference rows) for scale while there is room; the Java twins are left to the table
        for (int i : others) {
            if (shown.size() < MAX_SERIES && reference(r, i)) {
                shown.add(i);
            }
        }
        if (shown.isEmpty()) {
            throw new IllegalArgumentException("rows " + rows + " have no samples in " + r.dir());
        }
        List<String> labels = compactLabels(r, shown);
        Map<String, Color> colours = new LinkedHashMap<>();
        List<Line> lines = new ArrayList<>();
        for (int k = 0; k < shown.size(); k++) {
            int i = shown.get(k);
            FloorCostRow row = floorCost(r, i);
            boolean ref = reference(r, i);
            // a colour per placement and wake-up: the host's floor shares its placement's colour, thin
            String key = ref ? row.placement() + "/false" : row.placement() + "/" + row.syncWakeup();
            Color c = colours.computeIfAbsent(key, x -> PALETTE[colours.size() % PALETTE.length]);
            Ecdf e = r.ecdfOf(i, "filtered");
            // the thin line's legend entry says what it is: the title has no room left for it
            String thin = ref ? " (thin: the host's floor)" : "";
            lines.add(new Line(labels.get(k) + thin + " — " + quantiles(e), e, c, ref));
        }
        // XChart never wraps a title: it stays within the image's width (PlotRulesTest measures it)
        String left = shown.size() < rows.size() ? "; more rows in the table" : "";
        return ecdfChart(
                "Faster round trips, answer " + answer + ", native supervisor: time per call (ns), ECDF" + left, lines);
    }

    static List<Integer> fasterRows(Results r, String answer) {
        Set<Object> floors = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (brokered(r, i)
                    && !defaultPlacement(r, i)
                    && answer.equals(floorCost(r, i).answer())) {
                floors.add(floorCost(r, i).what());
            }
        }
        List<Integer> rows = new ArrayList<>();
        Set<Object> placements = new LinkedHashSet<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (brokered(r, i)
                    && floors.contains(floorCost(r, i).what())
                    && answer.equals(floorCost(r, i).answer())) {
                rows.add(i);
                placements.add(floorCost(r, i).placement());
            }
        }
        // The host's floor in the same placements, for scale (dotted).
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (!rows.isEmpty()
                    && reference(r, i)
                    && placements.contains(floorCost(r, i).placement())) {
                rows.add(i);
            }
        }
        return rows;
    }

    /**
     * Brokered rows as ECDFs: colour by {@code colourBy} (the floor, or placement and wake-up), line style by
     * supervisor.
     */
    private static XYChart supervisorChart(
            Results r, List<Integer> rows, Function<FloorCostRow, String> colourBy, String title) {
        List<String> labels = compactLabels(r, rows);
        Map<String, Color> colours = new LinkedHashMap<>();
        List<Line> lines = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            int i = rows.get(k);
            if (!r.hasSamples(i, "filtered")) {
                continue;
            }
            FloorCostRow row = floorCost(r, i);
            String key = colourBy.apply(row);
            Color c = colours.computeIfAbsent(key, x -> PALETTE[colours.size() % PALETTE.length]);
            Ecdf e = r.ecdfOf(i, "filtered");
            lines.add(new Line(labels.get(k) + " — " + quantiles(e), e, c, "java".equals(row.supervisor())));
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("rows " + rows + " have no samples in " + r.dir());
        }
        // Legend order: by colour (floor or placement), native before Java, so twins sit together.
        List<Color> order = List.copyOf(colours.values());
        lines.sort(
                Comparator.comparingInt((Line l) -> order.indexOf(l.colour())).thenComparing(Line::thin));
        // the title names the thin lines only when the chart has some
        return ecdfChart(title + (lines.stream().anyMatch(Line::thin) ? " (thin, light: Java supervisor)" : ""), lines);
    }

    /**
     * Per-run medians of every row: readable up to about a dozen rows; use
     * {@link #runMedians(Results, Group)} per {@link #sections section} for a whole folder.
     */
    public static CategoryChart runMedians(Results r) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            all.add(i);
        }
        return runMedians(r, new Group("all", "every row", all));
    }

    /**
     * Per-run medians of a group's rows: one column per row (labelled with its {@code row} number and
     * what sets it apart), one dot per run in that run's colour — runs are interleaved across rows, so
     * a colour high in every column is a burst of host load, a column whose dots scatter is a row
     * whose runs disagree (see the table's spread) — and a grey diamond: the median of the same call
     * with no filter.
     */
    public static CategoryChart runMedians(Results r, Group g) {
        return runValues(
                r,
                g,
                Plots::runMediansOf,
                Plots::runMediansNoneOf,
                "Per-run medians (ns): " + g.title(),
                "run median (ns)");
    }

    /**
     * {@link #runValues(Results, Group, Function, Function, String, String)} for rows of one type: the
     * lists of the group's rows that are {@code type}s ({@code AttachCostRow.class,
     * row -> row.attach().runMediansNs()}); {@code noneValues} may be null.
     */
    public static <T extends ResultRow> CategoryChart runValues(
            Results r,
            Group g,
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
            Group g,
            Function<ResultRow, ? extends List<? extends Number>> values,
            Function<ResultRow, ? extends List<? extends Number>> noneValues,
            String title,
            String yTitle) {
        Function<Integer, List<Double>> field = i -> doubles(values.apply(r.row(i)));
        Function<Integer, List<Double>> noneField =
                noneValues == null ? i -> List.of() : i -> doubles(noneValues.apply(r.row(i)));
        List<Integer> rows = g.rows().stream()
                .filter(i -> !field.apply(i).isEmpty() || !noneField.apply(i).isEmpty())
                .toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "rows " + g.rows() + " have no values for '" + title + "' in " + r.dir());
        }
        List<String> categories = rowCategories(r, rows);
        CategoryChart c = rowScatter(title, yTitle, rows.size());
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
            s.setMarkerColor(PALETTE[run % PALETTE.length]);
            // Past a dozen runs the legend no longer fits the chart's height; the colours still pair a run's dots.
            s.setShowInLegend(runs <= MAX_RUN_LEGEND);
        }
        if (runs > MAX_RUN_LEGEND) {
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
            String range = noneLo(none) == noneHi(none) ? ns(noneLo(none)) : ns(noneLo(none)) + "–" + ns(noneHi(none));
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
        if (runs > MAX_RUN_LEGEND && !anyNone) {
            c.getStyler().setLegendVisible(false); // every series is out of the legend: no empty box
        }
        if (logAxis) {
            c.getStyler().setYAxisLogarithmic(true);
            logTicks(c.getStyler(), lo, hi);
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

    private static double noneLo(List<Double> none) {
        return none.stream()
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .min()
                .orElse(0);
    }

    private static double noneHi(List<Double> none) {
        return none.stream()
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
    }

    /** A column label per row: its number and what sets it apart from the others. */
    private static List<String> rowCategories(Results r, List<Integer> rows) {
        List<String> labels = distinctLabels(shortParts(r, rows, MAX_COLUMN_LABEL), MAX_COLUMN_LABEL);
        List<String> categories = new ArrayList<>();
        for (int k = 0; k < rows.size(); k++) {
            categories.add(rows.get(k) + ": " + labels.get(k));
        }
        return categories;
    }

    /**
     * Each row's label parts without those every row shares, and, while a label is longer than
     * {@code width}, without a further part whose loss leaves every label different from the others
     * (the floor's description where its short name says the same), first parts first.
     */
    static List<String> shortParts(Results r, List<Integer> rows, int width) {
        return shortParts(rows.stream().map(r::labelParts).toList(), width);
    }

    /** {@link #shortParts(Results, List, int)} of labels given as their parts (not modified). */
    static List<String> shortParts(List<List<String>> labelParts, int width) {
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
    static List<String> distinctLabels(List<String> labels, int width) {
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
    private static CategoryChart rowScatter(String title, String yTitle, int rows) {
        // Taller than the others: the rotated row labels need the room.
        CategoryChart c = new CategoryChartBuilder()
                .width(WIDTH)
                .height(rows > 4 ? HEIGHT + 180 : HEIGHT)
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

    static final String PER_CALL_BY_PLACEMENT = "per_call_ns_by_placement";
    static final String BATCH_BY_PLACEMENT = "batch_ns_per_call_by_placement";
    static final String BATCH_MONOTONIC_BY_PLACEMENT = "batch_monotonic_ns_per_call_by_placement";
    /** kernel-bitmap's prefix for the fields of the selftest's loop (glibc {@code syscall()}, the pid compared). */
    public static final String SELFTEST_LOOP = "selftest_";

    /**
     * A figure by code placement of the runner's timed loop (kernel-bitmap's {@code
     * per_call_ns_by_placement} and {@code batch_ns_per_call_by_placement}): a column per row, a
     * circle per placement for the per-call figure and a diamond in the same colour for the batch
     * one (CPU time), a square for the batch on the monotonic clock where the rows have it. A
     * placement whose circles sit above the others in every filtered column is a bias of the per-call
     * harness at that placement, not noise. This is the bare loop's chart; {@link #byPlacement(Results,
     * String)} with {@link #SELFTEST_LOOP} draws the selftest loop's.
     */
    public static CategoryChart byPlacement(Results r) {
        return byPlacement(r, "");
    }

    /** {@link #byPlacement(Results)} for the fields named with {@code prefix} ("" or {@link #SELFTEST_LOOP}). */
    public static CategoryChart byPlacement(Results r, String prefix) {
        KernelBitmapRow.Loop loop =
                prefix.equals(SELFTEST_LOOP) ? KernelBitmapRow.Loop.SELFTEST : KernelBitmapRow.Loop.BARE;
        if (!prefix.isEmpty() && loop == KernelBitmapRow.Loop.BARE) {
            throw new IllegalArgumentException("unknown loop prefix '" + prefix + "': \"\" or " + SELFTEST_LOOP);
        }
        List<Integer> rows = placementRows(r, loop);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no row has " + prefix + PER_CALL_BY_PLACEMENT + " in " + r.dir());
        }
        List<String> categories = rowCategories(r, rows);
        String title = "Median ns per call by code placement" + (prefix.isEmpty() ? "" : " (selftest's loop)")
                + ": ● per call, ◆ batch, ■ monotonic batch";
        CategoryChart c = rowScatter(title, "ns per call", rows.size());
        int placements = rows.stream()
                .mapToInt(i -> configuration(r, i).perCallByPlacement(loop).size())
                .max()
                .orElse(0);
        Map<String, Function<KernelBitmapRow.Configuration, List<Long>>> figures = new LinkedHashMap<>();
        figures.put("per call", x -> x.perCallByPlacement(loop));
        figures.put("batch", x -> x.batchByPlacement(loop));
        figures.put("batch (monotonic)", x -> x.batchMonotonicByPlacement(loop));
        int kind = 0;
        Set<Integer> legendPlacements = new HashSet<>();
        for (var f : figures.entrySet()) {
            for (int p = 0; p < placements; p++) {
                List<Double> y = new ArrayList<>();
                boolean any = false;
                for (int i : rows) {
                    List<Long> list = f.getValue().apply(configuration(r, i));
                    Long v = list != null && p < list.size() ? list.get(p) : null;
                    y.add(v == null ? null : v.doubleValue());
                    any |= v != null;
                }
                if (!any) {
                    continue;
                }
                var s = c.addSeries(f.getKey() + ", placement " + p, categories, y);
                s.setMarker(
                        kind == 0 ? SeriesMarkers.CIRCLE : kind == 1 ? SeriesMarkers.DIAMOND : SeriesMarkers.SQUARE);
                s.setMarkerColor(PALETTE[p % PALETTE.length]);
                // a legend entry per placement (its colour); the title gives the marker of each figure
                s.setShowInLegend(!legendPlacements.contains(p) && legendPlacements.add(p));
            }
            kind++;
        }
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    /** kernel-bitmap's configuration rows that have per-call figures by placement for {@code loop}, in row order. */
    static List<Integer> placementRows(Results r, KernelBitmapRow.Loop loop) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (configuration(r, i) != null && configuration(r, i).perCallByPlacement(loop) != null) {
                rows.add(i);
            }
        }
        return rows;
    }

    private static KernelBitmapRow.Configuration configuration(Results r, int i) {
        return r.row(i) instanceof KernelBitmapRow.Configuration c ? c : null;
    }

    /**
     * Graph lookups: median ns/event per graph and trace (x), one dot per layout. Refused or missing
     * layouts have no dot. Every layout on one chart: past {@link #MAX_SERIES} layouts,
     * {@link #graphByLayoutPanels}.
     */
    public static CategoryChart graphByLayout(Results r) {
        Table t = graphTable(r);
        return graphByLayout(t, layouts(t), layouts(t), "Graph lookups: ns per event by layout (median of batches)");
    }

    /**
     * {@link #graphByLayout}, at most {@link #MAX_SERIES} layouts a chart: {@code graph-by-layout.png} when
     * they fit, else a panel per family of layouts (the name without its last part: {@code dfa-min-words}
     * is a {@code dfa-min}), each beside the first family ({@code hash}, the baseline the speed-ups are
     * against). Panels share the y axis and a layout keeps its colour on each, so two panels read as one.
     */
    public static Map<String, CategoryChart> graphByLayoutPanels(Results r) {
        Table t = graphTable(r);
        List<String> layouts = layouts(t);
        Map<String, CategoryChart> charts = new LinkedHashMap<>();
        if (layouts.size() <= MAX_SERIES) {
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
        List<String> baseline = families.get(first).size() <= MAX_SERIES / 2 ? families.remove(first) : List.of();
        List<List<String>> panels = panels(List.copyOf(families.values()), MAX_SERIES - baseline.size());
        double[] range = graphRange(t, layouts);
        Set<String> slugs = new LinkedHashSet<>();
        for (List<String> panel : panels) {
            List<String> shown = new ArrayList<>(baseline);
            shown.addAll(panel);
            List<String> names = shown.stream()
                    .map(l -> l.contains("-") ? l.substring(0, l.lastIndexOf('-')) : l)
                    .distinct()
                    .toList();
            String slug = slug(String.join(
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
                logTicks(c.getStyler(), range[0], range[1]);
            }
            c.setYAxisTitle("ns per event" + (log ? " (log scale)" : ""));
            c.getStyler().setYAxisMin(log ? range[0] : 0.0);
            c.getStyler().setYAxisMax(range[1]);
            charts.put("graph-by-layout-" + unique(slugs, slug) + ".png", c);
        }
        return charts;
    }

    /** {@link Tables#graphByLayout}; an error when the folder has no graph rows. */
    private static Table graphTable(Results r) {
        Table t = Tables.graphByLayout(r);
        if (t.rowCount() == 0) {
            throw new IllegalArgumentException(r.dir() + " has no graph rows");
        }
        return t;
    }

    /** The layouts of a {@link Tables#graphByLayout} table: its columns after graph and trace. */
    private static List<String> layouts(Table t) {
        return List.copyOf(t.columnNames().subList(2, t.columnCount()));
    }

    /** The smallest and largest median of the given layouts. */
    private static double[] graphRange(Table t, List<String> layouts) {
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
    private static CategoryChart graphByLayout(Table t, List<String> layouts, List<String> colours, String title) {
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
        return categoryDots(title, "graph / trace", "ns per event", x, series, colours);
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

    /** lanes: the median wall time of a batch by worker count (x), a series per variant. */
    public static CategoryChart wallByVariant(Results r) {
        return grid(
                r.lanes(),
                LanesRow::workers,
                LanesRow::variant,
                LanesRow::wallMsMedian,
                "workers",
                "Workload wall time by variant, ms (median of batches)",
                "wall time (ms)");
    }

    /** A dot per (category, series), log y past a 20× range, labels upright or turned when they are long. */
    /**
     * Dots by category, one series each (null: no dot), the project's style; a log y axis where the values span
     * more than a factor of 20 and are all positive. For a kind's own plots ({@code reproduce.<kind>}).
     */
    public static CategoryChart dots(
            String title, String xTitle, String yTitle, List<String> x, Map<String, List<Double>> series) {
        return categoryDots(title, xTitle, yTitle, x, series);
    }

    private static CategoryChart categoryDots(
            String title, String xTitle, String yTitle, List<String> x, Map<String, List<Double>> series) {
        return categoryDots(title, xTitle, yTitle, x, series, List.copyOf(series.keySet()));
    }

    /** As above, each series coloured by its place in {@code colours}, so that charts shown together agree. */
    private static CategoryChart categoryDots(
            String title,
            String xTitle,
            String yTitle,
            List<String> x,
            Map<String, List<Double>> series,
            List<String> colours) {
        boolean turn = x.stream().mapToInt(String::length).sum() > 80;
        CategoryChart c = new CategoryChartBuilder()
                .width(WIDTH)
                .height(turn ? HEIGHT + 120 : HEIGHT)
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
    private static void logTicks(AxesChartStyler s, double lo, double hi) {
        if (lo > 0 && hi > lo && Math.floor(Math.log10(hi)) - Math.ceil(Math.log10(lo)) < 1) {
            s.setYAxisLogarithmicDecadeOnly(false);
        }
    }

    private static final Marker[] MARKERS = {
        SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE, SeriesMarkers.TRIANGLE_UP
    };

    /**
     * Tail latency against host load, one series per row (the same what and call idle and loaded):
     * one point per run, x the load average sampled over that run ({@code load_avg_runs}), y that
     * run's p99 ({@code run_p99_ns}, else from samples.arrow). Rows without per-run loads fall back to
     * one point: the mean load and the row's {@code p99_ns}. Each series' legend gives its own loaded /
     * idle p99 ratio, so one call's move under load is not mistaken for the difference between calls.
     * Every row on one chart: for a folder with more than {@link #MAX_SERIES} rows, {@link #p99VsLoadPanels}.
     */
    public static XYChart p99VsLoad(Results r) {
        Map<String, LoadSeries> series = loadSeries(r);
        return p99VsLoad(
                series.values(), "p99 (ns) against host load: one series per row, its idle and loaded runs together");
    }

    /**
     * {@link #p99VsLoad}, at most {@link #MAX_SERIES} series a chart: {@code p99-vs-load.png} when every
     * row fits, else a panel per kind of floor (the part of a row's {@code what} before its comma:
     * "static floor", "three answers", ...), kinds with few rows sharing a panel while it has room and a kind
     * with more rows than that split in turn, so each colour and marker stands for one row.
     */
    public static Map<String, XYChart> p99VsLoadPanels(Results r) {
        Map<String, LoadSeries> series = loadSeries(r);
        Map<String, XYChart> charts = new LinkedHashMap<>();
        if (series.size() <= MAX_SERIES) {
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
        List<List<LoadSeries>> panels = panels(List.copyOf(byKind.values()), MAX_SERIES);
        Set<String> slugs = new LinkedHashSet<>();
        for (List<LoadSeries> panel : panels) {
            String kinds = String.join(
                    " and ", panel.stream().map(LoadSeries::kind).distinct().toList());
            charts.put(
                    "p99-vs-load-" + unique(slugs, slug(kinds)) + ".png",
                    p99VsLoad(
                            panel, "p99 (ns) against host load, " + kinds + ": a row's idle and loaded runs together"));
        }
        return charts;
    }

    /**
     * Groups (in order) packed into as few panels of at most {@code room} items as splitting them allows,
     * the panels about equal: a group stays whole on one panel unless it alone outgrows one, and a panel
     * is closed once the next group would take it past its even share, so nine items make panels of six
     * and three rather than of eight and one.
     */
    static <T> List<List<T>> panels(List<List<T>> groups, int room) {
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

    /**
     * One host-load series: a row (what and call), its runs' loads and p99s, and its p99 by load.
     *
     * @param kind the kind of floor, the part of {@code what} before its comma, for {@link #p99VsLoadPanels}
     */
    private record LoadSeries(
            String key, String kind, List<Double> loads, List<Double> p99s, Map<String, Double> p99ByLoad) {}

    /** Every host-load row's series, by what and call, in row order; an error when there are none. */
    private static Map<String, LoadSeries> loadSeries(Results r) {
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
            List<Double> loads = doubles(row.loadAvgRuns());
            List<Double> p99s = doubles(row.runP99Ns());
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
    private static XYChart p99VsLoad(Collection<LoadSeries> series, String title) {
        // The legend names each row with its own loaded / idle ratio: below the plot, a line each.
        XYChart c = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT + 22 * series.size())
                .title(title)
                .xAxisTitle("load average during the run (1 min)")
                .yAxisTitle("p99 of the run (ns)")
                .build();
        style(c);
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
            logTicks(c.getStyler(), lo, hi);
            c.setYAxisTitle("p99 of the run (ns, log scale)");
        }
        c.getStyler().setYAxisDecimalPattern("#,##0");
        int k = 0;
        for (LoadSeries l : series) {
            XYSeries s = c.addSeries(loadSeriesName(l.key(), l.p99ByLoad()), l.loads(), l.p99s());
            s.setMarker(MARKERS[k % MARKERS.length]);
            s.setMarkerColor(PALETTE[k % PALETTE.length]);
            k++;
        }
        return c;
    }

    /** A host-load series' legend entry: the row, and its loaded / idle p99 when both were measured. */
    static String loadSeriesName(String row, Map<String, Double> p99ByLoad) {
        String name = row.length() > 40 ? row.substring(0, 39) + "…" : row;
        Double idle = p99ByLoad == null ? null : p99ByLoad.get("idle");
        Double loaded = p99ByLoad == null ? null : p99ByLoad.get("loaded");
        return idle != null && loaded != null && idle > 0
                ? String.format(Locale.ROOT, "%s: p99 loaded/idle %.2f×", name, loaded / idle)
                : name;
    }

    /**
     * ECDFs of arbitrary samples (ns), one line per entry: for samples measured in a notebook. Each
     * line is drawn from at most {@link Ecdf#MAX_POINTS} points.
     */
    public static XYChart ecdf(String title, Map<String, double[]> series) {
        return ecdf(title, "time per call", "ns", series);
    }

    /**
     * As {@link #ecdf(String, Map)} for values of another quantity: the x axis reads
     * {@code quantity (unit)}, e.g. {@code ("wall time of a batch", "ms")}.
     */
    public static XYChart ecdf(String title, String quantity, String unit, Map<String, double[]> series) {
        List<Line> lines = new ArrayList<>();
        int k = 0;
        for (var e : series.entrySet()) {
            if (e.getValue().length > 0) {
                lines.add(new Line(e.getKey(), Ecdf.of(e.getValue()), PALETTE[k++ % PALETTE.length], false));
            }
        }
        return ecdfChart(title, lines, quantity, unit);
    }

    /** One ECDF line of a chart. */
    private record Line(String label, Ecdf ecdf, Color colour, boolean thin, boolean inLegend) {
        Line(String label, Ecdf ecdf, Color colour, boolean thin) {
            this(label, ecdf, colour, thin, true);
        }
    }

    /**
     * The chart of ECDF lines: log x when the plotted range spans more than 30×, so a tail shows without hiding the
     * body.
     */
    private static XYChart ecdfChart(String title, List<Line> lines) {
        return ecdfChart(title, lines, "time per call", "ns");
    }

    private static XYChart ecdfChart(String title, List<Line> lines, String quantity, String unit) {
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
        boolean legendBelow = entries > MAX_INSIDE_LEGEND || inside == Styler.LegendPosition.OutsideS;
        XYChart c = new XYChartBuilder()
                .width(WIDTH)
                .height(legendBelow ? HEIGHT + 18 * (int) entries : HEIGHT)
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
    private static Color lighter(Color c) {
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }

    /** "p50 250 ns, p99 361 ns" for a legend. */
    private static String quantiles(Ecdf e) {
        return "p50 " + ns(e.median()) + ", p99 " + ns(e.p99()) + ", max " + ns(e.max());
    }

    /** A time for a legend: ns below a microsecond, then µs, then ms. */
    static String ns(double v) {
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
    static List<String> compactLabels(Results r, List<Integer> rows) {
        return compactLabels(r, rows, 88);
    }

    static List<String> compactLabels(Results r, List<Integer> rows, int width) {
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

    static String slug(String s) {
        String out = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
        return out.isEmpty() ? "rows" : out;
    }

    private static String unique(Set<String> taken, String slug) {
        String s = slug;
        for (int n = 2; !taken.add(s); n++) {
            s = slug + "-" + n;
        }
        return s;
    }

    private static void style(Chart<?, ?> c) {
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
    private static String label(Results r, int i) {
        String l = r.label(i);
        return l.length() > 80 ? l.substring(0, 79) + "…" : l;
    }
}
