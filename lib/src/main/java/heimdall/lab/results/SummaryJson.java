package heimdall.lab.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a results folder's {@code summary.json} and {@code environment.json} into {@link Summary}
 * and {@link EnvironmentInfo}. Strict where it can be: a row field no reproduction ever wrote, a
 * missing identifying field or a value of the wrong type is bad input naming the file and the field
 * ({@code summary.json: rows[3].median_ns: ...}); a float is never silently truncated to an integer.
 */
public final class SummaryJson {
    private SummaryJson() {}

    /** {@code summary.json}'s schema: 1 was a bare array of rows; 2 wraps them with the run's facts. */
    public static final int SCHEMA = 2;

    /** The mapper every results file is read with (shared, thread-safe once configured). */
    static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * A row as its reproduction writes it into summary.json: its fields in record order, a null field
     * written only when the row names it in {@link ResultRow#nullsWritten()}, else left out.
     */
    public static ObjectNode tree(ResultRow row) {
        ObjectNode node = JSON.valueToTree(row);
        Set<String> keep = row.nullsWritten();
        List<String> drop = new ArrayList<>();
        node.fields().forEachRemaining(e -> {
            if (e.getValue().isNull() && !keep.contains(e.getKey())) {
                drop.add(e.getKey());
            }
        });
        node.remove(drop);
        return node;
    }

    /** {@link #tree} of every row, for {@code ResultsFolder.writeSummary}. */
    public static List<ObjectNode> trees(List<? extends ResultRow> rows) {
        return rows.stream().map(SummaryJson::tree).toList();
    }

    private static final Pattern MISSING = Pattern.compile("Missing required creator property '([^']+)'");

    /**
     * Reads {@code dir}'s summary.json. The reproduction is summary.json's {@code reproduction}; a
     * folder written before summary.json named it (schema 1) takes the one its environment.json
     * recorded, which every such folder has. Never guessed from the rows' fields.
     */
    public static Summary read(Path dir) {
        Path env = dir.resolve("environment.json");
        return parse(dir, tree(dir.resolve("summary.json")),
                Files.isRegularFile(env, LinkOption.NOFOLLOW_LINKS) ? tree(env) : null);
    }

    /**
     * {@link #read} on the files' trees, each parsed once from one read ({@code environment} null when
     * the folder has none), so a caller that reads a folder once decides on that copy.
     */
    public static Summary parse(Path dir, JsonNode summary, JsonNode environment) {
        Path file = dir.resolve("summary.json");
        JsonNode top = summary;
        if (top == null || !(top.isArray() || top.isObject())) {
            throw BadInput.at(file, "(top level)", "expected an object with \"rows\" (or, before schema 2, an array of rows)");
        }
        ResultKind kind;
        int schema;
        boolean interrupted = false;
        String interruption = null;
        String signal = null;
        JsonNode rows;
        if (top.isObject()) {
            JsonNode version = top.get("schema_version");
            if (version == null) {
                throw BadInput.at(file, "schema_version", "missing (a summary with \"rows\" names its schema, 2.." + SCHEMA + ")");
            }
            if (!version.canConvertToExactIntegral() || version.intValue() < 2 || version.intValue() > SCHEMA) {
                throw BadInput.at(file, "schema_version", "expected 2.." + SCHEMA + ", found " + version);
            }
            schema = version.intValue();
            kind = ResultKind.named(text(file, top, "reproduction", true), file, "reproduction");
            JsonNode flag = top.get("interrupted");
            if (flag == null || !flag.isBoolean()) {
                throw BadInput.at(file, "interrupted", "expected true or false, found " + flag);
            }
            interrupted = flag.booleanValue();
            interruption = text(file, top, "interruption", false);
            signal = text(file, top, "signal", false);
            rows = top.get("rows");
            if (rows == null || !rows.isArray()) {
                throw BadInput.at(file, "rows", "expected an array of row objects, found " + rows);
            }
        } else {
            schema = 1;
            rows = top;
            Path env = dir.resolve("environment.json");
            String name = environment != null && environment.isObject() ? text(env, environment, "reproduction", false) : null;
            if (name == null) {
                throw BadInput.at(file, "(top level)", "a schema 1 summary (bare array) names no reproduction, and "
                        + env + " does not either: cannot tell which rows these are");
            }
            kind = ResultKind.named(name, env, "reproduction");
        }
        List<ResultRow> typed = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            typed.add(row(file, "rows[" + i + "]", rows.get(i), kind.rowType()));
        }
        return new Summary(kind, schema, interrupted, interruption, signal, typed);
    }

    /** Reads {@code dir}'s environment.json, or null when the folder has none. */
    public static EnvironmentInfo environment(Path dir) {
        Path file = dir.resolve("environment.json");
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        return environment(dir, tree(file));
    }

    /** {@link #environment(Path)} on the file's tree, parsed once from one read (null: the folder has none). */
    public static EnvironmentInfo environment(Path dir, JsonNode top) {
        Path file = dir.resolve("environment.json");
        if (top == null) {
            return null;
        }
        if (!top.isObject()) {
            throw BadInput.at(file, "(top level)", "expected an object");
        }
        return convert(file, "", top, EnvironmentInfo.class);
    }

    /** One row object as {@code type}; bad input naming {@code file} and {@code where} (plus the field) when it does not fit. */
    static <T> T row(Path file, String where, JsonNode node, Class<T> type) {
        if (node == null || !node.isObject()) {
            throw BadInput.at(file, where, "expected an object, found " + (node == null ? "nothing" : node.getNodeType()));
        }
        return convert(file, where, node, type);
    }

    private static <T> T convert(Path file, String where, JsonNode node, Class<T> type) {
        try {
            return JSON.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            throw BadInput.at(file, join(where, path(e)), "unknown field for a " + type.getSimpleName()
                    + " (known: " + e.getKnownPropertyIds() + ")");
        } catch (JsonMappingException e) {
            Matcher m = MISSING.matcher(String.valueOf(e.getOriginalMessage()));
            if (m.find()) {
                String at = path(e);
                String field = at.equals(m.group(1)) || at.endsWith("." + m.group(1)) ? at : join(at, m.group(1));
                throw BadInput.at(file, join(where, field), "missing (every " + type.getSimpleName() + " has it)");
            }
            throw BadInput.at(file, join(where, path(e)), firstLine(e.getOriginalMessage()));
        } catch (JsonProcessingException e) {
            throw BadInput.at(file, where, firstLine(e.getOriginalMessage()));
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : b.startsWith("[") ? a + b : a + "." + b;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "not as expected";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Parses bytes read once from {@code file}; bad input naming it when they are not JSON. */
    public static JsonNode tree(Path file, byte[] bytes) {
        try {
            JsonNode top = JSON.readTree(bytes);
            if (top == null || top.isMissingNode()) {
                throw new BadInput(file + ": empty, not JSON");
            }
            return top;
        } catch (IOException e) {
            throw new BadInput(file + ": not readable JSON: " + firstLine(e.getMessage()), e);
        }
    }

    private static JsonNode tree(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInput(file + ": not readable JSON: " + firstLine(e.getMessage()), e);
        }
    }

    private static String text(Path file, JsonNode top, String field, boolean required) {
        JsonNode v = top.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw BadInput.at(file, field, "missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw BadInput.at(file, field, "expected a string, found " + v);
        }
        return v.textValue();
    }
}
