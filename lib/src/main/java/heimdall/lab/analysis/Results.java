package heimdall.lab.analysis;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.Field;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * A results folder ({@code results/<date>-<host>/}) loaded for analysis: {@code summary.json} as a
 * table (one row per measured row, {@code row} = its index), {@code samples.arrow} as a long table and
 * {@code environment.json} as a map.
 *
 * <p>Scalar fields become columns (numbers: {@code long} when every value is whole, else
 * {@code double}; booleans; strings); the {@code published} object is flattened into
 * {@code published_<name>} columns; lists such as {@code run_medians_ns} stay in {@link #rows()}.
 * Samples are read lazily, on the first call to {@link #samples()}.
 */
public final class Results {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final List<Map<String, Object>> rows;
    private final Table summary;
    private final Map<String, Object> environment;
    private Table samples;

    private Results(Path dir, List<Map<String, Object>> rows, Table summary, Map<String, Object> environment) {
        this.dir = dir;
        this.rows = rows;
        this.summary = summary;
        this.environment = environment;
    }

    /** Loads a results folder; bad input (naming the file and field) when it does not hold the contract. */
    public static Results load(Path dir) {
        Path summaryFile = dir.resolve("summary.json");
        if (!Files.isRegularFile(summaryFile)) {
            throw new BadInput(summaryFile + ": missing (is " + dir + " a results folder?)");
        }
        List<Map<String, Object>> rows;
        try {
            JsonNode node = JSON.readTree(summaryFile.toFile());
            if (node == null || !node.isArray()) {
                throw BadInput.at(summaryFile, "(top level)", "expected a JSON array of row objects");
            }
            rows = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                JsonNode r = node.get(i);
                if (!r.isObject()) {
                    throw BadInput.at(summaryFile, "[" + i + "]", "expected an object, found " + r.getNodeType());
                }
                rows.add(JSON.convertValue(r, new TypeReference<LinkedHashMap<String, Object>>() {}));
            }
        } catch (IOException e) {
            throw new BadInput(summaryFile + ": not readable JSON: " + e.getMessage(), e);
        }
        Map<String, Object> env = Map.of();
        Path envFile = dir.resolve("environment.json");
        if (Files.isRegularFile(envFile)) {
            try {
                env = JSON.readValue(envFile.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
            } catch (IOException e) {
                throw new BadInput(envFile + ": not a JSON object: " + e.getMessage(), e);
            }
        }
        return new Results(dir, List.copyOf(rows), summaryTable(summaryFile, rows), env);
    }

    /** The folder this was loaded from. */
    public Path dir() {
        return dir;
    }

    /** summary.json as a table; column {@code row} is the row's index (samples' {@code row}). */
    public Table summary() {
        return summary;
    }

    /** summary.json's row objects as parsed (lists and the published object included). */
    public List<Map<String, Object>> rows() {
        return rows;
    }

    /** environment.json (empty when the folder has none). */
    public Map<String, Object> environment() {
        return environment;
    }

    /** Floor/broker/load rows have {@code what}; graph rows have {@code graph}. */
    public boolean hasGraphRows() {
        return summary.columnNames().contains("graph");
    }

    /**
     * samples.arrow as a table: floor/broker/load folders give {@code row, variant, run, seq, ns};
     * graph folders give {@code row, sample, ns_per_event}.
     */
    public synchronized Table samples() {
        if (samples == null) {
            samples = readArrow(dir.resolve("samples.arrow"));
        }
        return samples;
    }

    /** A short label for row {@code i}: what and call, plus supervisor/answer/load where present. */
    public String label(int i) {
        Map<String, Object> r = rows.get(i);
        if (r.get("graph") != null) {
            return r.get("graph") + " / " + r.get("trace") + " / " + r.get("layout");
        }
        StringBuilder sb = new StringBuilder();
        sb.append(r.getOrDefault("what", "row " + i));
        if (r.get("call") != null) {
            sb.append(" · ").append(r.get("call"));
        }
        for (String k : List.of("supervisor", "answer", "load")) {
            if (r.get(k) != null) {
                sb.append(" · ").append(r.get(k));
            }
        }
        return sb.toString();
    }

    /** A numeric list field of row {@code i} (e.g. {@code run_medians_ns}); empty when absent. */
    public List<Double> numbers(int i, String field) {
        Object v = rows.get(i).get(field);
        List<Double> out = new ArrayList<>();
        if (v instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Number n) {
                    out.add(n.doubleValue());
                } else if (o != null) {
                    throw BadInput.at(dir.resolve("summary.json"), "[" + i + "]." + field, "expected numbers, found " + o);
                }
            }
        }
        return out;
    }

    private static Table summaryTable(Path file, List<Map<String, Object>> rows) {
        // Flatten the published object; keep scalar fields; remember the order fields first appear in.
        List<Map<String, Object>> flat = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        names.add("row");
        for (Map<String, Object> r : rows) {
            Map<String, Object> f = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : r.entrySet()) {
                Object v = e.getValue();
                if (v instanceof Map<?, ?> m) {
                    for (Map.Entry<?, ?> pe : m.entrySet()) {
                        if (!(pe.getValue() instanceof Map) && !(pe.getValue() instanceof List)) {
                            f.put(e.getKey() + "_" + pe.getKey(), pe.getValue());
                        }
                    }
                } else if (!(v instanceof List)) {
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
            t.addColumns(column(file, name, flat));
        }
        return t;
    }

    private static Column<?> column(Path file, String name, List<Map<String, Object>> rows) {
        boolean numbers = true;
        boolean whole = true;
        boolean bools = true;
        boolean any = false;
        for (Map<String, Object> r : rows) {
            Object v = r.get(name);
            if (v == null) {
                continue;
            }
            any = true;
            numbers &= v instanceof Number;
            bools &= v instanceof Boolean;
            whole &= v instanceof Integer || v instanceof Long || v instanceof java.math.BigInteger;
        }
        if (!any || numbers) {
            if (any && whole) {
                LongColumn c = LongColumn.create(name);
                rows.forEach(r -> {
                    Object v = r.get(name);
                    if (v == null) {
                        c.appendMissing();
                    } else {
                        c.append(((Number) v).longValue());
                    }
                });
                return c;
            }
            DoubleColumn c = DoubleColumn.create(name);
            rows.forEach(r -> {
                Object v = r.get(name);
                if (v == null) {
                    c.appendMissing();
                } else {
                    c.append(((Number) v).doubleValue());
                }
            });
            return c;
        }
        if (bools) {
            BooleanColumn c = BooleanColumn.create(name);
            rows.forEach(r -> {
                Object v = r.get(name);
                if (v == null) {
                    c.appendMissing();
                } else {
                    c.append((Boolean) v);
                }
            });
            return c;
        }
        StringColumn c = StringColumn.create(name);
        rows.forEach(r -> {
            Object v = r.get(name);
            if (v == null) {
                c.appendMissing();
            } else {
                c.append(String.valueOf(v));
            }
        });
        return c;
    }

    /** Reads an Arrow IPC file of int32, int64, float64 and utf8 columns into a table. */
    static Table readArrow(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BadInput(file + ": missing (samples are written by ./lab reproduce)");
        }
        try (BufferAllocator allocator = new RootAllocator();
             FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
             ArrowFileReader reader = new ArrowFileReader(ch, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            List<Column<?>> columns = new ArrayList<>();
            for (Field f : root.getSchema().getFields()) {
                columns.add(switch (root.getVector(f.getName()).getMinorType()) {
                    case INT -> IntColumn.create(f.getName());
                    case BIGINT -> LongColumn.create(f.getName());
                    case FLOAT8 -> DoubleColumn.create(f.getName());
                    case VARCHAR -> StringColumn.create(f.getName());
                    default -> throw BadInput.at(file, f.getName(), "unsupported Arrow type " + f.getType());
                });
            }
            while (reader.loadNextBatch()) {
                int n = root.getRowCount();
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
                            ((StringColumn) c).append(new String(sv.get(i), java.nio.charset.StandardCharsets.UTF_8));
                        }
                    }
                }
            }
            return Table.create("samples", columns);
        } catch (IOException e) {
            throw new BadInput(file + ": not an Arrow IPC file: " + e.getMessage(), e);
        }
    }
}
