package heimdall.lab.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The comparison's first part as text ({@link Compare#text()}, what {@code ./lab compare} prints before the
 * changes): the folders' host facts and the rows by folder as Markdown tables, every value from a folder
 * passed through {@link Compare#clean}. Apart from {@link Compare} because it only renders: what the
 * figures are is {@link CompareTable}'s.
 */
final class CompareText {
    private CompareText() {}

    /**
     * The folders (host, kernel, CPU, clocksource, PTI, own seccomp filters, container, schema, interrupted,
     * VM) and the rows, one line per folder, a row absent from a folder shown as "(absent)".
     */
    static String of(Compare compare) {
        CompareSpec spec = compare.spec();
        List<Compare.Folder> folders = compare.folders();
        Table table = compare.table();
        StringBuilder sb = new StringBuilder();
        sb.append(spec.reproduction())
                .append(": ")
                .append(folders.size())
                .append(" folders, ")
                .append(compare.keys().size())
                .append(" rows; median, added and published added in ")
                .append(spec.unit())
                .append("; ratio = added / published added\n\n");
        boolean ratios = compare.anyEmulated();
        if (ratios) {
            sb.append("Emulated figures present (")
                    .append(Compare.EMULATED)
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
        for (Compare.Folder f : folders) {
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
        List<String> shownColumns = new ArrayList<>(Compare.DETAIL_COLUMNS);
        shownColumns.add("completed");
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
                label.set(i, Compare.clean(label.get(i)));
            }
            rows.stringColumn("folder")
                    .set(i, Compare.clean(rows.stringColumn("folder").get(i)));
            status.set(i, Compare.clean(status.get(i)));
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

    private static String orBlank(String s) {
        return s == null ? "" : s;
    }
}
