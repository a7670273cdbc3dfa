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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
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
        this.table = CompareTable.build(spec, folders, keys);
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
        return CompareTable.keyColumns(spec);
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

    /**
     * One numeric column of {@link #table()} with the folders side by side: {@code n}, {@code label},
     * then one column per folder (named by the folder) and, for {@code added}, {@code published}. A
     * row a folder lacks is blank in its column.
     *
     * @param column {@code median}, {@code added}, {@code ratio_to_published} or {@code added_ratio}
     *     (added over the same run's unfiltered call: the one column an emulated folder fills)
     */
    public Table byFolder(String column) {
        return CompareTable.byFolder(this, column);
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

    /** {@link #detail()}'s columns, which {@link #text()} shows too (with more). */
    static final List<String> DETAIL_COLUMNS =
            List.of("n", "label", "folder", "median", "added", "published_added", "ratio_to_published", "status");

    /** One line per (row, folder): label, folder, median, added, published added and their ratio. */
    @Override
    public Table detail() {
        return table.selectColumns(DETAIL_COLUMNS.stream()
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
        return CompareText.of(this)
                + '\n'
                + CompareChanges.text(this, changeLines(threshold), threshold, ChangeTest.DEFAULT_LEVEL);
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
}
