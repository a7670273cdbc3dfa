package heimdall.lab.analysis;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.SafeFiles;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * XChart plots of a {@link Results} folder, the one place they are written: {@link #all} asks the folder's kind
 * for its plots ({@link KindPlots}, each kind's family in its own package, {@code reproduce.<kind>}), {@link #save},
 * {@link #saveAll} and {@link #writeInto} write them as PNG, {@link #image} returns one as a {@link BufferedImage}
 * (which any Java Jupyter kernel, stock IJava included, shows inline), {@link #ecdf} draws any samples. The charts
 * are built with the kit in {@link Charts} (styles, labels, ECDFs, dots) and, for rows timed call by call, the
 * families in {@link CallPlots}.
 *
 * <p>Each plot has a title, axis titles with units and a legend. Distribution plots draw each curve from at most
 * {@link Ecdf#MAX_POINTS} order statistics, so millions of samples plot in milliseconds.
 */
public final class Plots {
    /** Default size in pixels. */
    public static final int WIDTH = 900;

    public static final int HEIGHT = 520;
    /** Runs past which a run-values chart leaves its runs out of the legend (they would not fit). */
    public static final int MAX_RUN_LEGEND = 7;
    /** More ECDF lines than this and the legend goes below the plot, where it hides no curve. */
    static final int MAX_INSIDE_LEGEND = 8;
    /** The most series a chart draws: past eight, colours repeat and the legend outgrows the plot. */
    public static final int MAX_SERIES = 8;

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
     * Every plot that applies to the folder's rows, by file name, as the folder's kind draws them (its plots facet,
     * {@link KindPlots}, in its own package {@code reproduce.<kind>}): for rows timed call by call one
     * {@code distribution-<group>.png} per {@link CallPlots#floorGroups floor group} and
     * {@code run-medians-<section>.png} per {@link CallPlots#sections section}, and each kind's own families
     * (floor-cost's {@code broker-cdf-<answer>.png}, host-load's {@code p99-vs-load.png}, graph-lookup's
     * {@code graph-by-layout.png}, ...). A kind that draws nothing has none.
     */
    public static Map<String, Chart<?, ?>> all(Results r) {
        // each kind draws its own families (its plots facet), over the kit in Charts and CallPlots
        return r.kind() instanceof KindPlots p ? p.plots(r) : new LinkedHashMap<>();
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
        List<Charts.Line> lines = new ArrayList<>();
        int k = 0;
        for (var e : series.entrySet()) {
            if (e.getValue().length > 0) {
                lines.add(new Charts.Line(
                        e.getKey(), Ecdf.of(e.getValue()), Charts.PALETTE[k++ % Charts.PALETTE.length], false));
            }
        }
        return Charts.ecdfChart(title, lines, quantity, unit);
    }
}
