package heimdall.lab.probe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.JsonInput;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads {@code heimdall-trace}'s JSON lines into events sorted by {@code seq} (the tracer writes a
 * syscall when it returns, so the file is in completion order; seq restores entry order).
 */
public final class TraceReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TraceReader() {}

    public static List<TraceEvent> read(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file)) {
            return read(r, file.toString());
        } catch (IOException e) {
            String why = e instanceof CharacterCodingException ? "not UTF-8 text" : Io.reason(e);
            throw new BadInput(file + ": cannot read trace: " + why, e);
        }
    }

    /** Parses JSON lines from text; {@code where} names the source in errors. */
    public static List<TraceEvent> parse(String text, String where) {
        try {
            return read(new BufferedReader(new StringReader(text)), where);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<TraceEvent> read(BufferedReader reader, String where) throws IOException {
        List<TraceEvent> events = new ArrayList<>();
        String line;
        int lineNo = 0;
        while ((line = reader.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            events.add(event(line, where + ": line " + lineNo));
        }
        events.sort(Comparator.comparingLong(TraceEvent::seq));
        return events;
    }

    static TraceEvent event(String line, String where) {
        JsonNode o;
        try {
            o = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new BadInput(where + ": not JSON: " + JsonInput.reason(e));
        } catch (IOException e) {
            throw new IllegalStateException("a line in memory cannot fail to read", e);
        }
        long seq = need(o, "seq", where).asLong();
        int tid = need(o, "tid", where).asInt();
        int pid = need(o, "pid", where).asInt();
        String ev = need(o, "ev", where).asText();
        switch (ev) {
            case "syscall": {
                JsonNode args = need(o, "args", where);
                if (!args.isArray() || args.size() != 6) {
                    throw new BadInput(where + ": args: six arguments expected");
                }
                List<Long> a = new ArrayList<>(6);
                for (JsonNode v : args) {
                    a.add(unsigned(v, where, "args"));
                }
                JsonNode ret = o.get("ret");
                List<Long> stack = new ArrayList<>();
                for (JsonNode v : o.path("stack")) {
                    stack.add(unsigned(v, where, "stack"));
                }
                return new TraceEvent.Syscall(
                        seq,
                        tid,
                        pid,
                        need(o, "nr", where).asInt(),
                        a,
                        unsigned(need(o, "ip", where), where, "ip"),
                        o.has("sp") ? unsigned(o.get("sp"), where, "sp") : 0,
                        stack,
                        ret == null || ret.isNull() ? OptionalLong.empty() : OptionalLong.of(ret.asLong()));
            }
            case "start":
                return new TraceEvent.Start(
                        seq,
                        tid,
                        pid,
                        need(o, "kind", where).asText(),
                        o.path("parent").isNull() ? 0 : o.path("parent").asInt(0));
            case "exec":
                return new TraceEvent.Exec(
                        seq,
                        tid,
                        pid,
                        need(o, "former_tid", where).asInt(),
                        o.path("exe").asText(""));
            case "signal":
                return new TraceEvent.Signal(
                        seq, tid, pid, need(o, "sig", where).asInt());
            case "maps": {
                List<TraceEvent.Mapping> maps = new ArrayList<>();
                for (JsonNode m : need(o, "maps", where)) {
                    maps.add(new TraceEvent.Mapping(
                            unsigned(need(m, "start", where), where, "start"),
                            unsigned(need(m, "end", where), where, "end"),
                            m.path("perms").asText(""),
                            unsigned(need(m, "offset", where), where, "offset"),
                            m.path("path").asText("")));
                }
                return new TraceEvent.Maps(seq, tid, pid, maps);
            }
            case "exit":
                return new TraceEvent.Exit(
                        seq,
                        tid,
                        pid,
                        o.has("code") ? o.get("code").asInt() : -1,
                        o.has("signal") ? o.get("signal").asInt() : -1);
            default:
                throw new BadInput(where + ": ev: unknown event '" + ev + "'");
        }
    }

    private static JsonNode need(JsonNode o, String field, String where) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull() && !field.equals("parent")) {
            throw new BadInput(where + ": " + field + ": missing");
        }
        return v;
    }

    /** A u64 printed in decimal, kept as the same 64 bits in a long (Jackson gives a BigInteger above 2^63). */
    private static long unsigned(JsonNode v, String where, String field) {
        if (!v.isIntegralNumber()) {
            throw new BadInput(where + ": " + field + ": not an integer");
        }
        return v.isBigInteger() ? v.bigIntegerValue().longValue() : v.asLong();
    }
}
