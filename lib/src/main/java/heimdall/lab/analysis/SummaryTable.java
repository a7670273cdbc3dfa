package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * {@link Results#summary()}: summary.json's rows as a Tablesaw table, made once when a folder is parsed. Apart
 * from {@link Results} because it is the one place a row is still its JSON fields by name (every other
 * reader takes the typed rows), and the column typing rules below are its whole job.
 */
final class SummaryTable {
    private SummaryTable() {}

    /**
     * summary.json's rows as a table, from the JSON tree (the boundary where a row is still its
     * fields by name): scalar fields become columns, the published object's scalars
     * {@code published_<name>} columns, lists stay out.
     */
    static Table of(JsonNode rows) {
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
}
