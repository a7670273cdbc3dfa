package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.MannWhitney;
import heimdall.lab.stats.OrderStatistics;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Change detection in a {@link Compare}: each folder after the first (B) against the first (A), row by
 * row: B/A with its interval and a verdict, faster, slower or no difference beyond noise
 * ({@link ChangeTest}: the Mann–Whitney U test over the rows' run medians, the Hodges–Lehmann interval
 * of their ratio, and a threshold).
 *
 * <p>The observations are each row's run figures from summary.json ({@code run_medians_ns}, or the
 * reproduction's own run field), or, for a row whose summary has none, each run's median computed from
 * samples.arrow where the folder has it. A row's B/A is its median's (the figure the table shows).
 *
 * <p>The marks' rules hold: when any folder is emulated (a TCG guest, or a kernel-matrix row's own
 * mark), nanoseconds are never set beside another folder's, so every row is compared by its ratio
 * within each run, the filtered run median over the same run's unfiltered one, and B/A is the ratio of
 * those ratios. Folders of other hosts or kernels are compared in nanoseconds, their host columns beside.
 */
final class CompareChanges {
    /** The run figures a reproduction's rows keep, where it is not {@code run_medians_ns}. */
    private static final Map<String, String> RUN_FIELD =
            Map.of("graph-lookup", "harness_run_medians_ns_per_event", "workload-cost", "wall_runs_ns");

    /**
     * Reproductions whose rows keep no unfiltered runs of their own, and the identity key whose value names the
     * row that holds them: a workload-cost row's are its workload's {@code none} row (the same rounds, run i
     * beside run i). The baseline's identity is the row's with that key set to the value and the keys after it
     * (what only a filtered row has: supervisor, answer) blank.
     */
    private static final Map<String, Map.Entry<String, String>> BASELINE_ROW =
            Map.of("workload-cost", Map.entry("mechanism", "none"));

    private static final String RUN_FIELD_DEFAULT = "run_medians_ns";
    private static final String RUN_NONE_FIELD = "run_medians_none_ns";
    private static final String MEDIAN_NONE_FIELD = "median_none_ns";

    private CompareChanges() {}

    /** One row of one B folder against A; {@code change} null when the row cannot be compared ({@code why}). */
    record Line(
            int n,
            String label,
            String folder,
            String baseline,
            Figures a,
            Figures b,
            ChangeTest.Change change,
            String why) {}

    /** A row's figure in one folder and its run figures. */
    record Figures(double figure, double[] runs) {}

    /** Every row of every B folder against the first folder, in comparison order. */
    static List<Line> lines(Compare c, double threshold, double level) {
        List<Compare.Folder> folders = c.folders();
        boolean ratios = c.anyEmulated();
        Compare.Folder base = folders.get(0);
        List<Line> out = new ArrayList<>();
        List<List<String>> keys = c.keys();
        for (int k = 0; k < keys.size(); k++) {
            List<String> key = keys.get(k);
            String label = c.rowLabels().get(k);
            Figures a = figures(c, base, key, ratios);
            for (Compare.Folder f : folders.subList(1, folders.size())) {
                Figures b = figures(c, f, key, ratios);
                String why = a == null || b == null
                        ? (a == null ? base.name() : f.name()) + ": row absent"
                        : a.runs().length == 0 || b.runs().length == 0
                                ? (a.runs().length == 0 ? base.name() : f.name()) + ": no run figures"
                                : !positive(a) || !positive(b) ? "a figure not above zero: no ratio" : null;
                ChangeTest.Change change = why != null
                        ? null
                        : ChangeTest.compare(a.runs(), b.runs(), b.figure() / a.figure(), threshold, level);
                out.add(new Line(k + 1, label, f.name(), base.name(), a, b, change, why));
            }
        }
        return out;
    }

    private static boolean positive(Figures f) {
        if (!(f.figure() > 0) || Double.isInfinite(f.figure())) {
            return false;
        }
        for (double r : f.runs()) {
            if (!(r > 0) || Double.isInfinite(r)) {
                return false;
            }
        }
        return true;
    }

    /** The row's figure and run figures in one folder, or null when the folder lacks the row. */
    private static Figures figures(Compare c, Compare.Folder f, List<String> key, boolean ratios) {
        Integer i = f.rows().get(key);
        if (i == null) {
            return null;
        }
        Results r = f.results();
        JsonNode row = r.rowJson(i);
        Path file = r.dir().resolve("summary.json");
        String runField = RUN_FIELD.getOrDefault(c.reproduction(), RUN_FIELD_DEFAULT);
        double[] runs = runs(file, i, runField, row.get(runField));
        if (runs == null) {
            runs = fromSamples(r, i, "filtered");
        }
        double median = number(file, i, c.spec().median(), row.get(c.spec().median()));
        if (!ratios) {
            return new Figures(median, runs);
        }
        // emulated somewhere: each run's filtered median over the same run's unfiltered one
        double[] none = runs(file, i, RUN_NONE_FIELD, row.get(RUN_NONE_FIELD));
        Integer baseline = baselineRow(c, f, key);
        if (none == null && baseline != null) {
            none = runs(file, baseline, runField, r.rowJson(baseline).get(runField));
        }
        if (none == null) {
            none = fromSamples(r, r.baselineRow(i), "none");
        }
        double medianNone = number(file, i, MEDIAN_NONE_FIELD, row.get(MEDIAN_NONE_FIELD));
        if (Double.isNaN(medianNone)) {
            double added = number(file, i, c.spec().added(), row.get(c.spec().added()));
            medianNone = median - added;
        }
        if (none.length != runs.length) {
            return new Figures(median / medianNone, new double[0]); // no run-by-run pairing to divide
        }
        double[] within = new double[runs.length];
        for (int j = 0; j < runs.length; j++) {
            within[j] = none[j] > 0 ? runs[j] / none[j] : Double.NaN;
        }
        return new Figures(median / medianNone, within);
    }

    /** The row of {@code f} holding the unfiltered runs of row {@code key} ({@link #BASELINE_ROW}), or null. */
    private static Integer baselineRow(Compare c, Compare.Folder f, List<String> key) {
        Map.Entry<String, String> b = BASELINE_ROW.get(c.reproduction());
        int at = b == null ? -1 : c.spec().keys().indexOf(b.getKey());
        if (at < 0) {
            return null;
        }
        List<String> k = new ArrayList<>(key);
        k.set(at, b.getValue());
        for (int j = at + 1; j < k.size(); j++) {
            k.set(j, "");
        }
        return f.rows().get(k);
    }

    /** Each run's median from samples.arrow (a folder keeping its samples), or none. */
    private static double[] fromSamples(Results r, int row, String variant) {
        if (!Files.exists(r.dir().resolve("samples.arrow"), LinkOption.NOFOLLOW_LINKS) || !r.hasCallSamples()) {
            return new double[0];
        }
        long[][] samples = r.samplesOf(row, variant);
        double[] out = new double[samples.length];
        for (int j = 0; j < samples.length; j++) {
            long[] s = samples[j].clone();
            Arrays.sort(s);
            out[j] = OrderStatistics.nearestRank(s, 50);
        }
        return out;
    }

    /** A run-figure array, or null when the row has none; anything else than numbers is bad input. */
    private static double[] runs(Path file, int i, String field, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (!v.isArray()) {
            throw BadInput.at(
                    file, "[" + i + "]." + field, "expected an array of numbers, found " + Compare.clean(v.toString()));
        }
        double[] out = new double[v.size()];
        for (int j = 0; j < v.size(); j++) {
            JsonNode x = v.get(j);
            if (!x.isNumber()) {
                throw BadInput.at(
                        file,
                        "[" + i + "]." + field + "[" + j + "]",
                        "expected a number, found " + Compare.clean(x.toString()));
            }
            out[j] = x.doubleValue();
        }
        return out;
    }

    private static double number(Path file, int i, String field, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return Double.NaN;
        }
        if (!v.isNumber()) {
            throw BadInput.at(
                    file, "[" + i + "]." + field, "expected a number or null, found " + Compare.clean(v.toString()));
        }
        return v.doubleValue();
    }

    /**
     * The changes as a table, one line per (row, B folder): {@code n}, {@code label}, {@code folder} (B),
     * {@code baseline} (A), {@code runs_a}, {@code runs_b}, {@code figure_a}, {@code figure_b}, {@code ratio}
     * (B/A), {@code ratio_low}, {@code ratio_high}, {@code confidence} (what the interval guarantees),
     * {@code p_value}, {@code verdict}, {@code threshold}, {@code test}, {@code note} (a warning, or why
     * the row was not compared).
     */
    static Table table(Compare c, List<Line> lines) {
        IntColumn n = IntColumn.create("n");
        StringColumn label = StringColumn.create("label");
        StringColumn folder = StringColumn.create("folder");
        StringColumn baseline = StringColumn.create("baseline");
        IntColumn runsA = IntColumn.create("runs_a");
        IntColumn runsB = IntColumn.create("runs_b");
        DoubleColumn figA = DoubleColumn.create("figure_a");
        DoubleColumn figB = DoubleColumn.create("figure_b");
        DoubleColumn ratio = DoubleColumn.create("ratio");
        DoubleColumn low = DoubleColumn.create("ratio_low");
        DoubleColumn high = DoubleColumn.create("ratio_high");
        DoubleColumn confidence = DoubleColumn.create("confidence");
        DoubleColumn p = DoubleColumn.create("p_value");
        StringColumn verdict = StringColumn.create("verdict");
        DoubleColumn threshold = DoubleColumn.create("threshold");
        StringColumn test = StringColumn.create("test");
        StringColumn note = StringColumn.create("note");
        for (Line l : lines) {
            n.append(l.n());
            label.append(l.label());
            folder.append(l.folder());
            baseline.append(l.baseline());
            appendRuns(runsA, l.a());
            appendRuns(runsB, l.b());
            appendFigure(figA, l.a());
            appendFigure(figB, l.b());
            test.append(test(c.anyEmulated()));
            ChangeTest.Change ch = l.change();
            if (ch == null) {
                ratio.appendMissing();
                low.appendMissing();
                high.appendMissing();
                confidence.appendMissing();
                p.appendMissing();
                verdict.appendMissing();
                threshold.appendMissing();
                note.append(l.why());
                continue;
            }
            Interval r = ch.ratio();
            ratio.append(r.estimate());
            low.append(r.low());
            high.append(r.high());
            confidence.append(r.confidence());
            p.append(ch.p());
            verdict.append(ch.verdict().text());
            threshold.append(ch.threshold());
            if (ch.warning() == null) {
                note.appendMissing();
            } else {
                note.append(ch.warning());
            }
        }
        return Table.create(
                c.reproduction() + " changes against " + c.folderNames().get(0),
                n,
                label,
                folder,
                baseline,
                runsA,
                runsB,
                figA,
                figB,
                ratio,
                low,
                high,
                confidence,
                p,
                verdict,
                threshold,
                test,
                note);
    }

    private static void appendRuns(IntColumn c, Figures f) {
        if (f == null) {
            c.appendMissing();
        } else {
            c.append(f.runs().length);
        }
    }

    private static void appendFigure(DoubleColumn c, Figures f) {
        if (f == null || Double.isNaN(f.figure())) {
            c.appendMissing();
        } else {
            c.append(f.figure());
        }
    }

    /**
     * The changes as text: what was compared and how (the figure, the test, the interval, the level and
     * the threshold), a count of each verdict per folder, the warnings once each, and a table of every row.
     */
    static String text(Compare c, List<Line> lines, double threshold, double level) {
        StringBuilder sb = new StringBuilder();
        boolean ratios = c.anyEmulated();
        String figure = ratios
                ? "each run's filtered median over the same run's unfiltered one (emulated figures: "
                        + "ratios within a folder only)"
                : "each run's median (" + c.unit() + ")";
        sb.append(String.format(
                Locale.ROOT,
                "Changes against %s: B/A of each row's %s, its %s interval from %s; "
                        + "verdict by %s at p < %s, beyond a threshold of %s (--threshold): slower if B/A > %s, "
                        + "faster if B/A < %s, else no difference beyond noise.%n%n",
                Compare.clean(c.folderNames().get(0)),
                ratios ? "within-run ratio" : "median",
                pct(level),
                figure + ": Hodges-Lehmann, distribution-free",
                test(ratios),
                trim(1 - level),
                pct(threshold),
                trim(1 + threshold),
                trim(1 - threshold)));
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Boolean> warnings = new LinkedHashMap<>();
        for (Line l : lines) {
            int[] v = counts.computeIfAbsent(l.folder(), x -> new int[4]);
            if (l.change() == null) {
                v[3]++;
                continue;
            }
            v[l.change().verdict().ordinal()]++;
            if (l.change().warning() != null) {
                warnings.put(
                        Compare.clean(l.folder()) + " against " + Compare.clean(l.baseline()) + ": "
                                + l.change().warning(),
                        true);
            }
        }
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int[] v = e.getValue();
            sb.append(String.format(
                    Locale.ROOT,
                    "%s: %d slower, %d faster, %d no difference beyond noise%s%n",
                    Compare.clean(e.getKey()),
                    v[1],
                    v[0],
                    v[2],
                    v[3] == 0 ? "" : ", " + v[3] + " not compared"));
        }
        for (String w : warnings.keySet()) {
            sb.append("warning: ").append(w).append('\n');
        }
        CompareHost a = c.folders().get(0).host();
        for (Compare.Folder f : c.folders().subList(1, c.folders().size())) {
            List<String> differ = new ArrayList<>();
            CompareHost b = f.host();
            if (!Objects.equals(a.host(), b.host())) {
                differ.add("host");
            }
            if (!Objects.equals(a.kernel(), b.kernel())) {
                differ.add("kernel");
            }
            if (!Objects.equals(a.cpu(), b.cpu())) {
                differ.add("CPU");
            }
            if (!Objects.equals(a.container(), b.container())) {
                differ.add("container");
            }
            if (!Objects.equals(a.vm(), b.vm()) || a.emulated() != b.emulated()) {
                differ.add("VM");
            }
            if (!differ.isEmpty()) {
                sb.append("note: ")
                        .append(Compare.clean(f.name()))
                        .append(" and ")
                        .append(Compare.clean(c.folderNames().get(0)))
                        .append(" differ in ")
                        .append(String.join(", ", differ))
                        .append(": a verdict is the difference between those setups, not only a change in the code\n");
            }
        }
        sb.append('\n');
        Table t = Table.create(
                "changes",
                IntColumn.create("n"),
                StringColumn.create("label"),
                StringColumn.create("folder"),
                StringColumn.create("runs A/B"),
                StringColumn.create("B/A"),
                StringColumn.create(pct(level) + " interval"),
                StringColumn.create("p"),
                StringColumn.create("verdict"));
        int lastN = -1;
        for (Line l : lines) {
            t.intColumn("n").append(l.n());
            t.stringColumn("label").append(l.n() == lastN ? "" : Compare.clean(l.label()));
            lastN = l.n();
            t.stringColumn("folder").append(Compare.clean(l.folder()));
            t.stringColumn("runs A/B")
                    .append((l.a() == null ? "-" : "" + l.a().runs().length) + "/"
                            + (l.b() == null ? "-" : "" + l.b().runs().length));
            ChangeTest.Change ch = l.change();
            if (ch == null) {
                t.stringColumn("B/A").append("");
                t.stringColumn(pct(level) + " interval").append("");
                t.stringColumn("p").append("");
                t.stringColumn("verdict").append("(" + Compare.clean(l.why()) + ")");
                continue;
            }
            Interval r = ch.ratio();
            t.stringColumn("B/A").append(String.format(Locale.ROOT, "%.3f", r.estimate()));
            t.stringColumn(pct(level) + " interval")
                    .append(String.format(
                            Locale.ROOT,
                            "[%.3f, %.3f]%s",
                            r.low(),
                            r.high(),
                            r.reached() ? "" : " (" + pct(r.confidence()) + ")"));
            t.stringColumn("p").append(String.format(Locale.ROOT, "%.3f", ch.p()));
            t.stringColumn("verdict").append(ch.verdict().text());
        }
        sb.append(Tables.markdown(t));
        return sb.toString();
    }

    /** The test as stated: over the rows' run medians, or their within-run ratios where emulated. */
    static String test(boolean ratios) {
        return MannWhitney.TEST.replace("run figures", ratios ? "within-run ratios" : "run medians");
    }

    static String pct(double f) {
        double v = Math.round(f * 1000) / 10.0;
        return String.format(Locale.ROOT, v == Math.rint(v) ? "%.0f" : "%.1f", v) + "%";
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
