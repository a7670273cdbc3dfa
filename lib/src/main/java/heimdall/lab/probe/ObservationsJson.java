package heimdall.lab.probe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.JsonInput;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The observations file format ({@code "format": "heimdall-lab observations 1"}):
 *
 * <pre>{@code
 * { "format": "heimdall-lab observations 1", "arch": "x86_64", "command": ["abcdf", "3"],
 *   "runs": 3, "statuses": [0, 0, 0],
 *   "syscalls": [
 *     { "name": "mmap", "nr": 9, "counts": [8, 8, 8],
 *       "args": { "index": [2, 3], "name": ["prot", "flags"], "values": [[1, 2], [3, 34]] } },
 *     { "name": "close", "nr": 3, "counts": [3, 3, 3] } ] }
 * }</pre>
 *
 * Syscalls are sorted by number, argument tuples by unsigned value; values are unsigned 64-bit
 * decimals. The same observations always serialize to the same bytes.
 */
public final class ObservationsJson {
    /** The value of the {@code format} field this class writes and accepts. */
    public static final String FORMAT = "heimdall-lab observations 1";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper READER = JsonInput.strict(new ObjectMapper());

    /** The largest observations file read: as for profiles, the whole JSON tree must fit a small heap. */
    public static final long MAX_BYTES = ProfileJson.MAX_BYTES;

    private ObservationsJson() {}

    public static String write(Observations o) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("arch", o.arch());
        ArrayNode cmd = root.putArray("command");
        o.command().forEach(cmd::add);
        root.put("runs", o.runs());
        ArrayNode st = root.putArray("statuses");
        o.statuses().forEach(st::add);
        ArrayNode calls = root.putArray("syscalls");
        for (Observations.Call c : o.calls()) {
            ObjectNode n = calls.addObject();
            n.put("name", c.name());
            n.put("nr", c.nr());
            ArrayNode counts = n.putArray("counts");
            c.counts().forEach(counts::add);
            c.args().ifPresent(a -> {
                ObjectNode args = n.putObject("args");
                ArrayNode idx = args.putArray("index");
                a.indices().forEach(idx::add);
                ArrayNode names = args.putArray("name");
                a.names().forEach(names::add);
                ArrayNode values = args.putArray("values");
                for (List<Long> tuple : a.values()) {
                    ArrayNode t = values.addArray();
                    tuple.forEach(v -> t.add(unsigned(v)));
                }
            });
        }
        return CompactJson.write(root);
    }

    public static void write(Observations o, Path file) throws IOException {
        SafeFiles.replace(file, write(o));
    }

    /**
     * Reads observations from {@code file}, at most {@link #MAX_BYTES} of it (a probe's file is a few KiB:
     * one entry per distinct call and argument tuple).
     */
    public static Observations read(Path file) {
        byte[] bytes = Io.read(file, MAX_BYTES);
        // strict: a key twice or content after the observations is refused, errors in our words
        return parse(JsonInput.tree(READER, file, bytes), file.toString());
    }

    /** Parses an observations tree; errors name {@code where}, the field and the reason. */
    public static Observations parse(JsonNode root, String where) {
        if (!FORMAT.equals(root.path("format").asText())) {
            throw BadInput.at(where, "format", "expected \"" + FORMAT + "\"");
        }
        String arch = text(root, "arch", where);
        if (!arch.equals("x86_64")) {
            throw BadInput.at(where, "arch", "only x86_64 is supported, not '" + arch + "'");
        }
        List<String> command = new ArrayList<>();
        root.path("command").forEach(n -> command.add(n.asText()));
        List<Integer> statuses = new ArrayList<>();
        root.path("statuses").forEach(n -> statuses.add(n.asInt()));
        int runs = root.path("runs").asInt(-1);
        if (runs < 1) {
            throw BadInput.at(where, "runs", "a positive count expected");
        }
        JsonNode calls = root.get("syscalls");
        if (calls == null || !calls.isArray()) {
            throw BadInput.at(where, "syscalls", "an array expected");
        }
        List<Observations.Call> out = new ArrayList<>();
        int i = 0;
        for (JsonNode c : calls) {
            String at = "syscalls[" + i++ + "]";
            String name = text(c, "name", where + ": " + at);
            if (!c.path("nr").canConvertToInt()) {
                throw BadInput.at(where, at + ".nr", "an integer expected");
            }
            List<Long> counts = new ArrayList<>();
            c.path("counts").forEach(n -> counts.add(n.asLong()));
            Optional<Observations.Args> args = Optional.empty();
            JsonNode a = c.get("args");
            if (a != null && !a.isNull()) {
                List<Integer> idx = new ArrayList<>();
                a.path("index").forEach(n -> idx.add(n.asInt()));
                List<String> names = new ArrayList<>();
                a.path("name").forEach(n -> names.add(n.asText()));
                if (idx.isEmpty() || idx.stream().anyMatch(x -> x < 0 || x > 5)) {
                    throw BadInput.at(where, at + ".args.index", "argument indices 0 to 5 expected");
                }
                List<List<Long>> values = new ArrayList<>();
                int j = 0;
                for (JsonNode t : a.path("values")) {
                    if (!t.isArray() || t.size() != idx.size()) {
                        throw BadInput.at(
                                where, at + ".args.values[" + j + "]", "a tuple of " + idx.size() + " values expected");
                    }
                    List<Long> tuple = new ArrayList<>();
                    for (JsonNode v : t) {
                        if (!v.isIntegralNumber()
                                || v.isBigInteger() && v.bigIntegerValue().bitLength() > 64
                                || v.isBigInteger() && v.bigIntegerValue().signum() < 0) {
                            throw BadInput.at(
                                    where, at + ".args.values[" + j + "]", "unsigned 64-bit integers expected");
                        }
                        tuple.add(v.isBigInteger() ? v.bigIntegerValue().longValue() : v.asLong());
                    }
                    values.add(tuple);
                    j++;
                }
                args = Optional.of(new Observations.Args(idx, names, values));
            }
            out.add(new Observations.Call(name, c.get("nr").asInt(), counts, args));
        }
        return new Observations(arch, command, runs, statuses, out);
    }

    private static String text(JsonNode o, String field, String where) {
        JsonNode v = o.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw BadInput.at(where, field, "a non-empty string expected");
        }
        return v.asText();
    }

    /** A long's 64 bits as the unsigned number they stand for. */
    static BigInteger unsigned(long v) {
        BigInteger b = BigInteger.valueOf(v);
        return v >= 0 ? b : b.add(BigInteger.ONE.shiftLeft(64));
    }
}
