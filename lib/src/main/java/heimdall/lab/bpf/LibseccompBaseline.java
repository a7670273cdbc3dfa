package heimdall.lab.bpf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.Refusal;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The same rules built by libseccomp (through Debian's {@code python3-seccomp}, binary tree layout:
 * {@code Attr.CTL_OPTIMIZE = 2}), exported as BPF, to compare our layout with libseccomp's.
 *
 * <p>Rules are given per call in the order our compiler tests them, up to the first unconditional
 * one; rules whose action is the default are left out (libseccomp refuses them), and a rule with
 * two conditions on one argument is given as one rule per condition (as runc does).
 */
public final class LibseccompBaseline {
    /** The interpreter that has Debian's binding (not a pyenv shim that may lack it). */
    public static final String PYTHON = "/usr/bin/python3";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private LibseccompBaseline() {}

    /** libseccomp's program and what it refused. */
    public record Result(Program program, int rulesAdded, List<String> refused) {}

    /** Whether {@code python3 -c 'import seccomp'} works here. */
    public static boolean available() {
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import seccomp").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Builds {@code profile}'s rules with libseccomp and reads back its program. */
    public static Result compile(Profile profile, SyscallTable table) throws IOException, InterruptedException {
        if (!available()) {
            throw new Refusal(PYTHON + " cannot import seccomp (install Debian's python3-seccomp)");
        }
        try (Scratch scratch = Scratch.create("heimdall-libseccomp-")) {
            Path dir = scratch.path();
            Path script = dir.resolve("libseccomp_export.py");
            try (InputStream in = LibseccompBaseline.class.getResourceAsStream("/heimdall/bpf/libseccomp_export.py")) {
                SafeFiles.writeNew(script, in.readAllBytes());
            }
            Path spec = dir.resolve("spec.json");
            Path out = dir.resolve("filter.bpf");
            SafeFiles.writeNew(spec, MAPPER.writeValueAsBytes(spec(profile, table)));
            Process p = new ProcessBuilder(PYTHON, script.toString(), spec.toString(), out.toString()).start();
            byte[] stdout = p.getInputStream().readAllBytes();
            byte[] stderr = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new Refusal("libseccomp export failed: " + new String(stderr, StandardCharsets.UTF_8).trim());
            }
            JsonNode report = MAPPER.readTree(stdout);
            List<String> refused = new ArrayList<>();
            report.get("refused").forEach(r -> refused.add("nr " + r.get("nr").asInt() + " "
                    + table.name(r.get("nr").asInt()).orElse("?") + ": " + r.get("error").asText()));
            return new Result(Program.fromBytes(Files.readAllBytes(out), "libseccomp export"),
                    report.get("added").asInt(), refused);
        }
    }

    static ObjectNode spec(Profile profile, SyscallTable table) {
        int def = profile.defaultAction().ret();
        Map<Integer, List<SyscallRule>> byNr = new LinkedHashMap<>();
        for (SyscallRule r : profile.syscalls()) {
            for (String n : r.names()) {
                byNr.computeIfAbsent(table.number(n).orElseThrow(), k -> new ArrayList<>()).add(r);
            }
        }
        ObjectNode root = MAPPER.createObjectNode();
        root.put("default", Integer.toUnsignedLong(def));
        ArrayNode rules = root.putArray("rules");
        for (Map.Entry<Integer, List<SyscallRule>> e : byNr.entrySet()) {
            for (SyscallRule r : e.getValue()) {
                if (r.action().ret() != def) {
                    if (r.joinsWithOr()) {
                        for (ArgRule a : r.args()) {
                            addRule(rules, e.getKey(), r.action().ret(), List.of(a));
                        }
                    } else {
                        addRule(rules, e.getKey(), r.action().ret(), r.args());
                    }
                }
                if (r.args().isEmpty()) {
                    break;
                }
            }
        }
        return root;
    }

    private static void addRule(ArrayNode rules, int nr, int action, List<ArgRule> args) {
        ObjectNode o = rules.addObject();
        o.put("nr", nr);
        o.put("action", Integer.toUnsignedLong(action));
        ArrayNode as = o.putArray("args");
        for (ArgRule a : args) {
            ArrayNode t = as.addArray();
            t.add(a.index()).add(a.op().jsonName).add(new BigInteger(Long.toUnsignedString(a.value())))
                    .add(new BigInteger(Long.toUnsignedString(a.valueTwo())));
        }
    }
}
