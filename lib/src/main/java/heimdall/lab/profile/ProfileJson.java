package heimdall.lab.profile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Loads and saves profiles in the OCI runtime-spec {@code LinuxSeccomp} JSON shape.
 *
 * <p>Docker/Podman extensions are read and applied for {@link HostConditions}: a rule's
 * {@code includes} (all of {@code arches} must contain the host's, all {@code caps} be held,
 * {@code minKernel} be reached) and {@code excludes} (any match leaves the rule out); {@code archMap}
 * supplies the architectures when {@code architectures} is absent; {@code comment} is kept. What
 * cannot be applied (an unreadable kernel version, sub-architectures the compiler does not build,
 * unknown fields) is reported in the warnings, as are syscall names unknown on x86_64, which are
 * dropped from the profile.
 */
public final class ProfileJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final Set<String> TOP_FIELDS = Set.of("defaultAction", "defaultErrnoRet", "architectures",
            "syscalls", "archMap", "defaultErrno", "flags", "listenerPath", "listenerMetadata", "comment");
    private static final Set<String> RULE_FIELDS = Set.of("names", "name", "action", "errnoRet", "args", "comment",
            "includes", "excludes", "errno");
    private static final Set<String> ARG_FIELDS = Set.of("index", "value", "valueTwo", "op");
    private static final Set<String> COND_FIELDS = Set.of("arches", "caps", "minKernel");

    /**
     * The largest profile file read, 4 MiB: real container profiles are tens of KiB (Podman's is
     * 16 KiB), and a parse holds the whole JSON tree in the heap, up to some 30 times the file's size for
     * the most wasteful JSON (nested empty arrays): 4 MiB stays well inside a 512 MiB heap. A larger
     * file is refused by name, size and limit before it is read, so no file can exhaust the heap.
     */
    public static final long MAX_BYTES = 4L << 20;

    private ProfileJson() {}

    /** A loaded profile and what could not be applied or was dropped on the way. */
    public record Loaded(Profile profile, List<String> warnings) {
        public Loaded {
            warnings = List.copyOf(warnings);
        }
    }

    /** Loads {@code file} for this host with the x86_64 table. */
    public static Loaded load(Path file) {
        return load(file, HostConditions.thisHost(), SyscallTable.x86_64());
    }

    /** Loads {@code file}, deciding conditions against {@code host} and checking names in {@code table}. */
    public static Loaded load(Path file, HostConditions host, SyscallTable table) {
        return parse(Io.readString(file, MAX_BYTES), file.toString(), host, table);
    }

    /** Parses profile JSON; {@code file} names the source in errors and warnings. */
    public static Loaded parse(String json, String file, HostConditions host, SyscallTable table) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "(JSON)"
                    : "(JSON) line " + e.getLocation().getLineNr() + " column " + e.getLocation().getColumnNr();
            throw BadInput.at(file, where, "malformed JSON: " + e.getOriginalMessage());
        }
        return new Reader(file, host, table).read(root);
    }

    /** Writes {@code profile} as OCI JSON (no extensions: they were applied when it was loaded). */
    public static void save(Profile profile, Path file) throws IOException {
        SafeFiles.replace(file, toJson(profile));
    }

    /** The OCI JSON text of {@code profile}. */
    public static String toJson(Profile profile) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("defaultAction", profile.defaultAction().kind().jsonName);
        if (profile.defaultAction().kind().hasData()) {
            root.put("defaultErrnoRet", profile.defaultAction().data());
        }
        ArrayNode arches = root.putArray("architectures");
        profile.architectures().forEach(arches::add);
        ArrayNode rules = root.putArray("syscalls");
        for (SyscallRule r : profile.syscalls()) {
            ObjectNode o = rules.addObject();
            ArrayNode names = o.putArray("names");
            r.names().forEach(names::add);
            o.put("action", r.action().kind().jsonName);
            if (r.action().kind().hasData()) {
                o.put("errnoRet", r.action().data());
            }
            if (!r.args().isEmpty()) {
                ArrayNode args = o.putArray("args");
                for (ArgRule a : r.args()) {
                    ObjectNode ao = args.addObject();
                    ao.put("index", a.index());
                    ao.put("value", new BigInteger(Long.toUnsignedString(a.value())));
                    ao.put("valueTwo", new BigInteger(Long.toUnsignedString(a.valueTwo())));
                    ao.put("op", a.op().jsonName);
                }
            }
            if (!r.comment().isEmpty()) {
                o.put("comment", r.comment());
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Reader {
        final String file;
        final HostConditions host;
        final SyscallTable table;
        final List<String> warnings = new ArrayList<>();
        final Set<String> unknownNames = new TreeSet<>();
        boolean capsUsed;

        Reader(String file, HostConditions host, SyscallTable table) {
            this.file = file;
            this.host = host;
            this.table = table;
        }

        BadInput bad(String field, String reason) {
            return BadInput.at(file, field, reason);
        }

        Loaded read(JsonNode root) {
            if (root == null || !root.isObject()) {
                throw bad("(root)", "expected a JSON object (an OCI LinuxSeccomp profile)");
            }
            unknownFields(root, TOP_FIELDS, "");
            JsonNode da = root.get("defaultAction");
            if (da == null || da.isNull()) {
                throw bad("defaultAction", "missing (required)");
            }
            Action.Kind defKind = kind(da, "defaultAction");
            Integer defErrno = optU16(root.get("defaultErrnoRet"), "defaultErrnoRet");
            if (defErrno == null && root.hasNonNull("defaultErrno") && defKind.hasData()) {
                warnings.add(file + ": defaultErrno: errno names are not read; using EPERM (1) as runc does "
                        + "without defaultErrnoRet");
            }
            if (defErrno != null && !defKind.hasData()) {
                warnings.add(file + ": defaultErrnoRet: ignored, the default action " + defKind.jsonName
                        + " takes no errno");
            }
            Action defaultAction = action(defKind, defErrno, "defaultErrnoRet");

            List<String> arches = architectures(root);
            for (String f : List.of("flags", "listenerPath", "listenerMetadata")) {
                if (root.hasNonNull(f)) {
                    warnings.add(file + ": " + f + ": not applied (installation flags and listeners are the caller's)");
                }
            }

            List<SyscallRule> rules = new ArrayList<>();
            JsonNode syscalls = root.get("syscalls");
            if (syscalls != null && !syscalls.isNull()) {
                if (!syscalls.isArray()) {
                    throw bad("syscalls", "expected an array");
                }
                for (int i = 0; i < syscalls.size(); i++) {
                    rule(syscalls.get(i), "syscalls[" + i + "]").ifPresent(rules::add);
                }
            }
            if (capsUsed) {
                warnings.add(file + ": caps conditions decided for the assumed capability set "
                        + new TreeSet<>(host.caps()) + " (Podman's default container set), not this process's");
            }
            if (!unknownNames.isEmpty()) {
                warnings.add(file + ": " + unknownNames.size() + " syscall names unknown on x86_64 ("
                        + table.source() + "), left out: " + String.join(", ", unknownNames));
            }
            return new Loaded(new Profile(defaultAction, arches, rules), warnings);
        }

        List<String> architectures(JsonNode root) {
            List<String> arches = new ArrayList<>();
            JsonNode a = root.get("architectures");
            if (a != null && !a.isNull()) {
                if (!a.isArray()) {
                    throw bad("architectures", "expected an array of SCMP_ARCH_* names");
                }
                for (int i = 0; i < a.size(); i++) {
                    arches.add(text(a.get(i), "architectures[" + i + "]"));
                }
            }
            JsonNode map = root.get("archMap");
            if (map != null && !map.isNull()) {
                if (!map.isArray()) {
                    throw bad("archMap", "expected an array");
                }
                for (int i = 0; i < map.size(); i++) {
                    JsonNode e = map.get(i);
                    String main = text(e.get("architecture"), "archMap[" + i + "].architecture");
                    if (!main.equals("SCMP_ARCH_X86_64")) {
                        continue;
                    }
                    if (arches.isEmpty()) {
                        arches.add(main);
                        JsonNode subs = e.get("subArchitectures");
                        if (subs != null && subs.isArray()) {
                            for (int j = 0; j < subs.size(); j++) {
                                arches.add(text(subs.get(j), "archMap[" + i + "].subArchitectures[" + j + "]"));
                            }
                        }
                    }
                }
            }
            List<String> foreign = arches.stream().filter(s -> !s.equals("SCMP_ARCH_X86_64")).toList();
            if (!foreign.isEmpty()) {
                warnings.add(file + ": architectures " + foreign + " are not compiled: the program answers every "
                        + "architecture but x86_64 (and x32 numbers) with KILL_PROCESS");
            }
            if (!arches.isEmpty() && !arches.contains("SCMP_ARCH_X86_64")) {
                warnings.add(file + ": architectures does not name SCMP_ARCH_X86_64; the profile is compiled for "
                        + "x86_64 anyway");
            }
            return arches;
        }

        Optional<SyscallRule> rule(JsonNode r, String at) {
            if (r == null || !r.isObject()) {
                throw bad(at, "expected an object");
            }
            unknownFields(r, RULE_FIELDS, at + ".");
            List<String> names = new ArrayList<>();
            JsonNode n = r.get("names");
            if (n != null && !n.isNull()) {
                if (!n.isArray()) {
                    throw bad(at + ".names", "expected an array of syscall names");
                }
                for (int j = 0; j < n.size(); j++) {
                    names.add(text(n.get(j), at + ".names[" + j + "]"));
                }
            }
            if (r.hasNonNull("name")) {
                names.add(text(r.get("name"), at + ".name"));
            }
            if (names.isEmpty()) {
                throw bad(at + ".names", "missing or empty (a rule names at least one syscall)");
            }
            JsonNode act = r.get("action");
            if (act == null || act.isNull()) {
                throw bad(at + ".action", "missing (required)");
            }
            Action.Kind kind = kind(act, at + ".action");
            Integer errnoRet = optU16(r.get("errnoRet"), at + ".errnoRet");
            if (errnoRet != null && !kind.hasData()) {
                throw bad(at + ".errnoRet", "only SCMP_ACT_ERRNO and SCMP_ACT_TRACE take errnoRet, action is "
                        + kind.jsonName);
            }
            Action action = action(kind, errnoRet, at + ".errnoRet");
            List<ArgRule> args = new ArrayList<>();
            JsonNode a = r.get("args");
            if (a != null && !a.isNull()) {
                if (!a.isArray()) {
                    throw bad(at + ".args", "expected an array");
                }
                for (int j = 0; j < a.size(); j++) {
                    args.add(arg(a.get(j), at + ".args[" + j + "]"));
                }
            }
            String comment = r.hasNonNull("comment") ? r.get("comment").asText() : "";
            if (!applies(r.get("includes"), true, at + ".includes") || !applies(r.get("excludes"), false, at + ".excludes")) {
                return Optional.empty();
            }
            List<String> known = new ArrayList<>();
            for (String name : names) {
                if (table.number(name).isPresent()) {
                    known.add(name);
                } else {
                    unknownNames.add(name);
                }
            }
            if (known.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new SyscallRule(known, action, args, comment));
        }

        /** Whether the rule is kept given one condition object ({@code includes} or {@code excludes}). */
        boolean applies(JsonNode cond, boolean include, String at) {
            if (cond == null || cond.isNull() || cond.isEmpty()) {
                return true;
            }
            if (!cond.isObject()) {
                throw bad(at, "expected an object with arches, caps, minKernel");
            }
            unknownFields(cond, COND_FIELDS, at + ".");
            List<Boolean> matches = new ArrayList<>();
            JsonNode arches = cond.get("arches");
            if (arches != null && arches.isArray() && !arches.isEmpty()) {
                boolean hit = false;
                for (int i = 0; i < arches.size(); i++) {
                    hit |= host.archNames().contains(text(arches.get(i), at + ".arches[" + i + "]"));
                }
                matches.add(hit);
            }
            JsonNode caps = cond.get("caps");
            if (caps != null && caps.isArray() && !caps.isEmpty()) {
                capsUsed = true;
                boolean all = true;
                boolean any = false;
                for (int i = 0; i < caps.size(); i++) {
                    boolean held = host.caps().contains(text(caps.get(i), at + ".caps[" + i + "]"));
                    all &= held;
                    any |= held;
                }
                matches.add(include ? all : any);
            }
            JsonNode minKernel = cond.get("minKernel");
            if (minKernel != null && !minKernel.isNull()) {
                String want = text(minKernel, at + ".minKernel");
                Optional<Boolean> ok = host.kernelAtLeast(want);
                if (ok.isEmpty()) {
                    warnings.add(file + ": " + at + ".minKernel: cannot compare '" + want + "' with kernel '"
                            + host.kernelRelease() + "'; condition not applied (treated as met)");
                    matches.add(true);
                } else {
                    matches.add(ok.get());
                }
            }
            if (include) {
                return matches.stream().allMatch(b -> b);
            }
            return matches.stream().noneMatch(b -> b);
        }

        ArgRule arg(JsonNode a, String at) {
            if (a == null || !a.isObject()) {
                throw bad(at, "expected an object with index, value, valueTwo, op");
            }
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!ARG_FIELDS.contains(f)) {
                    throw bad(at + "." + f, "unknown field (known: index, value, valueTwo, op)");
                }
            }
            JsonNode idx = a.get("index");
            if (idx == null || idx.isNull()) {
                throw bad(at + ".index", "missing (required)");
            }
            if (!idx.isIntegralNumber()) {
                throw bad(at + ".index", "expected a whole number 0..5");
            }
            if (idx.bigIntegerValue().signum() < 0 || idx.bigIntegerValue().compareTo(BigInteger.valueOf(5)) > 0) {
                throw bad(at + ".index", "argument index " + idx.asText() + " is over 5 (seccomp_data has args[0..5])");
            }
            JsonNode op = a.get("op");
            if (op == null || op.isNull()) {
                throw bad(at + ".op", "missing (required)");
            }
            String opName = text(op, at + ".op");
            Op o = Op.of(opName).orElseThrow(() -> bad(at + ".op", "unknown op '" + opName + "' (known: "
                    + Arrays.stream(Op.values()).map(x -> x.jsonName).toList() + ")"));
            JsonNode value = a.get("value");
            if (value == null || value.isNull()) {
                throw bad(at + ".value", "missing (required)");
            }
            long v = u64(value, at + ".value");
            JsonNode two = a.get("valueTwo");
            long v2 = two == null || two.isNull() ? 0 : u64(two, at + ".valueTwo");
            return new ArgRule(idx.intValue(), v, v2, o);
        }

        Action.Kind kind(JsonNode n, String at) {
            String name = text(n, at);
            return Action.kindOf(name).orElseThrow(() -> bad(at, "unknown action '" + name + "' (known: "
                    + Arrays.stream(Action.Kind.values()).map(k -> k.jsonName).toList() + ", SCMP_ACT_KILL)"));
        }

        Action action(Action.Kind kind, Integer data, String at) {
            if (!kind.hasData()) {
                return new Action(kind, 0);
            }
            return new Action(kind, data == null ? Action.DEFAULT_ERRNO : data);
        }

        Integer optU16(JsonNode n, String at) {
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isIntegralNumber() || n.bigIntegerValue().signum() < 0
                    || n.bigIntegerValue().compareTo(BigInteger.valueOf(0xffff)) > 0) {
                throw bad(at, "expected a whole number 0..65535, got " + n);
            }
            return n.intValue();
        }

        long u64(JsonNode n, String at) {
            if (!n.isIntegralNumber()) {
                throw bad(at, "expected an unsigned 64-bit whole number, got " + n);
            }
            BigInteger b = n.bigIntegerValue();
            if (b.signum() < 0 || b.compareTo(U64_MAX) > 0) {
                throw bad(at, "value " + b + " is outside 0..2^64-1");
            }
            return b.longValue();
        }

        String text(JsonNode n, String at) {
            if (n == null || n.isNull()) {
                throw bad(at, "missing (required)");
            }
            if (!n.isTextual()) {
                throw bad(at, "expected a string, got " + n);
            }
            return n.asText();
        }

        void unknownFields(JsonNode o, Set<String> known, String prefix) {
            Set<String> unknown = new LinkedHashSet<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                String f = it.next().getKey();
                if (!known.contains(f)) {
                    unknown.add(f);
                }
            }
            if (!unknown.isEmpty()) {
                warnings.add(file + ": " + prefix + unknown + ": unknown fields, ignored");
            }
        }
    }
}
