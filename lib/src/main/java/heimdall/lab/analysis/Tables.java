package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.display.HtmlTable;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.GraphJmhRow;
import heimdall.lab.results.GraphLookupRow;
import heimdall.lab.results.ResultRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Tables built from a {@link Results} folder. Times are nanoseconds unless a column says otherwise.
 *
 * <ul>
 *   <li>{@link #summary}: the reproduction's own figures per row (median, p99, added, spread, flags,
 *       published figures beside ours).
 *   <li>{@link #fromSamples}: the same figures recomputed from every sample in samples.arrow.
 *   <li>{@link #runMedians}: one line per row, variant and run.
 *   <li>{@link #roundTrips}: brokered round trips over the host's floor (a pipe ping-pong), per placement.
 *   <li>{@link #graphByLayout}: ns/event per graph and trace, one column per layout.
 * </ul>
 */
public final class Tables {
    private Tables() {}

    private static final List<String> SUMMARY_COLUMNS = List.of(
            "row",
            "label",
            "insns",
            "cache",
            "median_none_ns",
            "median_ns",
            "added_ns",
            "p99_ns",
            "spread",
            "samples",
            "noisy",
            "status",
            "published_median_ns",
            "published_added_ns",
            "published_p99_ns");

    /**
     * Floor, broker and load rows as the reproduction summarised them: {@code row, label} then those of
     * insns, cache, median_none_ns, median_ns, added_ns, p99_ns, spread, samples, noisy, status and the
     * published figures that the folder has. For a graph folder, {@link #graphByLayout}'s long form.
     */
    public static Table summary(Results r) {
        Table s = r.summary();
        if (r.hasGraphRows()) {
            return s.selectColumns(present(
                                    s,
                                    List.of(
                                            "row",
                                            "graph",
                                            "trace",
                                            "layout",
                                            "states",
                                            "transitions",
                                            "ns_per_event_median",
                                            "ns_per_event_min",
                                            "ns_per_event_max",
                                            "speedup_vs_hash",
                                            "noisy",
                                            "rejections",
                                            "prep_ms",
                                            "payload_bytes"))
                            .toArray(new String[0]))
                    .setName("graph rows");
        }
        Table t = Table.create("summary");
        for (String name : SUMMARY_COLUMNS) {
            if (name.equals("label")) {
                t.addColumns(labels(r));
            } else if (s.columnNames().contains(name)) {
                t.addColumns(s.column(name).copy());
            }
        }
        return t;
    }

    private static final List<String> VERSUS_COLUMNS = List.of(
            "row",
            "published_row",
            "what",
            "call",
            "supervisor",
            "answer",
            "placement",
            "sync_wakeup",
            "insns",
            "published_insns",
            "cache",
            "published_cache",
            "median_none_ns",
            "published_median_none_ns",
            "median_ns",
            "published_median_ns",
            "added_ns",
            "published_added_ns",
            "added_vs_published",
            "p99_ns",
            "published_p99_ns",
            "spread",
            "noisy",
            "java_over_native",
            "vs_default_placement",
            "round_trip_vs_floor",
            "round_trip_vs_best_floor",
            "vs_best_floor",
            "status");

    /**
     * Our figures beside the published ones, for the given rows (all when none are given): row, what,
     * call, (supervisor, answer, placement, sync_wakeup), then each figure followed by its published
     * counterpart (insns, cache, medians, added, p99), the ratio {@code added_vs_published}, spread and
     * noisy, and the cross-row ratios {@code java_over_native} and {@code vs_default_placement} — each
     * only where the folder has it and some selected row has a value.
     */
    public static Table versusPublished(Results r, int... rows) {
        Table s = r.summary();
        Table t = rows.length == 0 ? s : s.rows(rows);
        Table out = Table.create("ours beside the published table");
        for (String name : VERSUS_COLUMNS) {
            if (t.columnNames().contains(name) && t.column(name).countMissing() < t.rowCount()) {
                out.addColumns(t.column(name).copy());
            }
        }
        return out;
    }

    private static final List<String> ROUND_TRIP_COLUMNS = List.of(
            "row",
            "what",
            "reference",
            "supervisor",
            "answer",
            "placement",
            "sync_wakeup",
            "median_ns",
            "added_ns",
            "floor_ns",
            "round_trip_vs_floor",
            "best_floor_ns",
            "round_trip_vs_best_floor",
            "vs_best_floor",
            "call_floor_ns",
            "round_trip_vs_call_floor",
            "best_call_floor_ns",
            "round_trip_vs_best_call_floor",
            "vs_best_call_floor",
            "spread",
            "noisy");

    /**
     * Round trips against the host's floor (floor-cost's broker section): the reference rows (a pipe
     * ping-pong in each placement, {@code vs_best_floor}) and every brokered row with its round trip
     * ({@code added_ns}) over the floor of its placement ({@code round_trip_vs_floor}) and over the
     * best floor ({@code round_trip_vs_best_floor}), and, where the folder has them, the same against
     * the call floor (a ping-pong then {@code openat} less the {@code openat}: {@code round_trip_vs_call_floor},
     * {@code round_trip_vs_best_call_floor}). Empty for a folder without reference rows.
     */
    public static Table roundTrips(Results r) {
        Table s = r.summary();
        List<Integer> keep = new ArrayList<>();
        boolean references = false;
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (!(r.row(i) instanceof FloorCostRow row)) {
                continue;
            }
            if (row.paired()) {
                continue; // the loop and the supervisors on one filter: their own figure (floor-cost's table)
            }
            references |= row.isReference();
            FloorCostRow.Ratios x = row.ratios();
            if (row.isReference() || x.roundTripVsFloor() != null || x.roundTripVsBestFloor() != null) {
                keep.add(i);
            }
        }
        Table out = Table.create("round trips against the host's floor");
        if (!references) {
            return out;
        }
        Table t = s.rows(keep.stream().mapToInt(Integer::intValue).toArray());
        for (String name : ROUND_TRIP_COLUMNS) {
            if (t.columnNames().contains(name) && t.column(name).countMissing() < t.rowCount()) {
                out.addColumns(t.column(name).copy());
            }
        }
        return out;
    }

    /**
     * environment.json as a two-column table ({@code field, value}), for a notebook's "where this
     * ran" cell: nested objects are flattened to {@code parent.child} fields; lists of numbers are
     * summarised as their count, min and max (load averages sampled over hundreds of runs).
     */
    public static Table environment(Results r) {
        StringColumn field = StringColumn.create("field");
        StringColumn value = StringColumn.create("value");
        JsonNode env = r.environmentJson();
        if (env != null) {
            flatten("", env, field, value);
        }
        return Table.create("environment", field, value);
    }

    /** Walks environment.json's tree (the JSON boundary: its shape differs between reproductions and folder ages). */
    private static void flatten(String prefix, JsonNode m, StringColumn field, StringColumn value) {
        for (var it = m.fields(); it.hasNext(); ) {
            var e = it.next();
            String name = prefix + e.getKey();
            JsonNode v = e.getValue();
            if (v.isObject()) {
                flatten(name + ".", v, field, value);
            } else if (v.isArray() && v.size() > 6 && allNumbers(v)) {
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (JsonNode x : v) {
                    min = Math.min(min, x.doubleValue());
                    max = Math.max(max, x.doubleValue());
                }
                field.append(name);
                value.append(v.size() + " values, " + min + " to " + max);
            } else {
                field.append(name);
                value.append(text(v));
            }
        }
    }

    private static boolean allNumbers(JsonNode array) {
        for (JsonNode x : array) {
            if (!x.isNumber()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A value as the notebooks showed it before: text without quotes, lists as {@code [a, b]}, objects as {@code
     * {k=v}}, null as "null".
     */
    private static String text(JsonNode v) {
        if (v.isArray()) {
            List<String> parts = new ArrayList<>();
            v.forEach(x -> parts.add(text(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        if (v.isObject()) {
            List<String> parts = new ArrayList<>();
            v.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + text(e.getValue())));
            return "{" + String.join(", ", parts) + "}";
        }
        return v.isNull() ? "null" : v.asText();
    }

    /**
     * Figures recomputed from samples.arrow, per row: {@code row, label, samples, median_ns, p99_ns,
     * median_none_ns, p99_none_ns, added_ns, spread} (nearest-rank order statistics over every
     * sample, as the reproductions compute them; spread over the filtered variant's per-run medians;
     * the baseline is the row's {@code baseline_row}). Reads the samples through
     * {@link Results#samplesOf}, so it scales to full runs. Graph folders: {@code row, label, samples,
     * ns_per_event_median, _min, _max}, warm-up samples (sample 0) excluded.
     */
    public static Table fromSamples(Results r) {
        if (!r.hasCallSamples()) {
            return graphFromSamples(r, r.samples());
        }
        IntColumn row = IntColumn.create("row");
        StringColumn label = StringColumn.create("label");
        IntColumn count = IntColumn.create("samples");
        DoubleColumn med = DoubleColumn.create("median_ns");
        DoubleColumn p99 = DoubleColumn.create("p99_ns");
        DoubleColumn medNone = DoubleColumn.create("median_none_ns");
        DoubleColumn p99None = DoubleColumn.create("p99_none_ns");
        DoubleColumn added = DoubleColumn.create("added_ns");
        DoubleColumn spread = DoubleColumn.create("spread");
        for (int i : r.rowsWithSamples()) {
            if (!r.hasSamples(i, "filtered")) {
                continue; // a baseline's holder row that failed, or samples of a row not in the summary
            }
            boolean none = i < r.resultRows().size() && r.hasSamples(r.baselineRow(i), "none");
            // Ecdf's median and p99 are the nearest-rank figures bench.Stats reports, kept per row and variant.
            Ecdf f = r.ecdfOf(i, "filtered");
            row.append(i);
            label.append(i < r.resultRows().size() ? r.label(i) : "row " + i);
            count.append((int) f.count());
            med.append(f.median());
            p99.append(f.p99());
            if (none) {
                Ecdf n = r.ecdfOf(r.baselineRow(i), "none");
                medNone.append(n.median());
                p99None.append(n.p99());
                added.append(f.median() - n.median());
            } else {
                medNone.appendMissing();
                p99None.appendMissing();
                added.appendMissing();
            }
            if (r.distilledOnly()) {
                // without samples.arrow the runs' medians are summary.json's (the same figures)
                List<Double> meds = i < r.resultRows().size() ? CallPlots.runMediansOf(r.row(i)) : List.of();
                if (meds.isEmpty()) {
                    spread.appendMissing();
                } else {
                    spread.append(heimdall.lab.bench.Stats.spread(
                            meds.stream().mapToLong(Double::longValue).toArray()));
                }
            } else {
                spread.append(heimdall.lab.bench.Stats.spread(
                        heimdall.lab.bench.Stats.runMedians(r.samplesOf(i, "filtered"))));
            }
        }
        return Table.create("from samples", row, label, count, med, p99, medNone, p99None, added, spread);
    }

    /**
     * Per-run medians from summary.json ({@code run_medians_ns}, {@code run_medians_none_ns}):
     * {@code row, label, variant ("filtered"/"none"), run, median_ns}.
     */
    public static Table runMedians(Results r) {
        IntColumn row = IntColumn.create("row");
        StringColumn label = StringColumn.create("label");
        StringColumn variant = StringColumn.create("variant");
        IntColumn run = IntColumn.create("run");
        DoubleColumn median = DoubleColumn.create("median_ns");
        for (int i = 0; i < r.resultRows().size(); i++) {
            for (String v : List.of("filtered", "none")) {
                List<Double> meds =
                        v.equals("filtered") ? CallPlots.runMediansOf(r.row(i)) : CallPlots.runMediansNoneOf(r.row(i));
                for (int k = 0; k < meds.size(); k++) {
                    row.append(i);
                    label.append(r.label(i));
                    variant.append(v);
                    run.append(k);
                    median.append(meds.get(k));
                }
            }
        }
        return Table.create("per-run medians", row, label, variant, run, median);
    }

    /**
     * Graph rows as a grid: {@code graph, trace}, then one column per layout (in the order layouts
     * first appear) holding the median ns/event; missing where a layout was not run (or refused).
     */
    public static Table graphByLayout(Results r) {
        if (!r.hasGraphRows()) {
            return Table.create("ns/event by layout");
        }
        Set<String> layouts = new LinkedHashSet<>();
        Map<List<String>, Map<String, Double>> cells = new LinkedHashMap<>();
        for (ResultRow row : r.resultRows()) {
            // graph-lookup's median of batches; graph jmh's one row, JMH's median
            List<String> key;
            String layout;
            Double ns;
            if (row instanceof GraphLookupRow g) {
                key = List.of(g.graph(), g.trace() == null ? "" : g.trace());
                layout = g.layout();
                ns = g.figures().median();
            } else if (row instanceof GraphJmhRow j) {
                key = List.of(j.graph(), j.trace() == null ? "" : j.trace());
                layout = j.layout();
                ns = j.jmhMedianNsPerEvent();
            } else {
                continue;
            }
            layouts.add(layout);
            cells.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(layout, ns);
        }
        StringColumn g = StringColumn.create("graph");
        StringColumn t = StringColumn.create("trace");
        List<DoubleColumn> cols = new ArrayList<>();
        for (String l : layouts) {
            cols.add(DoubleColumn.create(l));
        }
        for (var e : cells.entrySet()) {
            g.append(e.getKey().get(0));
            t.append(e.getKey().get(1));
            int k = 0;
            for (String l : layouts) {
                Double v = e.getValue().get(l);
                if (v == null) {
                    cols.get(k).appendMissing();
                } else {
                    cols.get(k).append(v);
                }
                k++;
            }
        }
        Table out = Table.create("ns/event by layout (median)", g, t);
        cols.forEach(out::addColumns);
        return out;
    }

    /**
     * A table as GitHub-flavoured Markdown (for {@code table.md}): every row, numbers right-aligned and
     * formatted as in {@link HtmlTable#of(Table)}, missing cells empty, {@code |} escaped.
     */
    public static String markdown(Table t) {
        StringBuilder sb = new StringBuilder();
        sb.append('|');
        for (String n : t.columnNames()) {
            sb.append(' ').append(n.replace("|", "\\|")).append(" |");
        }
        sb.append("\n|");
        for (Column<?> c : t.columns()) {
            sb.append(c instanceof NumericColumn<?> ? " ---: |" : " --- |");
        }
        sb.append('\n');
        for (int i = 0; i < t.rowCount(); i++) {
            sb.append('|');
            for (Column<?> c : t.columns()) {
                sb.append(' ').append(HtmlTable.cell(c, i).replace("|", "\\|")).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static List<String> present(Table t, List<String> names) {
        return names.stream().filter(t.columnNames()::contains).toList();
    }

    private static StringColumn labels(Results r) {
        StringColumn c = StringColumn.create("label");
        for (int i = 0; i < r.resultRows().size(); i++) {
            c.append(r.label(i));
        }
        return c;
    }

    private static Table graphFromSamples(Results r, Table samples) {
        IntColumn rowCol = samples.intColumn("row");
        IntColumn sample = samples.intColumn("sample");
        DoubleColumn v = samples.doubleColumn("ns_per_event");
        Map<Integer, List<Double>> byRow = new TreeMap<>();
        for (int i = 0; i < samples.rowCount(); i++) {
            if (sample.getInt(i) == 0) {
                continue; // warm-up
            }
            byRow.computeIfAbsent(rowCol.getInt(i), k -> new ArrayList<>()).add(v.getDouble(i));
        }
        IntColumn row = IntColumn.create("row");
        StringColumn label = StringColumn.create("label");
        IntColumn count = IntColumn.create("samples");
        DoubleColumn med = DoubleColumn.create("ns_per_event_median");
        DoubleColumn min = DoubleColumn.create("ns_per_event_min");
        DoubleColumn max = DoubleColumn.create("ns_per_event_max");
        for (var e : byRow.entrySet()) {
            double[] a = e.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            row.append(e.getKey());
            label.append(e.getKey() < r.resultRows().size() ? r.label(e.getKey()) : "row " + e.getKey());
            count.append(a.length);
            med.append(Stats.median(a));
            min.append(Arrays.stream(a).min().orElse(Double.NaN));
            max.append(Arrays.stream(a).max().orElse(Double.NaN));
        }
        return Table.create("graph rows from samples", row, label, count, med, min, max);
    }
}
