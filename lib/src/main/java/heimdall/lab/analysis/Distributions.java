package heimdall.lab.analysis;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.Io;
import heimdall.lab.JsonInput;
import heimdall.lab.Printable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SampleCounts;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * {@code distributions.json}: a results folder's samples reduced to what its ECDFs, p99s and tail
 * plots need, small enough for git ({@code samples.arrow} is hundreds of MB and stays out).
 *
 * <p>Per-call samples (floor, broker, load, attach and kernel-bitmap folders): one series per row and
 * variant, as samples.arrow keys them, with its run and sample counts and the nearest-rank value at
 * every quantile of one fixed grid, {@code quantiles} at the top of the file: 1,001 evenly spaced
 * (0, 0.001, …, 1; 0 is the minimum, 1 the maximum) plus 20 a decade from 0.99 to 1 − 10⁻⁷, where a
 * tail plot spends its width. Each value is exact (an order statistic of every sample of the series,
 * runs together), so the median and p99 are those of the samples. Values are stored as {@code ns_delta}:
 * the first value, then each value's difference to the one before (sorted values: mostly small
 * numbers, about a third of the size of the values themselves; {@code numpy.cumsum} undoes it).
 *
 * <p>Batch samples (graph-lookup, lanes: a few values a row) are kept whole under {@code batches}, a
 * column-wise copy of samples.arrow, so {@link Results#samples()} gives the same table.
 *
 * <p>Written once next to samples.arrow ({@link #distill}); never overwritten.
 */
public final class Distributions {
    /** The file's name in a results folder. */
    public static final String FILE = "distributions.json";
    /** The format written into the file ({@code format}); a reader refuses any other. */
    public static final String FORMAT = "heimdall-lab distributions 1";
    /** Batch files above this many samples are not copied (they would not be small). */
    static final int BATCH_LIMIT = 200_000;

    /** Strict: a key twice (a series' field, a batches column) or content after the object is refused. */
    private static final ObjectMapper JSON = JsonInput.strict(new ObjectMapper());
    /** A distributions.json is tens of KB to a few MB; 64 MiB bounds what is read. */
    static final long MAX_BYTES = 64L << 20;

    private static final double[] GRID = grid();

    /** One row and variant's distribution. */
    record Series(int row, String variant, int runs, long count, Ecdf ecdf) {}

    private final Map<SampleKey, Series> series;
    private final Table batches;

    private Distributions(Map<SampleKey, Series> series, Table batches) {
        this.series = series;
        this.batches = batches;
    }

    /** The fixed quantile grid, ascending (a copy). */
    public static double[] quantiles() {
        return GRID.clone();
    }

    private static double[] grid() {
        TreeSet<Double> q = new TreeSet<>();
        for (int i = 0; i <= 1000; i++) {
            q.add(i / 1000.0);
        }
        for (int j = 1; j <= 100; j++) {
            // 1 − q from 10⁻² down to 10⁻⁷, three significant digits so the file shows round numbers
            String tail = String.format(Locale.ROOT, "%.3g", Math.pow(10, -2 - j / 20.0));
            q.add(BigDecimal.ONE.subtract(new BigDecimal(tail)).doubleValue());
        }
        return q.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Writes {@code dir/distributions.json} from {@code dir/samples.arrow}. Bad input when the folder
     * has no samples.arrow, or already has a distributions.json (results are never overwritten).
     *
     * @return the file written
     */
    public static Path distill(Path dir) {
        Path samples = dir.resolve("samples.arrow");
        Path out = dir.resolve(FILE);
        if (!Files.exists(samples, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(samples + ": missing; distributions are made from it");
        }
        if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(out + ": exists; results are never overwritten");
        }
        String json;
        try {
            if (DistillInput.perCall(samples, SamplesReader.columnsOf(samples))) {
                List<SeriesJson> series = new ArrayList<>();
                for (var e : SamplesReader.readCallSamples(samples).entrySet()) {
                    series.add(seriesJson(samples, e.getKey(), e.getValue()));
                }
                json = seriesFile(series);
            } else {
                Table t = SamplesReader.readArrow(samples, BATCH_LIMIT);
                DistillInput.batches(samples, t);
                Map<String, List<?>> cols = new LinkedHashMap<>(); // column name -> its values, in file order
                for (Column<?> c : t.columns()) {
                    cols.put(c.name(), c.asList());
                }
                json = head() + ",\n\"batches\": " + JSON.writeValueAsString(cols) + "\n}\n";
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + out, e);
        } catch (IllegalStateException tooMany) {
            throw new BadInput(samples + ": " + tooMany.getMessage(), tooMany);
        }
        writeWhole(samples, out, json);
        return out;
    }

    private static String head() throws IOException {
        return "{\"format\": " + JSON.writeValueAsString(FORMAT) + ",\n\"source\": \"samples.arrow\"";
    }

    /** A per-call distributions.json: the grid, then one series a line, in samples.arrow's order. */
    private static String seriesFile(List<SeriesJson> series) throws IOException {
        StringBuilder json = new StringBuilder(head());
        json.append(",\n\"quantiles\": ").append(JSON.writeValueAsString(GRID)).append(",\n\"series\": [");
        boolean first = true;
        for (SeriesJson s : series) {
            json.append(first ? "\n" : ",\n").append(JSON.writeValueAsString(s));
            first = false;
        }
        return json.append("\n]\n}\n").toString();
    }

    /**
     * Writes {@code json} as {@code out}, made from {@code source}, after reading it back with
     * {@link #read}'s rules: a distributions.json its own reader would refuse is never written (the
     * guard behind {@link DistillInput}'s checks), and the refusal names the source.
     */
    private static void writeWhole(Path source, Path out, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        try {
            parse(out, bytes);
        } catch (BadInput unreadable) {
            throw new BadInput(
                    Printable.of(source) + ": cannot be distilled: the " + FILE + " made from it would not read back ("
                            + unreadable.getMessage() + "); nothing written",
                    unreadable);
        }
        try {
            // whole or not at all: a full disk leaves no part-written distributions.json to refuse later
            SafeFiles.writeNew(out, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out, e);
        }
    }

    /**
     * After a run: writes distributions.json beside the folder's samples.arrow, if there is one and no
     * distributions.json yet. A failure costs the compact copy, never the measurements: it is reported
     * through {@code progress} and the run goes on.
     */
    public static void writeBeside(Path folder, Consumer<String> progress) {
        if (!Files.isRegularFile(folder.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(folder.resolve(FILE), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            Path out = distill(folder);
            progress.accept(written(out, t0));
        } catch (IOException | RuntimeException e) {
            progress.accept("distributions: not written: " + (e instanceof BadInput ? e.getMessage() : e));
        }
    }

    /**
     * After a run, from what it holds in memory: writes distributions.json into the folder from the
     * counts its samples file kept while the samples were appended ({@link ResultsFolder#createSamples}),
     * so samples.arrow is not read back; the file is the one {@link #distill} would write from it, byte
     * for byte (every value an exact order statistic either way). A folder whose samples were not counted
     * goes the way of {@link #writeBeside(Path, java.util.function.Consumer)}. A failure costs the compact
     * copy, never the measurements: it is reported through {@code progress} and the run goes on.
     */
    public static void writeBeside(ResultsFolder folder, Consumer<String> progress) {
        SampleCounts counts =
                folder.written().map(ResultsFolder.Written::counts).orElse(null);
        Path dir = folder.path();
        if (counts == null) {
            writeBeside(dir, progress);
            return;
        }
        Path out = dir.resolve(FILE);
        if (!Files.isRegularFile(dir.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                || Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        long t0 = System.nanoTime();
        try {
            List<SeriesJson> series = new ArrayList<>();
            counts.series().forEach((k, v) -> series.add(seriesJson(k, v)));
            writeWhole(dir.resolve("samples.arrow"), out, seriesFile(series));
            progress.accept(written(out, t0));
        } catch (IOException | RuntimeException e) {
            progress.accept("distributions: not written: " + (e instanceof BadInput ? e.getMessage() : e));
        }
    }

    /** The progress line of a distributions.json written: where, its size, how long it took. */
    private static String written(Path out, long t0) throws IOException {
        return String.format(
                Locale.ROOT,
                "distributions: %s (%,d bytes, %.2f s)",
                out,
                Files.size(out),
                (System.nanoTime() - t0) / 1e9);
    }

    /** A counted series as distributions.json writes it: the same order statistics as from every sample sorted. */
    private static SeriesJson seriesJson(SampleCounts.Key key, SampleCounts.Series s) {
        if (s.count() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("row " + key.row() + " " + key.variant() + ": " + s.count()
                    + " samples, more than one series can hold");
        }
        int n = (int) s.count();
        int[] ranks = new int[n == 0 ? 0 : GRID.length];
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = Ecdf.rank(n, GRID[k]);
        }
        return new SeriesJson(key.row(), key.variant(), s.runs(), n, deltas(s.valuesAtRanks(ranks)));
    }

    /** Each value's difference to the one before (the first: to 0). */
    private static long[] deltas(long[] values) {
        long[] delta = new long[values.length];
        long prev = 0;
        for (int k = 0; k < values.length; k++) {
            delta[k] = values[k] - prev;
            prev = values[k];
        }
        return delta;
    }

    /** One series of distributions.json as written: its fields in this order. */
    @JsonPropertyOrder({"row", "variant", "runs", "count", "ns_delta"})
    record SeriesJson(
            @JsonProperty("row") int row,
            @JsonProperty("variant") String variant,
            @JsonProperty("runs") int runs,
            @JsonProperty("count") int count,
            @JsonProperty("ns_delta") long[] nsDelta) {}

    private static SeriesJson seriesJson(Path samples, SampleKey key, long[][] runs) {
        long[] all = heimdall.lab.bench.Stats.concat(runs);
        Arrays.sort(all);
        DistillInput.span(samples, key, all);
        long[] delta = new long[all.length == 0 ? 0 : GRID.length];
        long prev = 0;
        for (int k = 0; k < delta.length; k++) {
            long v = all[Ecdf.rank(all.length, GRID[k])];
            delta[k] = v - prev;
            prev = v;
        }
        return new SeriesJson(key.row(), key.variant(), runs.length, all.length, delta);
    }

    /** Reads a folder's distributions.json; bad input naming the file and field when it is not one. */
    public static Distributions read(Path file) {
        // No link followed, no FIFO waited on, regular files only, bounded (HostileFiles); parsed from that copy.
        return parse(file, HostileFiles.read(file, MAX_BYTES));
    }

    /** {@link #read} of {@code bytes}, the whole of {@code file} read once (or about to be written as it). */
    static Distributions parse(Path file, byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw BadInput.at(file, "file", bytes.length + " bytes, more than the " + MAX_BYTES + " a reader takes");
        }
        JsonNode top;
        try {
            top = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw JsonInput.notJson(file, e);
        } catch (IOException e) {
            throw Io.failed(file, "read", e);
        }
        if (top == null || !top.isObject()) {
            throw BadInput.at(file, "(top level)", "expected an object");
        }
        if (!FORMAT.equals(top.path("format").asText(null))) {
            throw BadInput.at(file, "format", "expected \"" + FORMAT + "\", found " + top.get("format"));
        }
        Map<SampleKey, Series> series = new LinkedHashMap<>();
        JsonNode list = top.get("series");
        if (list != null) {
            double[] q = doubles(file, "quantiles", top.get("quantiles"));
            for (int k = 1; k < q.length; k++) {
                if (!(q[k] > q[k - 1]) || q[0] < 0 || q[k] > 1) {
                    throw BadInput.at(file, "quantiles", "expected ascending fractions from 0 to 1");
                }
            }
            if (!list.isArray()) {
                throw BadInput.at(file, "series", "expected an array");
            }
            for (int i = 0; i < list.size(); i++) {
                Series s = series(file, "series[" + i + "]", list.get(i), q);
                if (series.put(new SampleKey(s.row(), s.variant()), s) != null) {
                    throw BadInput.at(
                            file, "series[" + i + "]", "row " + s.row() + " variant " + s.variant() + " appears twice");
                }
            }
        }
        Table batches = top.has("batches") ? batches(file, top.get("batches")) : null;
        return new Distributions(series, batches);
    }

    private static Series series(Path file, String at, JsonNode n, double[] q) {
        if (n == null
                || !n.isObject()
                || !n.path("row").canConvertToInt()
                || !n.path("variant").isTextual()
                || !n.path("runs").canConvertToInt()
                || !n.path("count").canConvertToLong()) {
            throw BadInput.at(file, at, "expected an object with row, variant, runs, count and ns_delta");
        }
        long count = n.get("count").asLong();
        if (count < 0 || count > Integer.MAX_VALUE || n.get("row").asInt() < 0) {
            throw BadInput.at(file, at + ".count", "out of range: " + count);
        }
        double[] delta = doubles(file, at + ".ns_delta", n.get("ns_delta"));
        if (delta.length != (count == 0 ? 0 : q.length)) {
            throw BadInput.at(file, at + ".ns_delta", delta.length + " values for " + q.length + " quantiles");
        }
        double[] v = new double[delta.length];
        for (int k = 0; k < v.length; k++) {
            if (k > 0 && delta[k] < 0) {
                throw BadInput.at(file, at + ".ns_delta", "negative step at " + k + ": values must not decrease");
            }
            v[k] = (k == 0 ? 0 : v[k - 1]) + delta[k];
        }
        return new Series(
                n.get("row").asInt(),
                n.get("variant").asText(),
                n.get("runs").asInt(),
                count,
                Ecdf.ofQuantiles(q, v, (int) count));
    }

    private static double[] doubles(Path file, String at, JsonNode n) {
        if (n == null || !n.isArray()) {
            throw BadInput.at(file, at, "expected an array of numbers");
        }
        double[] out = new double[n.size()];
        for (int k = 0; k < out.length; k++) {
            if (!n.get(k).isNumber()) {
                throw BadInput.at(file, at + "[" + k + "]", "expected a number, found " + n.get(k));
            }
            out[k] = n.get(k).asDouble();
        }
        return out;
    }

    private static Table batches(Path file, JsonNode n) {
        if (!n.isObject()) {
            throw BadInput.at(file, "batches", "expected an object of columns");
        }
        List<Column<?>> columns = new ArrayList<>();
        int size = -1;
        for (var it = n.fields(); it.hasNext(); ) {
            var e = it.next();
            String at = "batches." + e.getKey();
            JsonNode values = e.getValue();
            if (!values.isArray() || (size >= 0 && values.size() != size)) {
                throw BadInput.at(file, at, "expected an array as long as the other columns");
            }
            size = values.size();
            boolean whole = true;
            for (JsonNode v : values) {
                if (!v.isNumber()) {
                    throw BadInput.at(file, at, "expected numbers, found " + v);
                }
                whole &= v.canConvertToInt() && v.isIntegralNumber();
            }
            // samples.arrow's row and sample columns are int32, the measured values float64 or int64
            if (whole && (e.getKey().equals("row") || e.getKey().equals("sample"))) {
                IntColumn c = IntColumn.create(e.getKey());
                values.forEach(v -> c.append(v.asInt()));
                columns.add(c);
            } else if (values.size() > 0 && values.get(0).isIntegralNumber() && whole) {
                LongColumn c = LongColumn.create(e.getKey());
                values.forEach(v -> c.append(v.asLong()));
                columns.add(c);
            } else {
                DoubleColumn c = DoubleColumn.create(e.getKey());
                values.forEach(v -> c.append(v.asDouble()));
                columns.add(c);
            }
        }
        return Table.create("samples", columns);
    }

    /** Whether there is a per-call series of this row and variant. */
    public boolean has(int row, String variant) {
        return series.containsKey(new SampleKey(row, variant));
    }

    /** This row and variant's ECDF from its quantiles; empty (count 0) when there is none. */
    public Ecdf ecdf(int row, String variant) {
        Series s = series.get(new SampleKey(row, variant));
        return s == null ? Ecdf.of(new long[0]) : s.ecdf();
    }

    /** How many runs this row and variant had; 0 when there is no series. */
    public int runs(int row, String variant) {
        Series s = series.get(new SampleKey(row, variant));
        return s == null ? 0 : s.runs();
    }

    /** Whether the file holds per-call series (rather than batches). */
    public boolean hasSeries() {
        return !series.isEmpty();
    }

    /** The variants, in file order. */
    public List<String> variants() {
        return series.keySet().stream().map(SampleKey::variant).distinct().toList();
    }

    /** The rows with a series, ascending. */
    public List<Integer> rows() {
        return series.keySet().stream().map(SampleKey::row).distinct().sorted().toList();
    }

    /** The batch samples as samples.arrow held them, or null when the file has per-call series. */
    public Table batches() {
        return batches;
    }
}
