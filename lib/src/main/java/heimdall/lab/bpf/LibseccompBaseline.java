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
import heimdall.lab.sys.DieWithJvm;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The same profile built by libseccomp (through Debian's {@code python3-seccomp}, binary tree layout:
 * {@code Attr.CTL_OPTIMIZE = 2}), exported as BPF, to compare our layout and our decisions with
 * libseccomp's.
 *
 * <p>The profile is handed over as runc hands it to libseccomp (see {@link #spec}): actions and their
 * errno values as the profile loader read them ({@code SCMP_ACT_KILL} is KILL_THREAD, a missing
 * {@code errnoRet} EPERM, as in runc), comparisons by their {@code SCMP_CMP_*} names, each rule by
 * syscall name so libseccomp resolves it with its own table. Names unknown on x86_64 were already
 * left out by the loader, as runc leaves out names libseccomp cannot resolve; a name libseccomp
 * resolves differently from our table (or not at all) is left out and reported in
 * {@link Result#refused()}. The filter holds the native architecture only, with libseccomp's default
 * bad-architecture action (KILL_THREAD, where ours is KILL_PROCESS).
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
            // not wrapped (DieWithJvm): a probe that ends by itself, and a fact tests read without the native build
            Process p = new ProcessBuilder(PYTHON, "-c", "import seccomp")
                    .redirectErrorStream(true)
                    .start();
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
            Process p = new ProcessBuilder(
                            DieWithJvm.command(PYTHON, script.toString(), spec.toString(), out.toString()))
                    .start(); // dies with this JVM; this thread waits for it
            byte[] stdout = p.getInputStream().readAllBytes();
            byte[] stderr = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new Refusal("libseccomp export failed: " + new String(stderr, StandardCharsets.UTF_8).trim());
            }
            JsonNode report = MAPPER.readTree(stdout);
            List<String> refused = new ArrayList<>();
            report.get("refused")
                    .forEach(r -> refused.add("nr " + r.get("nr").asInt() + " "
                            + table.name(r.get("nr").asInt()).orElse("?") + ": "
                            + r.get("error").asText()));
            return new Result(
                    Program.fromBytes(Files.readAllBytes(out), "libseccomp export"),
                    report.get("added").asInt(),
                    refused);
        }
    }

    /**
     * The rules as runc hands them to libseccomp ({@code libcontainer/seccomp/seccomp_linux.go}): every
     * rule in profile order, one per name; a rule whose action (with its errno) is the default action
     * is left out; a rule whose conditions name one argument more than once is given as one rule per
     * condition, any other rule with all its conditions. Which of several rules for one call decides
     * is then libseccomp's doing.
     */
    static ObjectNode spec(Profile profile, SyscallTable table) {
        int def = profile.defaultAction().ret();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("default", def); // signed: the binding takes a C int
        ArrayNode rules = root.putArray("rules");
        for (SyscallRule r : profile.syscalls()) {
            if (r.action().ret() == def) {
                continue;
            }
            for (String name : r.names()) {
                int nr = table.number(name)
                        .orElseThrow(() ->
                                new IllegalArgumentException("syscall '" + name + "' is not in " + table.source()));
                if (r.joinsWithOr()) {
                    for (ArgRule a : r.args()) {
                        addRule(rules, name, nr, r.action().ret(), List.of(a));
                    }
                } else {
                    addRule(rules, name, nr, r.action().ret(), r.args());
                }
            }
        }
        return root;
    }

    private static void addRule(ArrayNode rules, String name, int nr, int action, List<ArgRule> args) {
        ObjectNode o = rules.addObject();
        o.put("name", name);
        o.put("nr", nr);
        o.put("action", action);
        ArrayNode as = o.putArray("args");
        for (ArgRule a : args) {
            ArrayNode t = as.addArray();
            t.add(a.index())
                    .add(a.op().jsonName)
                    .add(new BigInteger(Long.toUnsignedString(a.value())))
                    .add(new BigInteger(Long.toUnsignedString(a.valueTwo())));
        }
    }
}
