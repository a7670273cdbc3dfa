package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.JsonInput;
import heimdall.lab.Printable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
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
    static final ObjectMapper JSON = JsonInput.strict(JsonMapper.builder()
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // a figure is a JSON number, a flag true or false: "5" and "true" in their place are refused
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build());

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

    /**
     * A {@code summary.json} as written, the other way of {@link #parse}: the reproduction's name,
     * {@link #SCHEMA}, whether a stop cut the run short and how ({@code interruption}, as announced:
     * {@code "terminated (SIGTERM)"}; null when not), the {@code signal}'s name (null: none, or a
     * notebook or jshell interrupt), and the rows, each a {@link ResultRow} (written by {@link #tree})
     * or a tree already made.
     */
    public static ObjectNode summary(String reproduction, String interruption, String signal, List<?> rows) {
        ObjectNode top = JSON.createObjectNode();
        top.put("reproduction", reproduction);
        top.put("schema_version", SCHEMA);
        top.put("interrupted", interruption != null);
        top.put("interruption", interruption);
        top.put("signal", signal);
        var array = top.putArray("rows");
        for (Object row : rows) {
            array.add(row instanceof ResultRow r ? tree(r) : JSON.valueToTree(row));
        }
        return top;
    }

    private static final Pattern MISSING = Pattern.compile("Missing required creator property '([^']+)'");

    /**
     * Reads {@code dir}'s summary.json. The reproduction is summary.json's {@code reproduction}; a
     * folder written before summary.json named it (schema 1) takes the one its environment.json
     * recorded, which every such folder has. Never guessed from the rows' fields.
     */
    public static Summary read(Path dir) {
        Path env = dir.resolve("environment.json");
        return parse(
                dir,
                tree(dir.resolve("summary.json")),
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
            throw BadInput.at(
                    file,
                    "(top level)",
                    "expected an object with \"rows\" (or, before schema 2, an array of " + "rows)");
        }
        ReproductionKind<?, ?> kind;
        int schema;
        boolean interrupted = false;
        String interruption = null;
        String signal = null;
        JsonNode rows;
        if (top.isObject()) {
            JsonNode version = top.get("schema_version");
            if (version == null) {
                throw BadInput.at(
                        file,
                        "schema_version",
                        "missing (a summary with \"rows\" names its schema, 2.." + SCHEMA + ")");
            }
            // compared as written: 4294967298 is no schema 2 (an int cast would make it one)
            if (!version.isIntegralNumber()
                    || version.bigIntegerValue().compareTo(BigInteger.TWO) < 0
                    || version.bigIntegerValue().compareTo(BigInteger.valueOf(SCHEMA)) > 0) {
                throw BadInput.at(
                        file, "schema_version", "expected a whole number 2.." + SCHEMA + ", found " + shown(version));
            }
            schema = version.intValue();
            kind = ReproductionKind.named(text(file, top, "reproduction", true), file, "reproduction");
            JsonNode flag = top.get("interrupted");
            if (flag == null || !flag.isBoolean()) {
                throw BadInput.at(file, "interrupted", "expected true or false, found " + shown(flag));
            }
            interrupted = flag.booleanValue();
            interruption = text(file, top, "interruption", false);
            signal = text(file, top, "signal", false);
            rows = top.get("rows");
            if (rows == null || !rows.isArray()) {
                throw BadInput.at(file, "rows", "expected an array of row objects, found " + shown(rows));
            }
        } else {
            schema = 1;
            rows = top;
            Path env = dir.resolve("environment.json");
            String name = environment != null && environment.isObject()
                    ? text(env, environment, "reproduction", false)
                    : null;
            if (name == null) {
                throw BadInput.at(
                        file,
                        "(top level)",
                        "a schema 1 summary (bare array) names no reproduction, and " + env
                                + " does not either: cannot tell which rows these are");
            }
            kind = ReproductionKind.named(name, env, "reproduction");
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
        EnvironmentInfo info = convert(file, "", top, EnvironmentInfo.class);
        RowValues.check(file, "(top level)", info);
        return info;
    }

    /**
     * One row object as {@code type} (a row built from parts through {@link FlatRows}); bad input
     * naming {@code file} and {@code where} (plus the field) when it does not fit.
     */
    public static <T> T row(Path file, String where, JsonNode node, Class<T> type) {
        if (node == null || !node.isObject()) {
            throw BadInput.at(file, where, "expected an object, found " + JsonInput.kind(node));
        }
        Class<? extends T> kind = subtype(file, where, node, type);
        T row = FlatRows.hasParts(kind)
                ? FlatRows.read(file, where, node, kind, SummaryJson::value)
                : convert(file, where, node, kind);
        RowValues.check(file, where, row);
        return row;
    }

    /**
     * The row type {@code node} is: {@code type} itself, or for a type whose rows say their kind in a
     * property ({@code KernelBitmapRow}'s {@code section}), the kind it names; bad input naming the
     * property when it is missing or names no kind.
     */
    private static <T> Class<? extends T> subtype(Path file, String where, JsonNode node, Class<T> type) {
        JsonTypeInfo info = type.getAnnotation(JsonTypeInfo.class);
        JsonSubTypes subs = type.getAnnotation(JsonSubTypes.class);
        if (info == null || subs == null) {
            return type;
        }
        List<String> names =
                Arrays.stream(subs.value()).map(JsonSubTypes.Type::name).toList();
        JsonNode id = node.get(info.property());
        if (id == null || id.isNull()) {
            throw BadInput.at(
                    file,
                    join(where, info.property()),
                    "missing (it says which kind of row this is, one of " + names + ")");
        }
        for (JsonSubTypes.Type t : subs.value()) {
            if (id.isTextual() && t.name().equals(id.textValue())) {
                return t.value().asSubclass(type);
            }
        }
        throw BadInput.at(
                file,
                join(where, info.property()),
                "unknown kind \"" + Printable.of(id.asText()) + "\" (known: " + names + ")");
    }

    /**
     * One value of a row built from parts ({@link FlatRows}), at {@code at}: an enum by the name it is
     * written under (bad input naming the known ones for another), anything else as Jackson reads it.
     */
    private static Object value(Path file, String at, JsonNode value, JavaType type) {
        if (type.isEnumType()) {
            String field = at.substring(at.lastIndexOf('.') + 1);
            List<String> known = new ArrayList<>();
            for (Object constant : type.getRawClass().getEnumConstants()) {
                String label = JSON.valueToTree(constant).asText();
                if (value.isTextual() && label.equals(value.textValue())) {
                    return constant;
                }
                known.add(label);
            }
            throw BadInput.at(
                    file,
                    at,
                    value.isTextual()
                            ? "unknown " + field + " \"" + Printable.of(value.textValue()) + "\" (known: " + known + ")"
                            : "expected a string, found " + shown(value));
        }
        return convert(file, at, value, type);
    }

    private static <T> T convert(Path file, String where, JsonNode node, Class<T> type) {
        return convert(file, where, node, JSON.getTypeFactory().constructType(type));
    }

    private static <T> T convert(Path file, String where, JsonNode node, JavaType javaType) {
        Class<?> type = javaType.getRawClass();
        try {
            return JSON.readerFor(javaType).readValue(node);
        } catch (UnrecognizedPropertyException e) {
            throw BadInput.at(
                    file,
                    join(where, path(e)),
                    "unknown field for a " + type.getSimpleName() + " (known: " + e.getKnownPropertyIds() + ")");
        } catch (InvalidTypeIdException e) {
            throw BadInput.at(
                    file,
                    join(where, typeProperty(e)),
                    e.getTypeId() == null
                            ? "missing (it says which kind of row this is, one of " + typeNames(e) + ")"
                            : "unknown kind \"" + Printable.of(e.getTypeId()) + "\" (known: " + typeNames(e) + ")");
        } catch (JsonMappingException e) {
            Matcher m = MISSING.matcher(String.valueOf(e.getOriginalMessage()));
            if (m.find()) {
                String at = path(e);
                String field = at.equals(m.group(1)) || at.endsWith("." + m.group(1)) ? at : join(at, m.group(1));
                throw BadInput.at(file, join(where, field), "missing (every " + type.getSimpleName() + " has it)");
            }
            throw BadInput.at(file, join(where, path(e)), mismatch(e, node));
        } catch (JsonProcessingException e) {
            // a number too large for its field ("out of range of long") comes from the parser, without a path
            throw BadInput.at(file, where, JsonInput.reason(e));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a tree in memory", e); // a tree is never short
        }
    }

    /** Why a value does not fit its field, in our words: what the field takes and what was found. */
    private static String mismatch(JsonMappingException e, JsonNode node) {
        JsonNode found = at(node, e.getPath());
        if (e instanceof ValueInstantiationException v && v.getCause() instanceof IllegalArgumentException iae) {
            return "not valid: " + Printable.of(iae.getMessage());
        }
        if (found != null && found.isIntegralNumber() && !found.canConvertToLong()) {
            return "the number " + shown(found) + " is out of range (a 64-bit whole number)";
        }
        if (e instanceof MismatchedInputException mi && mi.getTargetType() != null) {
            return "expected " + expected(mi.getTargetType()) + ", found " + (found == null ? "null" : shown(found));
        }
        return "not a value this field takes" + (found == null ? "" : ", found " + shown(found));
    }

    /** What a field of {@code type} holds, in words. */
    private static String expected(Class<?> type) {
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
            return "a whole number";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    /** The node {@code path} leads to from {@code node}, or null. */
    private static JsonNode at(JsonNode node, List<JsonMappingException.Reference> path) {
        JsonNode n = node;
        for (JsonMappingException.Reference r : path) {
            if (n == null) {
                return null;
            }
            n = r.getFieldName() != null ? n.get(r.getFieldName()) : r.getIndex() >= 0 ? n.get(r.getIndex()) : n;
        }
        return n;
    }

    /** The property that names a row's kind ({@code section} for kernel-bitmap), joined to the path. */
    private static String typeProperty(InvalidTypeIdException e) {
        JsonTypeInfo info =
                e.getBaseType() == null ? null : e.getBaseType().getRawClass().getAnnotation(JsonTypeInfo.class);
        return join(path(e), info == null ? "" : info.property());
    }

    /** The kinds a row's type property may name. */
    private static List<String> typeNames(InvalidTypeIdException e) {
        JsonSubTypes subs =
                e.getBaseType() == null ? null : e.getBaseType().getRawClass().getAnnotation(JsonSubTypes.class);
        return subs == null
                ? List.of()
                : Arrays.stream(subs.value()).map(JsonSubTypes.Type::name).toList();
    }

    /** A JSON value as quoted in a message: at most 40 characters, control characters escaped. */
    static String shown(JsonNode n) {
        if (n == null) {
            return "nothing";
        }
        String s = n.isContainerNode() ? (n.isArray() ? "an array" : "an object") : n.toString();
        return Printable.of(s.length() > 40 ? s.substring(0, 37) + "..." : s);
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

    /**
     * Parses bytes read once from {@code file}; bad input naming it, the line and column and why when
     * they are not one JSON value (a key twice in an object, content after it, NaN, ...).
     */
    public static JsonNode tree(Path file, byte[] bytes) {
        return JsonInput.tree(JSON, file, bytes);
    }

    /** A summary.json or environment.json is well under 64 MiB; the bound keeps a hostile one off the heap. */
    private static final long MAX_BYTES = 64L << 20;

    /**
     * A published table's file ({@code results/published/*.json}) read as every file the harness reads
     * (no link followed, no FIFO waited on, a regular file, bounded) and mapped to {@code type}; bad input
     * naming the file and field when it does not fit.
     */
    static <T> T published(Path file, Class<T> type) {
        return row(file, "", tree(file), type);
    }

    private static JsonNode tree(Path file) {
        // No link followed, no FIFO waited on, regular files only, bounded; parsed from that one copy.
        return tree(file, HostileFiles.read(file, MAX_BYTES));
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
            throw BadInput.at(file, field, "expected a string, found " + shown(v));
        }
        return v.textValue();
    }
}
