package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one mapping between a row built from parts ({@link Flat} components) and its flat
 * {@code summary.json} object, both ways: {@link Writer} writes every part's fields in place, in
 * component order, under their prefixed names; {@link #read} builds the parts back from the same
 * keys. A key no part names is an unknown field, as for any other row. A part may be a generic record
 * whose parts are its type argument ({@code ByMethod<Verdicts>}: one record for six places of the
 * same shape), resolved from the component that holds it. Public for {@link Writer} alone, which a row record
 * outside this package names too (a kind added from the test sources).
 */
public final class FlatRows {
    private FlatRows() {}

    /** Whether {@code type} is a record with a {@link Flat} part (read by {@link #read}, not by Jackson). */
    static boolean hasParts(Class<?> type) {
        return type.isRecord()
                && Arrays.stream(type.getRecordComponents()).anyMatch(c -> c.isAnnotationPresent(Flat.class));
    }

    /** The JSON name of a plain component: its {@code @JsonProperty}, else its own name. */
    private static String name(RecordComponent c) {
        JsonProperty p = c.getAccessor().getAnnotation(JsonProperty.class);
        return p != null && !p.value().isEmpty() ? p.value() : c.getName();
    }

    private static boolean required(RecordComponent c) {
        JsonProperty p = c.getAccessor().getAnnotation(JsonProperty.class);
        return p != null && p.required();
    }

    /** Every flat key {@code type} reads and writes, in order, under {@code prefix}. */
    static List<String> keys(Class<?> type, String prefix) {
        return keys(type, new Names(prefix, ""));
    }

    private static List<String> keys(Type type, Names names) {
        List<String> keys = new ArrayList<>();
        for (RecordComponent c : raw(type).getRecordComponents()) {
            Flat part = c.getAnnotation(Flat.class);
            if (part != null) {
                if (!names.omits(c.getName())) { // a part omitted by its component's name
                    keys.addAll(keys(typeIn(c, type), names.inner(part)));
                }
            } else if (!names.omits(name(c))) {
                keys.add(names.of(name(c)));
            }
        }
        return keys;
    }

    /** The class of a record type: itself, or a generic record's own class ({@code ByMethod}). */
    private static Class<?> raw(Type type) {
        if (type instanceof ParameterizedType p) {
            return (Class<?>) p.getRawType();
        }
        if (type instanceof Class<?> c && c.isRecord()) {
            return c;
        }
        throw new IllegalStateException("a part is a record or a generic record with its argument named, not " + type);
    }

    /**
     * The type of {@code c} within {@code owner}: as declared, or for a type variable of a generic
     * {@code owner}, the argument the component holding it names ({@code ByMethod<Verdicts>}: Verdicts).
     */
    private static Type typeIn(RecordComponent c, Type owner) {
        Type t = c.getGenericType();
        if (t instanceof TypeVariable<?> v && owner instanceof ParameterizedType p) {
            TypeVariable<?>[] vars = raw(owner).getTypeParameters();
            for (int i = 0; i < vars.length; i++) {
                if (vars[i].equals(v)) {
                    return p.getActualTypeArguments()[i];
                }
            }
        }
        return t;
    }

    /**
     * A record's values by their flat keys, in order: its plain components under their names, each
     * part's in its place under the part's names (a null part: none). What is written, and what
     * {@link RowValues} checks.
     */
    static Map<String, Object> values(Object record) {
        Map<String, Object> values = new LinkedHashMap<>();
        values(record, new Names("", ""), values);
        return values;
    }

    private static void values(Object record, Names names, Map<String, Object> out) {
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = c.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException(
                        "cannot read " + record.getClass().getSimpleName() + "." + c.getName(), e);
            }
            Flat part = c.getAnnotation(Flat.class);
            if (part == null) {
                if (!names.omits(name(c))) {
                    out.put(names.of(name(c)), value);
                }
            } else if (value != null && !names.omits(c.getName())) {
                values(value, names.inner(part), out);
            }
        }
    }

    /** How the keys of a part are made from its fields' names: the prefixes and tag of the parts it is in. */
    private record Names(String prefix, String tag, Set<String> omit) {
        Names(String prefix, String tag) {
            this(prefix, tag, Set.of());
        }

        Names inner(Flat part) {
            if (!tag.isEmpty() && !part.tag().isEmpty()) {
                throw new IllegalStateException("a tagged part within a tagged part");
            }
            return new Names(prefix + part.prefix(), tag + part.tag(), Set.of(part.omit()));
        }

        /** Whether the field {@code name} of the part has no key here. */
        boolean omits(String name) {
            return omit.contains(name);
        }

        String of(String name) {
            if (tag.isEmpty()) {
                return prefix + name;
            }
            return prefix
                    + (name.endsWith("_ns")
                            ? name.substring(0, name.length() - 3) + "_" + tag + "_ns"
                            : name + "_" + tag);
        }
    }

    /**
     * Reads {@code node} (a row object of {@code file} at {@code where}) as {@code type}: each plain
     * component from its key with {@code leaf}, each part from the same object; bad input naming the
     * field for an unknown key, a missing required one, or a value its component does not take.
     */
    static <T> T read(Path file, String where, JsonNode node, Class<T> type, Leaf leaf) {
        Set<String> known = new LinkedHashSet<>(keys(type, ""));
        for (var it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!known.contains(key)) {
                throw BadInput.at(
                        file,
                        join(where, key),
                        "unknown field for a " + type.getSimpleName() + " (known: " + new TreeSet<>(known) + ")");
            }
        }
        return type.cast(build(file, where, node, type, new Names("", ""), type, leaf));
    }

    /** How one plain value is read (SummaryJson's conversion, with its errors in our words). */
    interface Leaf {
        Object read(Path file, String at, JsonNode value, JavaType type);
    }

    private static Object build(
            Path file, String where, JsonNode node, Type type, Names names, Class<?> row, Leaf leaf) {
        RecordComponent[] components = raw(type).getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent c = components[i];
            types[i] = c.getType();
            Flat part = c.getAnnotation(Flat.class);
            if (part != null) {
                if (names.omits(c.getName())) {
                    continue; // a part with no keys in this place: null here
                }
                Names inner = names.inner(part);
                Type partType = typeIn(c, type);
                boolean any = keys(partType, inner).stream().anyMatch(node::has);
                values[i] = any ? build(file, where, node, partType, inner, row, leaf) : null;
                continue;
            }
            String key = names.of(name(c));
            JsonNode value = names.omits(name(c)) ? null : node.get(key);
            if (value == null) {
                if (required(c)) {
                    throw BadInput.at(file, join(where, key), "missing (every " + row.getSimpleName() + " has it)");
                }
                continue;
            }
            JavaType javaType = SummaryJson.JSON.getTypeFactory().constructType(typeIn(c, type));
            values[i] = value.isNull() ? null : leaf.read(file, join(where, key), value, javaType);
            if (values[i] == null && c.getType().isPrimitive()) {
                throw BadInput.at(file, join(where, key), "expected a value, found null");
            }
        }
        try {
            Constructor<?> canonical = raw(type).getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(values);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof IllegalArgumentException iae) {
                throw BadInput.at(file, where, "not valid: " + Printable.of(iae.getMessage()));
            }
            throw new IllegalStateException("cannot build a " + raw(type).getSimpleName(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot build a " + raw(type).getSimpleName(), e);
        }
    }

    private static String join(String where, String key) {
        return where.isEmpty() ? key : where + "." + key;
    }

    /**
     * Writes a row built from parts as one flat object: plain components under their names (null
     * written as null; {@link SummaryJson#tree} then drops what the row does not write), parts in
     * place, a null part not at all. Put on a row type with {@code @JsonSerialize(using = ...)}.
     */
    public static final class Writer extends StdSerializer<Record> {
        public Writer() {
            super(Record.class);
        }

        @Override
        public void serialize(Record row, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject(row);
            for (Map.Entry<String, Object> e : values(row).entrySet()) {
                provider.defaultSerializeField(e.getKey(), e.getValue(), gen);
            }
            gen.writeEndObject();
        }

        /**
         * A row whose kind is one of its own fields ({@code KernelBitmapRow}'s {@code section}, Jackson's
         * {@code EXISTING_PROPERTY}) is written as it is: the field is among its components already.
         */
        @Override
        public void serializeWithType(Record row, JsonGenerator gen, SerializerProvider provider, TypeSerializer types)
                throws IOException {
            serialize(row, gen, provider);
        }
    }
}
