package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.arrow.ArrowInput;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SampleCounts;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.EnvironmentInfo;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.HostLoadRow;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.MeasuredCallRow;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.Summary;
import heimdall.lab.results.SummaryJson;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * A results folder ({@code results/<date>-<host>-<reproduction>/}) loaded for analysis: {@code summary.json}
 * as typed rows of the reproduction that wrote it ({@link #kind}, {@link #rows(Class)}, {@link #floorCost()}
 * and the like) and as a table (one row per measured row, {@code row} = its index), {@code samples.arrow}
 * as a long table and {@code environment.json} as {@link EnvironmentInfo}.
 *
 * <p>Scalar fields become columns (numbers: {@code long} when every value is whole, else
 * {@code double}; booleans; strings); the {@code published} object is flattened into
 * {@code published_<name>} columns; lists such as {@code run_medians_ns} stay in the typed rows.
 *
 * <p>Samples: a full floor-cost run holds about a hundred million, far too many for a table row
 * each. {@link #samplesOf} reads {@code samples.arrow} once, in one streaming pass, into a
 * {@code long[]} per (row, variant, run) — eight bytes a sample — and keeps them for later calls.
 * {@link #samples()} (a Tablesaw table) is for small folders only and refuses large ones.
 */
public final class Results implements Displayable {
    private final Path dir;
    private final List<JsonNode> rowTrees;
    private final Table summary;
    private final JsonNode environment;
    private Table samples;
    private Map<SampleKey, long[][]> grouped;
    private Distributions distilled;
    private final Map<SampleKey, Ecdf> ecdfs = new HashMap<>();
    /**
     * The samples as the run that measured them counted them ({@link #written}), or null for a folder
     * loaded from disk; when set, samples.arrow is never read.
     */
    private SampleCounts counted;

    /** Above this many samples {@link #samples()} refuses: a Tablesaw row each would not fit. */
    public static final long TABLE_SAMPLES_LIMIT = 5_000_000;

    record SampleKey(int row, String variant) {}

    private final Summary typed;
    private final EnvironmentInfo env;

    private Results(
            Path dir,
            Summary typed,
            EnvironmentInfo env,
            List<JsonNode> rowTrees,
            Table summary,
            JsonNode environment) {
        this.typed = typed;
        this.env = env;
        this.dir = dir;
        this.rowTrees = rowTrees;
        this.summary = summary;
        this.environment = environment;
    }

    /**
     * Loads a results folder: its rows typed as the reproduction that wrote it (summary.json names it;
     * folders from before it did take the one their environment.json recorded). Bad input, naming the
     * file and field, when it does not hold the contract: a row field no reproduction writes, an
     * identifying field missing, a value of the wrong type.
     */
    public static Results load(Path dir) {
        // Opened as compare opens a folder: no link followed at the folder or a file, no FIFO waited on.
        return CompareFiles.load(dir);
    }

    /**
     * A folder from its files' bytes, each read once ({@code environmentBytes} null when the folder has
     * none): the typed rows, the table and the rows' JSON trees all come from that one copy.
     */
    static Results parse(Path dir, byte[] summaryBytes, byte[] environmentBytes) {
        Path summaryFile = dir.resolve("summary.json");
        JsonNode top = SummaryJson.tree(summaryFile, summaryBytes);
        JsonNode envTree =
                environmentBytes == null ? null : SummaryJson.tree(dir.resolve("environment.json"), environmentBytes);
        Summary typed = SummaryJson.parse(dir, top, envTree);
        EnvironmentInfo envInfo = SummaryJson.environment(dir, envTree);
        // Schema 2 wraps the rows with the run's facts; schema 1 (older folders) is the bare array: parse checked it.
        JsonNode node = top.isObject() ? top.get("rows") : top;
        List<JsonNode> trees = new ArrayList<>();
        // deep copies: a caller of rowJson cannot change what the typed rows and the table were made from
        node.forEach(r -> trees.add(r.deepCopy()));
        return new Results(dir, typed, envInfo, List.copyOf(trees), summaryTable(node), envTree);
    }

    /**
     * The folder a run is writing, from what it holds in memory ({@link heimdall.lab.bench.ResultsFolder#written}):
     * summary.json and environment.json parsed from the bytes written (so the rows are those a reload
     * gives) and the samples from their exact counts, so that nothing is read back from disk, above all
     * not samples.arrow. Its ECDFs, medians and p99s equal a reload's; per-run samples
     * ({@link #samplesOf}) are not kept. Without counts (no samples file made through the folder), the
     * samples are read from the folder as {@link #load} does. Empty when the run wrote no summary.json.
     */
    static Optional<Results> written(ResultsFolder folder) {
        return folder.written().map(w -> {
            Results r = parse(folder.path(), w.summary(), w.environment());
            r.counted = w.counts();
            return r;
        });
    }

    /** The counted series of a run in memory, by key. */
    private Map<SampleKey, SampleCounts.Series> countedSeries() {
        Map<SampleKey, SampleCounts.Series> out = new LinkedHashMap<>();
        counted.series().forEach((k, v) -> out.put(new SampleKey(k.row(), k.variant()), v));
        return out;
    }

    /** The ECDF of a counted series: the order statistics {@link Ecdf#of} would pick from the sorted samples. */
    static Ecdf ecdfOfCounted(SampleCounts.Series s) {
        if (s.count() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException(s.count() + " samples in one series do not fit one array");
        }
        int n = (int) s.count();
        if (n == 0) {
            return Ecdf.of(new long[0]);
        }
        int[] ranks = Ecdf.indices(n); // ascending, and holding the median's and the p99's ranks
        long[] values = s.valuesAtRanks(ranks);
        return Ecdf.ofSorted(n, i -> values[Arrays.binarySearch(ranks, i)]);
    }

    /** The reproduction that wrote this folder, which says the type of its rows. */
    public ReproductionKind<?, ?> kind() {
        return typed.kind();
    }

    /** summary.json's schema: 1 (a bare array, older folders) or 2. */
    public int schemaVersion() {
        return typed.schemaVersion();
    }

    /** The reproduction that wrote this folder (summary.json's, or an older folder's environment.json's). */
    public String reproduction() {
        return kind().name();
    }

    /**
     * Folders of one reproduction lined up row by row, one table row per (row, folder), with each
     * folder's host, kernel, CPU, clocksource, PTI and own seccomp filters ({@link Compare}); its
     * {@link Compare#changes()} is the change detection as a table: each later folder against the first,
     * B/A with its interval, the U test's p-value and the verdict.
     *
     * @throws BadInput naming the folders when they are of different reproductions, a reproduction
     *     compare does not support, or a schema it cannot read; or when fewer than two are given
     */
    public static Compare compare(Results... folders) {
        return Compare.of(List.of(folders));
    }

    /**
     * {@link #compare(Results...)} over folders read for the purpose: each folder and its
     * {@code summary.json}/{@code environment.json} opened without following a symbolic link, regular
     * files only, each read once ({@link CompareFiles}).
     */
    public static Compare compare(Path... dirs) {
        return Compare.load(List.of(dirs));
    }

    /** summary.json's rows, typed ({@link ReproductionKind#rowType()} of {@link #kind}), in row order. */
    public List<ResultRow> resultRows() {
        return typed.rows();
    }

    /** Row {@code i}, typed. */
    public ResultRow row(int i) {
        return typed.rows().get(i);
    }

    /**
     * The rows as {@code type}: all of them for this folder's row type, those of one kind for a
     * kind of it ({@code KernelBitmapRow.Configuration}); IllegalArgumentException for a type this
     * folder's reproduction does not write.
     */
    public <T extends ResultRow> List<T> rows(Class<T> type) {
        return typed.rows(type);
    }

    /** A floor-cost folder's rows (IllegalArgumentException for another reproduction's folder). */
    public List<FloorCostRow> floorCost() {
        return rows(FloorCostRow.class);
    }

    /** A host-load folder's rows. */
    public List<HostLoadRow> hostLoad() {
        return rows(HostLoadRow.class);
    }

    /** A floor-cost or host-load folder's rows: a call timed under a floor and without one. */
    public List<MeasuredCallRow> measuredCalls() {
        return rows(MeasuredCallRow.class);
    }

    /** An attach-cost folder's rows. */
    public List<AttachCostRow> attachCost() {
        return rows(AttachCostRow.class);
    }

    /** A kernel-bitmap folder's rows (configurations, estimates, expectations, the agreement). */
    public List<KernelBitmapRow> kernelBitmap() {
        return rows(KernelBitmapRow.class);
    }

    /** A graph-lookup folder's rows. */
    public List<GraphLookupRow> graphLookup() {
        return rows(GraphLookupRow.class);
    }

    /** A {@code ./lab graph jmh} folder's row. */
    public List<GraphJmhRow> graphJmh() {
        return rows(GraphJmhRow.class);
    }

    /** A lanes folder's rows. */
    public List<LanesRow> lanes() {
        return rows(LanesRow.class);
    }

    /** A kernel-matrix folder's rows. */
    public List<KernelMatrixRow> kernelMatrix() {
        return rows(KernelMatrixRow.class);
    }

    /** A follower-cost folder's rows. */
    public List<FollowerCostRow> followerCost() {
        return rows(FollowerCostRow.class);
    }

    /** environment.json, typed (null when the folder has none). */
    public EnvironmentInfo env() {
        return env;
    }

    /**
     * environment.json as its JSON tree (null when the folder has none), for showing it whole
     * ({@link Tables#environment}); a reproduction's own settings are only here.
     */
    public JsonNode environmentJson() {
        return environment;
    }

    /**
     * Whether a signal stopped the run before every row had all its runs ({@code summary.json}'s
     * {@code interrupted}; each row then says how many runs it completed).
     */
    public boolean interrupted() {
        return typed.interrupted();
    }

    /** How the run was stopped, as it was announced ({@code "terminated (SIGTERM)"}), or null. */
    public String interruption() {
        return typed.interruption();
    }

    /** The folder this was loaded from. */
    public Path dir() {
        return dir;
    }

    /** The headline: the folder, its reproduction, rows, whether interrupted, the host it ran on. */
    @Override
    public Table headline() {
        return Headline.of("results: " + (dir.getFileName() == null ? dir : dir.getFileName()))
                .row("reproduction", reproduction())
                .row("rows", resultRows().size())
                .row("interrupted", interrupted() ? "yes: " + interruption() : "no")
                .row("host", env == null ? "(no environment.json)" : env.hostname() + ", kernel " + env.kernelRelease())
                .row("started", env == null || env.started() == null ? "" : env.started())
                .row("schema", schemaVersion())
                .row("folder", dir)
                .table();
    }

    /** The summary, one row a result row ({@link Tables#summary}). */
    @Override
    public Table detail() {
        return Tables.summary(this);
    }

    /** Most lines a plot of {@link #chart()} may hold and stay readable (one legend entry each). */
    private static final int CHART_SERIES = 16;

    /**
     * The first of the folder's plots ({@link Plots#all}) with at most 16 lines; for a folder of more
     * rows than that (a sweep saved whole), the added cost of its first 40 rows as bars; null when
     * neither applies.
     */
    @Override
    public Chart<?, ?> chart() {
        var readable = Plots.all(this).values().stream()
                .filter(c -> c.getSeriesMap().size() <= CHART_SERIES)
                .findFirst();
        if (readable.isPresent() || !summary.columnNames().contains("added_ns")) {
            return readable.orElse(null);
        }
        List<String> labels = new ArrayList<>();
        List<Number> added = new ArrayList<>();
        for (int i = 0; i < summary.rowCount() && labels.size() < 40; i++) {
            if (!summary.column("added_ns").isMissing(i)) {
                List<String> parts = labelParts(i);
                labels.add(i + ": " + parts.get(parts.size() - 1));
                added.add(((Number) summary.column("added_ns").get(i)).longValue());
            }
        }
        if (labels.isEmpty()) {
            return null;
        }
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("added cost by row: " + dir.getFileName())
                .xAxisTitle("row")
                .yAxisTitle("added ns")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(75);
        chart.getStyler()
                .setAxisTickLabelsFont(chart.getStyler().getAxisTickLabelsFont().deriveFont(9f));
        chart.addSeries("added ns", labels, added);
        return chart;
    }

    /** The headline, one figure a line, and the summary's first rows. */
    @Override
    public String toString() {
        return text();
    }

    /** summary.json as a table; column {@code row} is the row's index (samples' {@code row}). */
    public Table summary() {
        return summary;
    }

    /**
     * Row {@code i} of summary.json as its JSON tree, a copy, for {@link Compare}, which reads the
     * fields its {@link CompareSpec} names for any reproduction; everything else reads the typed rows.
     */
    JsonNode rowJson(int i) {
        return rowTrees.get(i).deepCopy();
    }

    /** Whether this is a graph folder (graph-lookup, graph jmh): rows of a graph, trace and layout. */
    public boolean hasGraphRows() {
        return kind().rowType() == GraphLookupRow.class || kind().rowType() == GraphJmhRow.class;
    }

    /**
     * samples.arrow as a table, for small folders (graph folders, tiny runs): floor/broker/load folders
     * give {@code row, variant, run, seq, ns}; graph folders give {@code row, sample, ns_per_event}.
     * Refused (IllegalStateException) when the file holds more than {@link #TABLE_SAMPLES_LIMIT}
     * samples: use {@link #samplesOf} for those.
     */
    public synchronized Table samples() {
        if (samples == null && distilledOnly() && distilled().batches() != null) {
            samples = distilled().batches().copy();
        }
        if (samples == null) {
            samples = readArrow(dir.resolve("samples.arrow"), TABLE_SAMPLES_LIMIT);
        }
        return samples;
    }

    /** Whether samples.arrow holds per-call samples of floor-style rows (row, variant, run, ns). */
    public boolean hasCallSamples() {
        if (counted != null) {
            return true; // a SamplesFile holds per-call samples
        }
        Path file = dir.resolve("samples.arrow");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return distilledOnly() && distilled().hasSeries();
        }
        return isCallSampleFile(file);
    }

    /**
     * Whether only the compact distributions are here: no samples.arrow (it stays out of git) but a
     * {@link Distributions#FILE}. ECDFs, medians and p99s then come from it; per-run samples do not.
     */
    public boolean distilledOnly() {
        return counted == null
                && !Files.exists(dir.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(dir.resolve(Distributions.FILE), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Whether the folder's distributions can be drawn: it has samples.arrow, or distributions.json in
     * its place. Folders made before distributions.json existed, whose samples.arrow is gone, have
     * neither: their summaries load, their distribution charts cannot be redrawn.
     */
    public boolean hasSampleData() {
        // Anything at the name counts: reading it then says why a link or FIFO there is refused.
        return counted != null
                || Files.exists(dir.resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS)
                || distilledOnly();
    }

    private synchronized Distributions distilled() {
        if (distilled == null) {
            distilled = Distributions.read(dir.resolve(Distributions.FILE));
        }
        return distilled;
    }

    /**
     * Whether row {@code row} has samples of {@code variant}, in samples.arrow or, without it, in
     * distributions.json.
     */
    public boolean hasSamples(int row, String variant) {
        if (counted != null) {
            return countedSeries().containsKey(new SampleKey(row, variant));
        }
        return distilledOnly() ? distilled().has(row, variant) : samplesOf(row, variant).length > 0;
    }

    /** Whether samples.arrow holds per-call samples (row, variant, run, ns). */
    static boolean isCallSampleFile(Path file) {
        return columnsOf(file).containsAll(CALL_COLUMNS);
    }

    /** The columns of an Arrow file, in file order (its schema read, checked, and no batch). */
    static List<String> columnsOf(Path file) {
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            return in.columns();
        }
    }

    /** Arrow memory while samples.arrow is read: one batch at a time (65,536 rows, a few MB) and room to spare. */
    static final long SAMPLES_MEMORY = 512L << 20;

    private static final List<String> CALL_COLUMNS = DistillInput.CALL_COLUMNS;
    private static final ArrowType INT32 = new ArrowType.Int(32, true);
    private static final ArrowType INT64 = new ArrowType.Int(64, true);

    /**
     * One row's samples of one variant ({@code "filtered"}, or {@code "none"}: the same call with no
     * filter, stored under the row named by {@link #baselineRow}), one array per run in run order;
     * empty when there are none. The first call reads the whole file in one pass; later calls are
     * served from memory. The arrays are shared: do not modify them. Empty in a folder with only
     * distributions.json ({@link #distilledOnly}), and in a run's folder drawn from memory ({@link #written}):
     * use {@link #hasSamples} and {@link #ecdfOf} there.
     */
    public long[][] samplesOf(int row, String variant) {
        if (distilledOnly() || counted != null) {
            return new long[0][]; // per-run samples live only in samples.arrow; ecdfOf still answers
        }
        long[][] runs = grouped().get(new SampleKey(row, variant));
        return runs == null ? new long[0][] : runs;
    }

    /**
     * The ECDF of every sample of one row and variant (all runs), computed once and kept: plots and
     * tables of a full folder ask for the same baselines many times, and each costs a sort of
     * millions of samples.
     */
    public Ecdf ecdfOf(int row, String variant) {
        if (distilledOnly()) {
            return distilled().ecdf(row, variant);
        }
        SampleKey key = new SampleKey(row, variant);
        synchronized (ecdfs) {
            Ecdf e = ecdfs.get(key);
            if (e == null && counted != null) {
                var s = countedSeries().get(key);
                e = s == null ? Ecdf.of(new long[0]) : ecdfOfCounted(s);
                ecdfs.put(key, e);
            } else if (e == null) {
                e = Ecdf.of(samplesOf(row, variant));
                ecdfs.put(key, e);
            }
            return e;
        }
    }

    /** Every sample of one row and variant, runs concatenated, in a new array. */
    public long[] allSamplesOf(int row, String variant) {
        return heimdall.lab.bench.Stats.concat(samplesOf(row, variant));
    }

    /**
     * The row whose {@code "none"} samples are row {@code i}'s baseline (the same call with no
     * filter): rows sharing a call share one baseline, stored once, under {@code baseline_row}.
     */
    public int baselineRow(int i) {
        return row(i) instanceof MeasuredCallRow m && m.baselineRow() != null
                ? m.baselineRow().intValue()
                : i;
    }

    /** The variants in samples.arrow ({@code filtered}, {@code none}, or a reproduction's own), in file order. */
    public List<String> variants() {
        if (distilledOnly()) {
            return distilled().variants();
        }
        if (counted != null) {
            return countedSeries().keySet().stream()
                    .map(SampleKey::variant)
                    .distinct()
                    .toList();
        }
        return grouped().keySet().stream().map(SampleKey::variant).distinct().toList();
    }

    /** The rows that have samples, in row order (after the first pass over the file). */
    public List<Integer> rowsWithSamples() {
        if (distilledOnly()) {
            return distilled().rows();
        }
        if (counted != null) {
            return countedSeries().keySet().stream()
                    .map(SampleKey::row)
                    .distinct()
                    .sorted()
                    .toList();
        }
        return grouped().keySet().stream()
                .map(SampleKey::row)
                .distinct()
                .sorted()
                .toList();
    }

    private synchronized Map<SampleKey, long[][]> grouped() {
        if (grouped == null) {
            grouped = readCallSamples(dir.resolve("samples.arrow"));
        }
        return grouped;
    }

    /**
     * A short label for row {@code i}: what and call, plus supervisor, answer, placement, sync wake-up
     * and load where present, joined with " · ".
     */
    public String label(int i) {
        return String.join(" · ", labelParts(i));
    }

    /** {@link #label}'s parts, so a plot can drop the parts every row of a group shares. */
    public List<String> labelParts(int i) {
        return row(i).labelParts();
    }

    /**
     * summary.json's rows as a table, from the JSON tree (the boundary where a row is still its
     * fields by name): scalar fields become columns, the published object's scalars
     * {@code published_<name>} columns, lists stay out.
     */
    private static Table summaryTable(JsonNode rows) {
        // Flatten the published object; keep scalar fields; remember the order fields first appear in.
        List<Map<String, JsonNode>> flat = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        names.add("row");
        for (JsonNode r : rows) {
            Map<String, JsonNode> f = new LinkedHashMap<>();
            for (var it = r.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode v = e.getValue();
                if (v.isObject()) {
                    for (var pit = v.fields(); pit.hasNext(); ) {
                        var pe = pit.next();
                        if (!pe.getValue().isContainerNode()) {
                            f.put(e.getKey() + "_" + pe.getKey(), pe.getValue());
                        }
                    }
                } else if (!v.isArray()) {
                    f.put(e.getKey(), v);
                }
            }
            names.addAll(f.keySet());
            flat.add(f);
        }
        Table t = Table.create("summary");
        IntColumn index = IntColumn.create("row");
        for (int i = 0; i < flat.size(); i++) {
            index.append(i);
        }
        t.addColumns(index);
        for (String name : names) {
            if (name.equals("row")) {
                continue;
            }
            t.addColumns(column(name, flat));
        }
        return t;
    }

    /**
     * One column: long when every value is a whole number, double when numbers, boolean, else string; missing for null.
     */
    private static Column<?> column(String name, List<Map<String, JsonNode>> rows) {
        boolean numbers = true;
        boolean whole = true;
        boolean bools = true;
        boolean any = false;
        for (Map<String, JsonNode> r : rows) {
            JsonNode v = r.get(name);
            if (v == null || v.isNull()) {
                continue;
            }
            any = true;
            numbers &= v.isNumber();
            bools &= v.isBoolean();
            whole &= v.isIntegralNumber();
        }
        if (!any || numbers) {
            if (any && whole) {
                LongColumn c = LongColumn.create(name);
                rows.forEach(r -> {
                    JsonNode v = r.get(name);
                    if (v == null || v.isNull()) {
                        c.appendMissing();
                    } else {
                        c.append(v.longValue());
                    }
                });
                return c;
            }
            DoubleColumn c = DoubleColumn.create(name);
            rows.forEach(r -> {
                JsonNode v = r.get(name);
                if (v == null || v.isNull()) {
                    c.appendMissing();
                } else {
                    c.append(v.doubleValue());
                }
            });
            return c;
        }
        if (bools) {
            BooleanColumn c = BooleanColumn.create(name);
            rows.forEach(r -> {
                JsonNode v = r.get(name);
                if (v == null || v.isNull()) {
                    c.appendMissing();
                } else {
                    c.append(v.booleanValue());
                }
            });
            return c;
        }
        StringColumn c = StringColumn.create(name);
        rows.forEach(r -> {
            JsonNode v = r.get(name);
            if (v == null || v.isNull()) {
                c.appendMissing();
            } else {
                c.append(v.isTextual() ? v.textValue() : v.toString());
            }
        });
        return c;
    }

    /**
     * One streaming pass over a floor-style samples file: (row, variant) -> runs -> samples. Each run
     * grows in fixed-size chunks and is copied once into an exact array, so the peak is the samples
     * themselves plus one run, never a doubling of everything.
     */
    static Map<SampleKey, long[][]> readCallSamples(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(file + ": missing (samples are written by ./lab reproduce)");
        }
        Map<SampleKey, TreeMap<Integer, Chunks>> acc = new LinkedHashMap<>();
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            if (!in.columns().containsAll(CALL_COLUMNS)) {
                throw BadInput.at(
                        file,
                        "(schema)",
                        "expected per-call samples (row, variant, run, ns), found "
                                + in.columns()
                                + "; use Results.samples() for other sample files");
            }
            // Types checked on the schema, before any batch: an int64 row is refused here, not cast midway.
            in.require("row", INT32, IntVector.class);
            in.require("variant", ArrowType.Utf8.INSTANCE, VarCharVector.class);
            in.require("run", INT32, IntVector.class);
            in.require("ns", INT64, BigIntVector.class);
            byte[] prevVariant = null;
            String prevName = null;
            int prevRow = -1;
            int prevRun = -1;
            Chunks current = null;
            VectorSchemaRoot root = in.root();
            try {
                while (in.next()) {
                    int n = in.rows();
                    IntVector rowV = (IntVector) root.getVector("row");
                    VarCharVector varV = (VarCharVector) root.getVector("variant");
                    IntVector runV = (IntVector) root.getVector("run");
                    BigIntVector nsV = (BigIntVector) root.getVector("ns");
                    for (var v : List.of(rowV, varV, runV, nsV)) {
                        if (v.getNullCount() > 0) {
                            throw BadInput.at(
                                    file,
                                    v.getName(),
                                    "holds " + v.getNullCount() + " null(s); every sample has a value");
                        }
                    }
                    var offsets = varV.getOffsetBuffer();
                    var data = varV.getDataBuffer();
                    var nsData = nsV.getDataBuffer();
                    for (int i = 0; i < n; i++) {
                        int row = rowV.get(i);
                        int run = runV.get(i);
                        if (row < 0 || run < 0) {
                            throw BadInput.at(
                                    file, row < 0 ? "row" : "run", "value " + Math.min(row, run) + " is negative");
                        }
                        int start = offsets.getInt((long) i * 4);
                        int end = offsets.getInt((long) (i + 1) * 4);
                        if (start < 0 || end < start || end > data.capacity()) {
                            throw BadInput.at(
                                    file, "variant", "sample " + i + ": its text lies outside the column's data");
                        }
                        boolean sameVariant = prevVariant != null && prevVariant.length == end - start;
                        for (int k = 0; sameVariant && k < prevVariant.length; k++) {
                            sameVariant = data.getByte(start + k) == prevVariant[k];
                        }
                        if (!sameVariant) {
                            prevVariant = new byte[end - start];
                            data.getBytes(start, prevVariant);
                            prevName = utf8(file, "variant", prevVariant);
                        }
                        if (current == null || !sameVariant || row != prevRow || run != prevRun) {
                            current = acc.computeIfAbsent(new SampleKey(row, prevName), k -> new TreeMap<>())
                                    .computeIfAbsent(run, k -> new Chunks());
                            prevRow = row;
                            prevRun = run;
                        }
                        if (!current.add(nsData.getLong((long) i * 8))) {
                            throw BadInput.at(
                                    file, "ns", "row " + row + ", run " + run + ": more samples than one run can hold");
                        }
                    }
                }
            } catch (IndexOutOfBoundsException | IllegalStateException e) {
                throw in.damaged(e); // an index outside a buffer that validation let through
            }
        }
        Map<SampleKey, long[][]> out = new LinkedHashMap<>();
        for (var e : acc.entrySet()) {
            long[][] runs = new long[e.getValue().size()][];
            int k = 0;
            for (Chunks c : e.getValue().values()) {
                runs[k++] = c.toArray();
            }
            out.put(e.getKey(), runs);
        }
        return out;
    }

    /** A growable list of longs in 64 Ki chunks; {@link #toArray} releases the chunks. */
    private static final class Chunks {
        private static final int SIZE = 1 << 16;
        private final List<long[]> full = new ArrayList<>();
        private long[] last = new long[256];
        private int fill;

        /** Adds {@code v}; false (nothing added) when the run is already as long as an array can be. */
        boolean add(long v) {
            if ((long) full.size() * SIZE + fill >= Integer.MAX_VALUE - 8) {
                return false;
            }
            if (fill == last.length) {
                if (last.length < SIZE) {
                    last = Arrays.copyOf(last, Math.min(SIZE, last.length * 4));
                } else {
                    full.add(last);
                    last = new long[SIZE];
                    fill = 0;
                }
            }
            last[fill++] = v;
            return true;
        }

        long[] toArray() {
            long n = (long) full.size() * SIZE + fill;
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a run of " + n + " samples does not fit one array");
            }
            long[] out = new long[(int) n];
            int at = 0;
            for (long[] c : full) {
                System.arraycopy(c, 0, out, at, SIZE);
                at += SIZE;
            }
            System.arraycopy(last, 0, out, at, fill);
            full.clear();
            last = null;
            return out;
        }
    }

    /** Reads an Arrow IPC file of int32, int64, float64 and utf8 columns into a table. */
    static Table readArrow(Path file) {
        return readArrow(file, Long.MAX_VALUE);
    }

    /** As {@link #readArrow(Path)}, refusing files of more than {@code limit} rows. */
    static Table readArrow(Path file, long limit) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(file + ": missing (samples are written by ./lab reproduce)");
        }
        long seen = 0;
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            VectorSchemaRoot root = in.root();
            List<Column<?>> columns = new ArrayList<>();
            for (Field f : root.getSchema().getFields()) {
                columns.add(
                        switch (root.getVector(f.getName()).getMinorType()) {
                            case INT -> IntColumn.create(f.getName());
                            case BIGINT -> LongColumn.create(f.getName());
                            case FLOAT8 -> DoubleColumn.create(f.getName());
                            case VARCHAR -> StringColumn.create(f.getName());
                            default ->
                                throw BadInput.at(
                                        file,
                                        f.getName(),
                                        "unsupported column type " + ArrowInput.describe(f.getType())
                                                + " (samples hold int32, int64, float64 and utf8 columns)");
                        });
            }
            try {
                while (in.next()) {
                    int n = in.rows();
                    seen += n;
                    if (seen > limit) {
                        throw new IllegalStateException(file + ": more than " + limit
                                + " samples, too many for a table "
                                + "(a row each); use Results.samplesOf(row, variant), which keeps 8 bytes a sample");
                    }
                    Iterator<Column<?>> it = columns.iterator();
                    for (Field f : root.getSchema().getFields()) {
                        Column<?> c = it.next();
                        var v = root.getVector(f.getName());
                        for (int i = 0; i < n; i++) {
                            if (v.isNull(i)) {
                                c.appendMissing();
                            } else if (v instanceof IntVector iv) {
                                ((IntColumn) c).append(iv.get(i));
                            } else if (v instanceof BigIntVector bv) {
                                ((LongColumn) c).append(bv.get(i));
                            } else if (v instanceof Float8Vector fv) {
                                ((DoubleColumn) c).append(fv.get(i));
                            } else if (v instanceof VarCharVector sv) {
                                ((StringColumn) c).append(utf8(file, f.getName(), sv.get(i)));
                            }
                        }
                    }
                }
            } catch (IndexOutOfBoundsException e) {
                throw in.damaged(e); // an index outside a buffer that validation let through
            }
            return Table.create("samples", columns);
        }
    }

    /** A utf8 cell as text; bytes that are not UTF-8 are bad input naming the column, never replaced. */
    private static String utf8(Path file, String column, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw BadInput.at(file, column, "not UTF-8 text");
        }
    }
}
