package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The comparison as a table ({@link Compare#table()}, {@link Compare#byFolder}): each row's figures read
 * from its folder's summary.json by the fields its {@link CompareSpec} names, beside the folder's host
 * facts ({@link CompareHost}). Apart from {@link Compare}, which lines the folders' rows up by identity,
 * because turning lined-up rows into columns (what is withheld for an emulated figure, what a missing
 * row leaves blank) is a job of its own.
 */
final class CompareTable {
    private CompareTable() {}

    /** {@link Compare#keyColumns()}: the key columns (row identity) in the table, in order. */
    static List<String> keyColumns(CompareSpec spec) {
        return spec.keys().stream().map(CompareTable::keyColumn).toList();
    }

    /**
     * The table's own columns a row's key field may not take the name of (kernel-matrix rows have a {@code kernel}).
     */
    private static final Set<String> FOLDER_COLUMNS = Set.of(
            "n",
            "label",
            "folder",
            "host",
            "kernel",
            "cpu",
            "clocksource",
            "pti",
            "process_seccomp_filters",
            "in_container",
            "container_signs",
            "row",
            "present",
            "status",
            "interrupted",
            "completed",
            "median",
            "added",
            "published_added",
            "ratio_to_published",
            "emulated",
            "added_ratio");

    /** A key field's column: its own name, or {@code row_<name>} where a folder's column has that name. */
    private static String keyColumn(String key) {
        return FOLDER_COLUMNS.contains(key) ? "row_" + key : key;
    }

    /**
     * {@link Compare#table()}: one line per (row, folder), rows in comparison order ({@code keys}) and folders
     * as given; a row a folder lacks is a line with {@code present = false} and blank figures.
     */
    static Table build(CompareSpec spec, List<Compare.Folder> folders, List<List<String>> keys) {
        IntColumn n = IntColumn.create("n");
        StringColumn label = StringColumn.create("label");
        StringColumn folder = StringColumn.create("folder");
        StringColumn host = StringColumn.create("host");
        StringColumn kernel = StringColumn.create("kernel");
        StringColumn cpu = StringColumn.create("cpu");
        StringColumn clock = StringColumn.create("clocksource");
        StringColumn pti = StringColumn.create("pti");
        IntColumn filters = IntColumn.create("process_seccomp_filters");
        BooleanColumn container = BooleanColumn.create("in_container");
        StringColumn signs = StringColumn.create("container_signs");
        List<StringColumn> keyCols =
                keyColumns(spec).stream().map(StringColumn::create).toList();
        IntColumn row = IntColumn.create("row");
        BooleanColumn present = BooleanColumn.create("present");
        StringColumn status = StringColumn.create("status");
        BooleanColumn interrupted = BooleanColumn.create("interrupted");
        StringColumn completed = StringColumn.create("completed");
        DoubleColumn median = DoubleColumn.create("median");
        DoubleColumn added = DoubleColumn.create("added");
        DoubleColumn published = DoubleColumn.create("published_added");
        DoubleColumn ratio = DoubleColumn.create("ratio_to_published");
        BooleanColumn emulated = BooleanColumn.create("emulated");
        DoubleColumn addedRatio = DoubleColumn.create("added_ratio");
        for (int k = 0; k < keys.size(); k++) {
            List<String> key = keys.get(k);
            for (Compare.Folder f : folders) {
                n.append(k + 1);
                label.append(Compare.label(spec, key));
                folder.append(f.name());
                CompareHost h = f.host();
                appendText(host, h.host());
                appendText(kernel, h.kernel());
                appendText(cpu, h.cpu());
                appendText(clock, h.clocksource());
                appendText(pti, h.pti());
                if (h.seccompFilters() == null) {
                    filters.appendMissing();
                } else {
                    filters.append(h.seccompFilters());
                }
                if (h.container() == null) {
                    container.appendMissing();
                } else {
                    container.append(h.container());
                }
                appendText(signs, h.containerSigns());
                for (int c = 0; c < keyCols.size(); c++) {
                    appendText(keyCols.get(c), key.get(c).isEmpty() ? null : key.get(c));
                }
                Integer i = f.rows().get(key);
                if (i == null) {
                    row.appendMissing();
                    present.append(false);
                    status.appendMissing();
                    interrupted.appendMissing();
                    completed.appendMissing();
                    median.appendMissing();
                    added.appendMissing();
                    published.appendMissing();
                    ratio.appendMissing();
                    emulated.append(h.emulated());
                    addedRatio.appendMissing();
                    continue;
                }
                JsonNode r = f.results().rowJson(i);
                Path file = f.results().dir().resolve("summary.json");
                row.append(i);
                present.append(true);
                appendText(status, f.results().row(i).status());
                // a row's own flag (schema 2); without one, the folder's
                JsonNode flag = r.get("interrupted");
                interrupted.append(
                        flag != null && flag.isBoolean()
                                ? flag.booleanValue()
                                : f.results().interrupted());
                appendText(completed, completed(r));
                Double m = number(file, i, spec.median(), r.get(spec.median()));
                Double a = number(file, i, spec.added(), r.get(spec.added()));
                Double p = number(file, i, spec.published(), spec.publishedOf(r));
                // An emulated figure (the folder's guest, or the row's own kernel-matrix mark) is the
                // emulator's time: only its ratio to the same run's unfiltered call is comparable, so its
                // nanoseconds are never put in a column beside another folder's.
                boolean emu = h.emulated() || rowEmulated(r);
                Double unfiltered = m != null && a != null ? m - a : null;
                emulated.append(emu);
                appendNumber(
                        addedRatio,
                        unfiltered != null && unfiltered > 0 && !spec.added().equals(spec.median())
                                ? a / unfiltered
                                : null);
                appendNumber(median, emu ? null : m);
                appendNumber(added, emu ? null : a);
                appendNumber(published, emu ? null : p);
                appendNumber(ratio, !emu && a != null && p != null && p != 0 ? a / p : null);
            }
        }
        Table t = Table.create(
                spec.reproduction() + " compared",
                n,
                label,
                folder,
                host,
                kernel,
                cpu,
                clock,
                pti,
                filters,
                container,
                signs);
        keyCols.forEach(t::addColumns);
        t.addColumns(
                row, present, status, interrupted, completed, median, added, published, ratio, emulated, addedRatio);
        return t;
    }

    /** A kernel-matrix row's own {@code emulated} mark (its kernel ran in an emulated guest). */
    private static boolean rowEmulated(JsonNode r) {
        JsonNode e = r.get("emulated");
        return e != null && e.isBoolean() && e.booleanValue();
    }

    /** "done/asked" runs (or batches) when the row says, else null. */
    private static String completed(JsonNode r) {
        for (String unit : List.of("runs", "batches")) {
            JsonNode done = r.get(unit + "_completed");
            if (done != null && done.isNumber()) {
                JsonNode asked = r.get(unit + "_asked");
                return done.asText() + (asked != null && asked.isNumber() ? "/" + asked.asText() : "") + " " + unit;
            }
        }
        return null;
    }

    private static Double number(Path file, int i, String field, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        throw BadInput.at(file, "[" + i + "]." + field, "expected a number or null, found " + v);
    }

    private static void appendText(StringColumn c, String v) {
        if (v == null) {
            c.appendMissing();
        } else {
            c.append(v);
        }
    }

    private static void appendNumber(DoubleColumn c, Double v) {
        if (v == null) {
            c.appendMissing();
        } else {
            c.append(v);
        }
    }

    /**
     * {@link Compare#byFolder}: one numeric column of {@link Compare#table()} with the folders side by side:
     * {@code n}, {@code label}, then one column per folder (named by the folder) and, for {@code added},
     * {@code published}. A row a folder lacks is blank in its column.
     *
     * @param column {@code median}, {@code added}, {@code ratio_to_published} or {@code added_ratio}
     *     (added over the same run's unfiltered call: the one column an emulated folder fills)
     */
    static Table byFolder(Compare c, String column) {
        if (!List.of("median", "added", "ratio_to_published", "added_ratio").contains(column)) {
            throw new IllegalArgumentException(
                    "byFolder takes median, added, ratio_to_published or added_ratio, not " + column);
        }
        Table table = c.table();
        List<Compare.Folder> folders = c.folders();
        List<List<String>> keys = c.keys();
        CompareSpec spec = c.spec();
        DoubleColumn values = table.doubleColumn(column);
        DoubleColumn pub = table.doubleColumn("published_added");
        IntColumn n = IntColumn.create("n");
        StringColumn label = StringColumn.create("label");
        List<DoubleColumn> perFolder =
                folders.stream().map(f -> DoubleColumn.create(f.name())).toList();
        DoubleColumn published = DoubleColumn.create("published");
        int width = folders.size();
        for (int k = 0; k < keys.size(); k++) {
            n.append(k + 1);
            label.append(Compare.label(spec, keys.get(k)));
            Double p = null;
            for (int f = 0; f < width; f++) {
                int line = k * width + f; // the table's order: rows, then folders as given
                appendNumber(perFolder.get(f), values.isMissing(line) ? null : values.getDouble(line));
                if (p == null && !pub.isMissing(line)) {
                    p = pub.getDouble(line);
                }
            }
            appendNumber(published, p);
        }
        String unit = column.startsWith("ratio")
                ? "ours / published"
                : column.equals("added_ratio") ? "added / unfiltered" : spec.unit();
        Table t = Table.create(column + " (" + unit + ") by folder", n, label);
        perFolder.forEach(t::addColumns);
        if (column.equals("added")) {
            t.addColumns(published);
        }
        return t;
    }
}
