package heimdall.lab.profile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.EditDistance;
import heimdall.lab.Io;
import heimdall.lab.JsonInput;
import heimdall.lab.Printable;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Loads and saves profiles in the OCI runtime-spec {@code LinuxSeccomp} JSON shape.
 *
 * <p>Docker/Podman extensions are read and applied for {@link HostConditions}: a rule's
 * {@code includes} (all of {@code arches} must contain the host's, all {@code caps} be held,
 * {@code minKernel} be reached) and {@code excludes} (any match leaves the rule out); {@code archMap}
 * supplies the architectures when {@code architectures} is absent; {@code comment} is kept. What
 * cannot be applied (sub-architectures the compiler does not build, top-level fields it does not know)
 * is reported in the warnings, as are syscall names unknown on x86_64, which are dropped from the profile.
 *
 * <p>A profile is security input, read strictly so that it fails closed: an unknown field inside a
 * rule, an argument condition or an {@code includes}/{@code excludes} (a misspelled {@code "ARGS"} would
 * otherwise turn a conditional rule into an unconditional one), a key given twice, content after the
 * profile, a value of the wrong type or out of range, and an unknown top-level field that is a near
 * miss of a known one ({@code "sysCalls"}, {@code "defaultaction"}: ignoring it could drop every rule)
 * are bad input naming the file and the field. Only unknown top-level fields unlike any known one
 * (vendor keys, notes) are warned about and ignored: no rule depends on them.
 */
public final class ProfileJson {
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Reads strictly: a key twice in one object or anything after the profile is refused. */
    private static final ObjectMapper READER = JsonInput.strict(new ObjectMapper());

    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final Set<String> TOP_FIELDS = Set.of(
            "defaultAction",
            "defaultErrnoRet",
            "architectures",
            "syscalls",
            "archMap",
            "defaultErrno",
            "flags",
            "listenerPath",
            "listenerMetadata",
            "comment");
    private static final Set<String> RULE_FIELDS =
            Set.of("names", "name", "action", "errnoRet", "args", "comment", "includes", "excludes", "errno");
    private static final Pattern SYSCALL_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,63}");
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
        JsonNode root = JsonInput.tree(READER, file, json);
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
        /** The file as warnings print it, control characters escaped. */
        final String named;

        final HostConditions host;
        final SyscallTable table;
        final List<String> warnings = new ArrayList<>();
        final Set<String> unknownNames = new TreeSet<>();
        boolean capsUsed;

        Reader(String file, HostConditions host, SyscallTable table) {
            this.file = file;
            this.named = Printable.of(file);
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
            topLevelFields(root);
            JsonNode da = root.get("defaultAction");
            if (da == null || da.isNull()) {
                throw bad("defaultAction", "missing (required)");
            }
            Action.Kind defKind = kind(da, "defaultAction");
            Integer defErrno = optU16(root.get("defaultErrnoRet"), "defaultErrnoRet");
            if (defErrno == null && root.hasNonNull("defaultErrno") && defKind.hasData()) {
                warnings.add(named + ": defaultErrno: errno names are not read; using EPERM (1) as runc does "
                        + "without defaultErrnoRet");
            }
            if (defErrno != null && !defKind.hasData()) {
                warnings.add(named + ": defaultErrnoRet: ignored, the default action " + defKind.jsonName
                        + " takes no errno");
            }
            Action defaultAction = action(defKind, defErrno, "defaultErrnoRet");

            List<String> arches = architectures(root);
            for (String f : List.of("flags", "listenerPath", "listenerMetadata")) {
                if (root.hasNonNull(f)) {
                    warnings.add(named + ": " + f + ": not applied (installation flags and listeners are the "
                            + "caller's)");
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
                warnings.add(named + ": caps conditions decided for the assumed capability set "
                        + new TreeSet<>(host.caps()) + " (Podman's default container set), not this process's");
            }
            if (!unknownNames.isEmpty()) {
                warnings.add(named + ": " + unknownNames.size() + " syscall names unknown on x86_64 (" + table.source()
                        + "), left out: " + String.join(", ", unknownNames));
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
                        JsonNode subs = array(e.get("subArchitectures"), "archMap[" + i + "].subArchitectures");
                        if (subs != null) {
                            for (int j = 0; j < subs.size(); j++) {
                                arches.add(text(subs.get(j), "archMap[" + i + "].subArchitectures[" + j + "]"));
                            }
                        }
                    }
                }
            }
            List<String> foreign =
                    arches.stream().filter(s -> !s.equals("SCMP_ARCH_X86_64")).toList();
            if (!foreign.isEmpty()) {
                warnings.add(named + ": architectures " + Printable.of(foreign) + " are not "
                        + "compiled: the program answers every "
                        + "architecture but x86_64 (and x32 numbers) with KILL_PROCESS");
            }
            if (!arches.isEmpty() && !arches.contains("SCMP_ARCH_X86_64")) {
                warnings.add(named + ": architectures does not name SCMP_ARCH_X86_64; the profile is compiled for "
                        + "x86_64 anyway");
            }
            return arches;
        }

        Optional<SyscallRule> rule(JsonNode r, String at) {
            if (r == null || !r.isObject()) {
                throw bad(at, "expected an object");
            }
            refuseUnknown(r, RULE_FIELDS, at);
            List<String> names = new ArrayList<>();
            JsonNode n = r.get("names");
            if (n != null && !n.isNull()) {
                if (!n.isArray()) {
                    throw bad(at + ".names", "expected an array of syscall names");
                }
                for (int j = 0; j < n.size(); j++) {
                    names.add(syscallName(n.get(j), at + ".names[" + j + "]"));
                }
            }
            if (r.hasNonNull("name")) {
                names.add(syscallName(r.get("name"), at + ".name"));
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
                throw bad(
                        at + ".errnoRet",
                        "only SCMP_ACT_ERRNO and SCMP_ACT_TRACE take errnoRet, action is " + kind.jsonName);
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
            String comment = r.hasNonNull("comment") ? text(r.get("comment"), at + ".comment") : "";
            if (!applies(r.get("includes"), true, at + ".includes")
                    || !applies(r.get("excludes"), false, at + ".excludes")) {
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
            if (cond == null || cond.isNull()) {
                return true;
            }
            if (!cond.isObject()) {
                throw bad(at, "expected an object with arches, caps, minKernel, got " + shown(cond));
            }
            refuseUnknown(cond, COND_FIELDS, at);
            List<Boolean> matches = new ArrayList<>();
            JsonNode arches = array(cond.get("arches"), at + ".arches");
            if (arches != null && !arches.isEmpty()) {
                boolean hit = false;
                for (int i = 0; i < arches.size(); i++) {
                    hit |= host.archNames().contains(text(arches.get(i), at + ".arches[" + i + "]"));
                }
                matches.add(hit);
            }
            JsonNode caps = array(cond.get("caps"), at + ".caps");
            if (caps != null && !caps.isEmpty()) {
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
                if (!HostConditions.isKernelVersion(want)) {
                    throw bad(
                            at + ".minKernel",
                            "expected a kernel version such as 4.8 or 5.10.1 (each part 0.."
                                    + HostConditions.MAX_VERSION_PART + "), got " + shown(minKernel));
                }
                Optional<Boolean> ok = host.kernelAtLeast(want);
                if (ok.isEmpty()) {
                    warnings.add(named + ": " + at + ".minKernel: cannot compare '" + want + "' with kernel '"
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
            refuseUnknown(a, ARG_FIELDS, at);
            JsonNode idx = a.get("index");
            if (idx == null || idx.isNull()) {
                throw bad(at + ".index", "missing (required)");
            }
            if (!idx.isIntegralNumber()) {
                throw bad(at + ".index", "expected a whole number 0..5, got " + shown(idx));
            }
            if (idx.bigIntegerValue().signum() < 0 || idx.bigIntegerValue().compareTo(BigInteger.valueOf(5)) > 0) {
                throw bad(
                        at + ".index",
                        "argument index must be 0..5 (seccomp_data has args[0..5]), got " + idx.bigIntegerValue());
            }
            JsonNode op = a.get("op");
            if (op == null || op.isNull()) {
                throw bad(at + ".op", "missing (required)");
            }
            String opName = text(op, at + ".op");
            Op o = Op.of(opName)
                    .orElseThrow(() -> bad(
                            at + ".op",
                            "unknown op '" + Printable.of(opName) + "' (known: "
                                    + Arrays.stream(Op.values())
                                            .map(x -> x.jsonName)
                                            .toList() + ")"));
            JsonNode value = a.get("value");
            if (value == null || value.isNull()) {
                throw bad(at + ".value", "missing (required)");
            }
            long v = u64(value, at + ".value");
            JsonNode two = a.get("valueTwo");
            long v2 = two == null || two.isNull() ? 0 : u64(two, at + ".valueTwo");
            return new ArgRule(idx.intValue(), v, v2, o);
        }

        /**
         * A syscall name as a kernel spells one (lower case, digits, '_'). A name of another shape
         * ({@code "ptrace "}, {@code "PTRACE"}, empty) is a slip, refused: dropped like a name unknown on
         * x86_64 it would silently lose a deny rule. A well-formed name unknown here is only warned about
         * (real profiles name calls of other architectures).
         */
        String syscallName(JsonNode n, String at) {
            String name = text(n, at);
            if (!SYSCALL_NAME.matcher(name).matches()) {
                throw bad(at, "not a syscall name (lower-case letters, digits and '_'), got " + shown(n));
            }
            return name;
        }

        Action.Kind kind(JsonNode n, String at) {
            String name = text(n, at);
            return Action.kindOf(name)
                    .orElseThrow(() -> bad(
                            at,
                            "unknown action '" + Printable.of(name) + "' (known: "
                                    + Arrays.stream(Action.Kind.values())
                                            .map(k -> k.jsonName)
                                            .toList() + ", SCMP_ACT_KILL)"));
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
            if (!n.isIntegralNumber()
                    || n.bigIntegerValue().signum() < 0
                    || n.bigIntegerValue().compareTo(BigInteger.valueOf(0xffff)) > 0) {
                throw bad(at, "expected a whole number 0..65535, got " + shown(n));
            }
            return n.intValue();
        }

        long u64(JsonNode n, String at) {
            if (!n.isIntegralNumber()) {
                throw bad(at, "expected an unsigned 64-bit whole number, got " + shown(n));
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
                throw bad(at, "expected a string, got " + shown(n));
            }
            return n.asText();
        }

        /** {@code n} when it is an array (or null when absent), else bad input naming {@code at}. */
        JsonNode array(JsonNode n, String at) {
            if (n == null || n.isNull()) {
                return null;
            }
            if (!n.isArray()) {
                throw bad(at, "expected an array of strings, got " + shown(n));
            }
            return n;
        }

        /**
         * Refuses a field of {@code o} outside {@code known}: inside a rule, an argument or a condition
         * an ignored field would widen what the rule allows (a misspelled {@code args} makes it
         * unconditional), so the profile fails closed.
         */
        void refuseUnknown(JsonNode o, Set<String> known, String at) {
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!known.contains(f)) {
                    throw bad(
                            at + "." + f,
                            "unknown field"
                                    + nearest(f, known)
                                            .map(k -> " (did you mean " + k + "?)")
                                            .orElse("") + "; known: " + new TreeSet<>(known)
                                    + ". A profile is read strictly: "
                                    + "an ignored field could widen the rule");
                }
            }
        }

        /**
         * Top-level fields: one unlike any known field (a vendor key, a note) is warned about and
         * ignored, as no rule depends on it; a near miss of a known one ({@code "sysCalls"},
         * {@code " defaultAction"}) is refused, since ignoring it could leave out every rule or the
         * default the author meant.
         */
        void topLevelFields(JsonNode root) {
            Set<String> unknown = new LinkedHashSet<>();
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (TOP_FIELDS.contains(f)) {
                    continue;
                }
                Optional<String> near = nearest(f, TOP_FIELDS);
                if (near.isPresent()) {
                    throw bad(
                            f,
                            "unknown field, did you mean " + near.get() + "? A profile is read strictly: "
                                    + "a misspelled top-level field could change what it allows");
                }
                unknown.add(Printable.of(f));
            }
            if (!unknown.isEmpty()) {
                warnings.add(
                        named + ": " + unknown + ": unknown top-level fields, ignored (no rule " + "depends on them)");
            }
        }

        /** The known field {@code f} is a near miss of: equal ignoring case, spaces, '_' and '-', or two edits. */
        static Optional<String> nearest(String f, Set<String> known) {
            String g = squash(f);
            for (String k : new TreeSet<>(known)) {
                String h = squash(k);
                // one edit for short names ("command" is no "comment"), two for long ones ("architecures")
                if (g.equals(h) || (g.length() >= 3 && EditDistance.between(g, h) <= (h.length() < 8 ? 1 : 2))) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }

        private static String squash(String s) {
            return s.toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-]", "");
        }

        /** A JSON value as quoted in a message: at most 40 characters, control characters escaped. */
        static String shown(JsonNode n) {
            String s = n.isContainerNode() ? (n.isArray() ? "an array" : "an object") : n.toString();
            return Printable.of(s.length() > 40 ? s.substring(0, 37) + "..." : s);
        }
    }
}
