package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.BadInput;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.stats.ChangeTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Results folders of one reproduction (from several hosts, kernels, or in and out of a container)
 * lined up row by row.
 *
 * <p>A row is named by its identity ({@link CompareSpec#keys}: for floor-cost the floor, the call and,
 * for brokered rows, supervisor, answer, placement and wake-up), never by its position, so folders
 * whose reproductions measured different row sets still line up. {@link #table()} has one line per
 * (row, folder): a row one folder lacks is there with {@code present = false} and blank figures, not
 * dropped; a row a signal cut short keeps its {@code interrupted} flag and {@code completed} count.
 * Beside each figure: the host facts of the folder's environment.json ({@link CompareHost}), the
 * published added cost the row carries, and our added cost over it.
 *
 * <p>Refused (bad input, naming the folders): fewer than two folders, a summary.json schema this build
 * does not read, a folder whose reproduction is not known, folders of different reproductions, a
 * reproduction compare has no row identity for, and two rows of one folder with the same identity.
 */
public final class Compare implements Displayable {
    /** One folder as compared: its display name, what was loaded, its host and its rows by identity. */
    record Folder(String name, Results results, CompareHost host, Map<List<String>, Integer> rows) {}

    private final CompareSpec spec;
    private final List<Folder> folders;
    private final List<List<String>> keys;
    private final Table table;

    private Compare(CompareSpec spec, List<Folder> folders, List<List<String>> keys) {
        this.spec = spec;
        this.folders = folders;
        this.keys = keys;
        this.table = buildTable();
    }

    /** Folders read from disk for the comparison ({@link CompareFiles}: links refused, files read once). */
    static Compare load(List<Path> dirs) {
        requireTwo(dirs.size());
        return of(dirs.stream().map(CompareFiles::load).toList());
    }

    /** Folders already loaded; see the class comment for what is refused. */
    static Compare of(List<Results> loaded) {
        requireTwo(loaded.size());
        // A folder given twice is compared with itself (the noise rule's own check: every row "no
        // difference"); its later copies are named "NAME (2)", ... so every column and series stays apart.
        List<String> names = names(loaded);
        Map<String, String> reproductionOf = new LinkedHashMap<>();
        // Results.load has refused a schema it cannot read and a folder that names no reproduction.
        for (Results r : loaded) {
            reproductionOf.put(r.dir().toString(), clean(r.reproduction()));
        }
        if (reproductionOf.values().stream().distinct().count() > 1) {
            throw new BadInput(reproductionOf.entrySet().stream()
                            .map(e -> e.getKey() + " is " + e.getValue())
                            .collect(Collectors.joining(", "))
                    + ": compare lines up folders of one reproduction only");
        }
        String reproduction = reproductionOf.values().iterator().next();
        CompareSpec spec = CompareSpec.SUPPORTED.get(reproduction);
        if (spec == null) {
            throw new BadInput(String.join(", ", reproductionOf.keySet()) + ": " + reproduction
                    + " folders cannot be compared yet: compare knows the rows' identity only for "
                    + String.join(", ", CompareSpec.SUPPORTED.keySet()));
        }
        List<Folder> folders = new ArrayList<>();
        List<List<String>> keys = new ArrayList<>();
        Set<List<String>> seen = new HashSet<>();
        for (int i = 0; i < loaded.size(); i++) {
            Results r = loaded.get(i);
            Map<List<String>, Integer> rows = new LinkedHashMap<>();
            int at = keys.size(); // a row new to the comparison goes after the last row it follows here
            for (int j = 0; j < r.resultRows().size(); j++) {
                List<String> key = keyOf(spec, r.rowJson(j));
                Integer before = rows.put(key, j);
                if (before != null) {
                    throw BadInput.at(
                            r.dir().resolve("summary.json"),
                            "[" + before + "] and [" + j + "]",
                            "the same row twice (" + clean(label(spec, key)) + "); cannot tell which to line up");
                }
                if (seen.add(key)) {
                    keys.add(at++, key);
                } else {
                    at = keys.indexOf(key) + 1;
                }
            }
            folders.add(new Folder(names.get(i), r, CompareHost.of(r.env(), r.environmentJson()), rows));
        }
        return new Compare(spec, List.copyOf(folders), List.copyOf(keys));
    }

    /**
     * The results folders directly under {@code root} made by {@code reproduction}, by name: each a real
     * folder (not a link) holding a regular summary.json, read as {@link #load} reads them; others
     * ({@code published/}, folders of other reproductions) are passed over.
     */
    public static List<Path> foldersOf(Path root, String reproduction) throws IOException {
        List<Path> found = new ArrayList<>();
        try (var entries = Files.list(root)) {
            for (Path dir : entries.sorted().toList()) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                        || !Files.isRegularFile(dir.resolve("summary.json"), LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                Results r = CompareFiles.load(dir);
                if (reproduction.equals(r.reproduction())) {
                    found.add(dir);
                }
            }
        }
        return found;
    }

    private static void requireTwo(int n) {
        if (n < 2) {
            throw new BadInput("compare needs at least two results folders, got " + n + " (./lab compare DIR DIR...)");
        }
    }

    /**
     * Display names: the folders' own names, or the paths as given when two folders share a name; a
     * folder given again is "NAME (2)".
     */
    private static List<String> names(List<Results> loaded) {
        // named as the folder itself ("x/." is x), so a folder given twice has one name
        List<String> base = loaded.stream()
                .map(r -> {
                    Path named = r.dir().getFileName() == null
                                    || r.dir().getFileName().toString().equals(".")
                            ? r.dir().toAbsolutePath().normalize()
                            : r.dir();
                    return named.getFileName() == null
                            ? r.dir().toString()
                            : named.getFileName().toString();
                })
                .toList();
        long folders = loaded.stream()
                .map(r -> r.dir().toAbsolutePath().normalize())
                .distinct()
                .count();
        boolean clash = base.stream().distinct().count() > folders; // two different folders of one name
        List<String> shown =
                clash ? loaded.stream().map(r -> r.dir().toString()).toList() : base;
        List<String> unique = new ArrayList<>();
        for (String name : shown) {
            String u = name;
            for (int k = 2; unique.contains(u); k++) {
                u = name + " (" + k + ")";
            }
            unique.add(u);
        }
        return unique;
    }

    /**
     * A row's identity: its key fields as text, absent and null as "" and {@code false} as "" too (a
     * flag such as {@code sync_wakeup} is absent where it does not apply and false where it is off).
     * Read from the row's JSON tree by the names the spec gives: the identity is the same fields for
     * every reproduction compare supports, whatever its row type.
     */
    static List<String> keyOf(CompareSpec spec, JsonNode row) {
        List<String> key = new ArrayList<>();
        for (String k : spec.keys()) {
            JsonNode v = row.get(k);
            key.add(
                    v == null || v.isNull() || (v.isBoolean() && !v.booleanValue())
                            ? ""
                            : v.isContainerNode() ? v.toString() : v.asText());
        }
        return List.copyOf(key);
    }

    /** The non-blank parts of a key joined with " · "; a set flag is shown by its name. */
    static String label(CompareSpec spec, List<String> key) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            String v = key.get(i);
            if (v.isEmpty()) {
                continue;
            }
            parts.add(v.equals("true") ? spec.keys().get(i).replace('_', ' ') : v);
        }
        return String.join(" · ", parts);
    }

    /** The reproduction compared. */
    public String reproduction() {
        return spec.reproduction();
    }

    /** The unit of {@code median}, {@code added} and {@code published_added} ({@code ns}, {@code ns/event}). */
    public String unit() {
        return spec.unit();
    }

    /** The folders' display names, in the order given. */
    public List<String> folderNames() {
        return folders.stream().map(Folder::name).toList();
    }

    /** The key columns (row identity) in the table, in order. */
    public List<String> keyColumns() {
        return spec.keys().stream().map(Compare::keyColumn).toList();
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

    /** The rows' labels, in comparison order (the plot's categories without their numbers). */
    public List<String> rowLabels() {
        return keys.stream().map(k -> label(spec, k)).toList();
    }

    List<Folder> folders() {
        return folders;
    }

    /** The rows' identities, in comparison order. */
    List<List<String>> keys() {
        return keys;
    }

    CompareSpec spec() {
        return spec;
    }

    /**
     * Change detection, each folder after the first against the first, at the default threshold (5%) and
     * level (95%): one line per (row, later folder) with B/A, its interval, the U test's p-value and the
     * verdict ({@link CompareChanges#table}).
     */
    public Table changes() {
        return changes(ChangeTest.DEFAULT_THRESHOLD);
    }

    /** {@link #changes()} beyond another threshold, a fraction in [0, 1) (0.05 for 5%). */
    public Table changes(double threshold) {
        return CompareChanges.table(this, changeLines(threshold));
    }

    /** B/A by row with its interval, one series per later folder ({@link ComparePlot#changeByRow}). */
    public XYChart changePlot(double threshold) {
        return ComparePlot.changeByRow(this, changeLines(threshold), threshold);
    }

    /** {@link #changePlot} as PNG bytes. */
    public byte[] changePlotPng(double threshold) {
        return ComparePlot.png(changePlot(threshold));
    }

    private List<CompareChanges.Line> changeLines(double threshold) {
        return CompareChanges.lines(this, threshold, ChangeTest.DEFAULT_LEVEL);
    }

    /**
     * The comparison, one line per (row, folder), rows in comparison order and folders as given:
     * {@code n} (the row's number in the comparison), {@code label}, {@code folder}, {@code host},
     * {@code kernel}, {@code cpu}, {@code clocksource}, {@code pti}, {@code process_seccomp_filters},
     * {@code in_container} (environment.json's verdict), {@code container_signs} (what it was based on: a VM
     * image may carry {@code /.dockerenv} too), the key columns, {@code row} (its index in that folder's summary.json),
     * {@code present}, {@code status}, {@code interrupted}, {@code completed} ("runs done/asked"),
     * {@code median}, {@code added}, {@code published_added} and {@code ratio_to_published}
     * (added / published added).
     */
    public Table table() {
        return table;
    }

    private Table buildTable() {
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
                keyColumns().stream().map(StringColumn::create).toList();
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
            for (Folder f : folders) {
                n.append(k + 1);
                label.append(label(spec, key));
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

    /**
     * Whether any figure compared is emulated: then the comparison is in ratios (added over the same
     * run's unfiltered call), and emulated nanoseconds (and the published nanoseconds on their lines) are withheld from
     * every
     * column and the plot.
     */
    public boolean anyEmulated() {
        return table.booleanColumn("emulated").asList().stream().anyMatch(Boolean.TRUE::equals);
    }

    /** Whether the folders were made on more than one kernel: then the plot's series are the kernels. */
    boolean acrossKernels() {
        return folders.stream()
                        .map(f -> String.valueOf(f.host().kernel()))
                        .distinct()
                        .count()
                > 1;
    }

    /** What every emulated figure is marked with. */
    public static final String EMULATED = "emulated (TCG): ratios within this folder only";

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
     * One numeric column of {@link #table()} with the folders side by side: {@code n}, {@code label},
     * then one column per folder (named by the folder) and, for {@code added}, {@code published}. A
     * row a folder lacks is blank in its column.
     *
     * @param column {@code median}, {@code added}, {@code ratio_to_published} or {@code added_ratio}
     *     (added over the same run's unfiltered call: the one column an emulated folder fills)
     */
    public Table byFolder(String column) {
        if (!List.of("median", "added", "ratio_to_published", "added_ratio").contains(column)) {
            throw new IllegalArgumentException(
                    "byFolder takes median, added, ratio_to_published or added_ratio, not " + column);
        }
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
            label.append(label(spec, keys.get(k)));
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

    /** The headline: the reproduction, the folders, the rows and their unit. */
    @Override
    public Table headline() {
        return Headline.of("compare: " + spec.reproduction())
                .row("folders", String.join(", ", folderNames()))
                .row("rows", keys.size())
                .row("unit", spec.unit())
                .row("emulated", anyEmulated() ? EMULATED : "no")
                .table();
    }

    /** One line per (row, folder): label, folder, median, added, published added and their ratio. */
    @Override
    public Table detail() {
        return table.selectColumns(Stream.of(
                                "n",
                                "label",
                                "folder",
                                "median",
                                "added",
                                "published_added",
                                "ratio_to_published",
                                "status")
                        .filter(table.columnNames()::contains)
                        .toArray(String[]::new))
                .copy()
                .setName("rows by folder");
    }

    /** Added cost by row, one series per folder ({@link #plot()}). */
    @Override
    public CategoryChart chart() {
        return plot();
    }

    /** The headline, one figure a line, and the first rows by folder. */
    @Override
    public String toString() {
        return text();
    }

    /** Added cost by row, one series per folder (and the published figures as one more): {@link ComparePlot}. */
    public CategoryChart plot() {
        return ComparePlot.addedByRow(this);
    }

    /** The chart as PNG bytes, for writing with the project's safe writers. */
    public byte[] plotPng() {
        return ComparePlot.png(plot());
    }

    /**
     * The comparison as text: a table of the folders (host, kernel, CPU, clocksource, PTI, own
     * seccomp filters, container, schema, interrupted) and the rows, one line per folder, figures in
     * {@link #unit()}, a row absent from a folder shown as "(absent)"; then the changes against the
     * first folder ({@link #changes()}) at the default threshold.
     */
    public String text() {
        return text(ChangeTest.DEFAULT_THRESHOLD);
    }

    /** {@link #text()} with the changes judged beyond {@code threshold} (a fraction: 0.05 for 5%). */
    public String text(double threshold) {
        return tableText()
                + '\n'
                + CompareChanges.text(this, changeLines(threshold), threshold, ChangeTest.DEFAULT_LEVEL);
    }

    private String tableText() {
        StringBuilder sb = new StringBuilder();
        sb.append(spec.reproduction())
                .append(": ")
                .append(folders.size())
                .append(" folders, ")
                .append(keys.size())
                .append(" rows; median, added and published added in ")
                .append(spec.unit())
                .append("; ratio = added / published added\n\n");
        boolean ratios = anyEmulated();
        if (ratios) {
            sb.append("Emulated figures present (")
                    .append(EMULATED)
                    .append("): their median and added are withheld (blank), "
                            + "never set beside a native figure; every row is compared by added_ratio = added / the "
                            + "same run's "
                            + "unfiltered call.\n\n");
        }
        Table hosts = Table.create(
                "folders",
                StringColumn.create("folder"),
                StringColumn.create("host"),
                StringColumn.create("kernel"),
                StringColumn.create("cpu"),
                StringColumn.create("clocksource"),
                StringColumn.create("pti"),
                StringColumn.create("seccomp filters"),
                StringColumn.create("container"),
                StringColumn.create("schema"),
                StringColumn.create("interrupted"),
                StringColumn.create("vm"));
        for (Folder f : folders) {
            CompareHost h = f.host();
            List<String> cells = Stream.of(
                            f.name(),
                            orBlank(h.host()),
                            orBlank(h.kernel()),
                            orBlank(h.cpu()),
                            orBlank(h.clocksource()),
                            orBlank(h.pti()),
                            h.seccompFilters() == null ? "" : h.seccompFilters().toString(),
                            h.containerText(),
                            String.valueOf(f.results().schemaVersion()),
                            String.valueOf(f.results().interrupted()),
                            h.vmText())
                    .map(Compare::clean)
                    .toList();
            for (int c = 0; c < cells.size(); c++) {
                hosts.stringColumn(c).append(cells.get(c));
            }
        }
        sb.append(Tables.markdown(hosts)).append('\n');
        List<String> shownColumns = new ArrayList<>(List.of(
                "n",
                "label",
                "folder",
                "median",
                "added",
                "published_added",
                "ratio_to_published",
                "status",
                "completed"));
        if (ratios) {
            shownColumns.add(5, "added_ratio");
        }
        Table rows = table.selectColumns(shownColumns.toArray(String[]::new)).copy();
        StringColumn label = rows.stringColumn("label");
        StringColumn status = rows.stringColumn("status");
        BooleanColumn present = table.booleanColumn("present");
        BooleanColumn interrupted = table.booleanColumn("interrupted");
        Map<Integer, Boolean> shown = new HashMap<>();
        for (int i = 0; i < rows.rowCount(); i++) {
            if (shown.put(rows.intColumn("n").getInt(i), true) != null) {
                label.set(i, ""); // the label once per row, on its first folder's line
            } else {
                label.set(i, clean(label.get(i)));
            }
            rows.stringColumn("folder").set(i, clean(rows.stringColumn("folder").get(i)));
            status.set(i, clean(status.get(i)));
            if (!present.get(i)) {
                status.set(i, "(absent)");
                continue;
            }
            if (Boolean.TRUE.equals(interrupted.get(i))) {
                status.set(i, (status.isMissing(i) ? "" : status.get(i) + ", ") + "interrupted");
            }
            if (table.booleanColumn("emulated").get(i)) {
                status.set(i, (status.isMissing(i) ? "" : status.get(i) + ", ") + "emulated");
            }
        }
        sb.append(Tables.markdown(rows));
        return sb.toString();
    }

    /**
     * {@code s} with control characters (newlines, terminal escapes) shown as {@code \\uXXXX}: text from
     * a folder is printed to a terminal and into Markdown, where it must not break a line or drive the
     * terminal.
     */
    static String clean(String s) {
        if (s == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            if (Character.isISOControl(cp)
                    || cp == 0x2028
                    || cp == 0x2029
                    || Character.getType(cp) == Character.FORMAT) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", cp));
            } else {
                sb.appendCodePoint(cp);
            }
        });
        return sb.toString();
    }

    private static String orBlank(String s) {
        return s == null ? "" : s;
    }
}
