package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

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
    /** Its samples: a run's counts in memory ({@link #written}), samples.arrow, or distributions.json. */
    private final FolderSamples samples;

    /** Above this many samples {@link #samples()} refuses: a Tablesaw row each would not fit. */
    public static final long TABLE_SAMPLES_LIMIT = 5_000_000;

    private final Summary typed;
    private final EnvironmentInfo env;

    private Results(
            Path dir,
            Summary typed,
            EnvironmentInfo env,
            List<JsonNode> rowTrees,
            Table summary,
            JsonNode environment,
            SampleCounts counted) {
        this.typed = typed;
        this.env = env;
        this.dir = dir;
        this.rowTrees = rowTrees;
        this.summary = summary;
        this.environment = environment;
        this.samples = new FolderSamples(dir, counted);
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
        return parse(dir, summaryBytes, environmentBytes, null);
    }

    /** {@link #parse}, with the samples as a run counted them (null: read from the folder). */
    private static Results parse(Path dir, byte[] summaryBytes, byte[] environmentBytes, SampleCounts counted) {
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
        return new Results(dir, typed, envInfo, List.copyOf(trees), SummaryTable.of(node), envTree, counted);
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
        return folder.written().map(w -> parse(folder.path(), w.summary(), w.environment(), w.counts()));
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
    public Table samples() {
        return samples.table();
    }

    /** Whether samples.arrow holds per-call samples of floor-style rows (row, variant, run, ns). */
    public boolean hasCallSamples() {
        return samples.hasCallSamples();
    }

    /**
     * Whether only the compact distributions are here: no samples.arrow (it stays out of git) but a
     * {@link Distributions#FILE}. ECDFs, medians and p99s then come from it; per-run samples do not.
     */
    public boolean distilledOnly() {
        return samples.distilledOnly();
    }

    /**
     * Whether the folder's distributions can be drawn: it has samples.arrow, or distributions.json in
     * its place. Folders made before distributions.json existed, whose samples.arrow is gone, have
     * neither: their summaries load, their distribution charts cannot be redrawn.
     */
    public boolean hasSampleData() {
        return samples.hasSampleData();
    }

    /**
     * Whether row {@code row} has samples of {@code variant}, in samples.arrow or, without it, in
     * distributions.json.
     */
    public boolean hasSamples(int row, String variant) {
        return samples.has(row, variant);
    }

    /**
     * One row's samples of one variant ({@code "filtered"}, or {@code "none"}: the same call with no
     * filter, stored under the row named by {@link #baselineRow}), one array per run in run order;
     * empty when there are none. The first call reads the whole file in one pass; later calls are
     * served from memory. The arrays are shared: do not modify them. Empty in a folder with only
     * distributions.json ({@link #distilledOnly}), and in a run's folder drawn from memory ({@link #written}):
     * use {@link #hasSamples} and {@link #ecdfOf} there.
     */
    public long[][] samplesOf(int row, String variant) {
        return samples.runsOf(row, variant);
    }

    /**
     * The ECDF of every sample of one row and variant (all runs), computed once and kept: plots and
     * tables of a full folder ask for the same baselines many times, and each costs a sort of
     * millions of samples.
     */
    public Ecdf ecdfOf(int row, String variant) {
        return samples.ecdfOf(row, variant);
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
        return samples.variants();
    }

    /** The rows that have samples, in row order (after the first pass over the file). */
    public List<Integer> rowsWithSamples() {
        return samples.rows();
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
}
