package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our compiled program against libseccomp's for the same profile ({@link LibseccompBaseline}, the
 * rules handed over as runc hands them), decision by decision: both programs are run by the
 * {@link Emulator} (itself checked against the kernel) on the same {@code seccomp_data}, and their
 * return values (action and data: the errno) must be equal for every number the kernel can present
 * on x86_64 — each of {@code 0..}{@link #TOP}, -1 (a tracer's skipped call), the x32 numbers
 * {@code 0x40000000 | n} and the 32-bit edges — with argument vectors on both sides of every argument
 * condition. The one documented difference is the bad-architecture action: x32 numbers and foreign
 * architectures get KILL_PROCESS from ours and KILL_THREAD from libseccomp, and nothing else.
 * A sample (-1, x32 numbers, argument-sensitive calls) is also made in the real kernel under both.
 */
class LibseccompDifferentialTest {
    static final SyscallTable TABLE = SyscallTable.x86_64();
    static final Path PODMAN = Path.of("/usr/share/containers/seccomp.json");
    /** Every number up to here (well past the table's highest) is compared, with and without the x32 bit. */
    static final int TOP = Math.max(1023, TABLE.maxNumber() + 64);
    /** Numbers at the edges of the 32-bit space: the last non-x32 number, then x32 and sign edges. */
    static final int[] EDGES = {0x3fffffff, 0x7fffffff, 0x80000000, 0xfffffffe};
    /** Architectures other than x86_64: i386, aarch64, x86_64's value without the 64-bit flag, none. */
    static final int[] FOREIGN_ARCHES = {0x40000003, 0xc00000b7, 0x0000003e, 0};
    /** Vectors every number is tried with: zeros, and each argument all ones, low ones, high bit 32. */
    static final long[][] GENERIC = {new long[6], filled(-1L), filled(0xffff_ffffL), filled(1L << 32)};

    static Path home() {
        return heimdall.lab.fixtures.Fixtures.home();
    }

    static Stream<Arguments> profiles() {
        return Stream.of(
                Arguments.of("abcdf", home().resolve("fixtures/profiles/abcdf/x86_64-glibc.json")),
                Arguments.of(
                        "heimdall-wasm-host", home().resolve("fixtures/profiles/heimdall-wasm-host/x86_64-glibc.json")),
                Arguments.of("podman", PODMAN));
    }

    static long[] filled(long v) {
        long[] a = new long[6];
        Arrays.fill(a, v);
        return a;
    }

    /** Both programs for a profile file, libseccomp's built without refusals or names left out. */
    record Pair(Profile profile, Program ours, Program theirs) {
        static Pair of(Path file) throws Exception {
            NeedsLibseccomp.assume();
            NeedsLibseccomp.assumeFile(file, "golang-github-containers-common");
            Profile profile = ProfileJson.load(file).profile();
            LibseccompBaseline.Result theirs = LibseccompBaseline.compile(profile, TABLE);
            assertEquals(List.of(), theirs.refused(), "libseccomp refused or left out rules of " + file);
            return new Pair(profile, Compiler.compile(profile, TABLE, file.toString()), theirs.program());
        }
    }

    /**
     * The vectors for {@code nr}: generic ones, {@link CallCases}' and those with a rule's argument's high half
     * flipped.
     */
    static List<long[]> vectors(Profile profile, int nr) {
        List<long[]> out = new ArrayList<>();
        for (long[] v : GENERIC) {
            addNew(out, v);
        }
        if (nr < 0 || nr >= Profile.X32_SYSCALL_BIT) {
            return out;
        }
        Set<Integer> indexes = new TreeSet<>();
        for (SyscallRule r : profile.syscalls()) {
            if (names(r, nr)) {
                r.args().forEach(a -> indexes.add(a.index()));
            }
        }
        for (long[] v : CallCases.argVectors(profile, TABLE, nr)) {
            addNew(out, v);
            for (int i : indexes) {
                long[] high = v.clone();
                high[i] ^= 1L << 32;
                addNew(out, high);
            }
        }
        return out;
    }

    static boolean names(SyscallRule r, int nr) {
        return r.names().stream()
                .anyMatch(n -> TABLE.number(n).isPresent() && TABLE.number(n).getAsInt() == nr);
    }

    private static void addNew(List<long[]> vectors, long[] v) {
        if (vectors.stream().noneMatch(o -> Arrays.equals(o, v))) {
            vectors.add(v);
        }
    }

    /** Every number compared on x86_64: 0..TOP, -1, x32 numbers 0x40000000|0..TOP, the edges. */
    static List<Integer> numbers() {
        List<Integer> out = new ArrayList<>();
        for (int nr = 0; nr <= TOP; nr++) {
            out.add(nr);
            out.add(nr | Profile.X32_SYSCALL_BIT);
        }
        out.add(Compiler.SKIPPED_CALL);
        Arrays.stream(EDGES).forEach(out::add);
        return out;
    }

    static boolean x32(int nr) {
        return Integer.compareUnsigned(nr, Profile.X32_SYSCALL_BIT) >= 0 && nr != Compiler.SKIPPED_CALL;
    }

    /** Counts of one profile's comparison, and the first disagreements. */
    static final class Tally {
        int same;
        int badArch;
        final List<String> disagreements = new ArrayList<>();
        final Map<String, Integer> decisions = new TreeMap<>();

        void compare(Pair p, SeccompData d) {
            int ours = Emulator.run(p.ours(), d).action();
            int theirs = Emulator.run(p.theirs(), d).action();
            boolean foreign = d.arch() != Profile.AUDIT_ARCH_X86_64 || x32(d.nr());
            if (foreign) {
                // the documented difference, and only it
                if (ours == Action.KILL_PROCESS.ret() && theirs == Action.KILL_THREAD.ret()) {
                    badArch++;
                    return;
                }
            } else if (ours == theirs) {
                same++;
                decisions.merge(Action.describe(ours), 1, Integer::sum);
                return;
            }
            if (disagreements.size() < 20) {
                disagreements.add(
                        d + " " + TABLE.name(d.nr()).orElse("") + ": ours " + Action.describe(ours) + ", libseccomp "
                                + Action.describe(theirs) + (foreign ? " (expected KILL_PROCESS vs KILL_THREAD)" : ""));
            } else {
                disagreements.set(19, "… and more");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void compiledProgramDecidesEveryNumberAsLibseccompDoes(String name, Path file) throws Exception {
        Pair p = Pair.of(file);
        Tally t = new Tally();
        Map<Integer, List<long[]>> triedByNr = new TreeMap<>();
        List<String> unlikeProfile = new ArrayList<>();
        for (int nr : numbers()) {
            List<long[]> vs = vectors(p.profile(), nr);
            triedByNr.put(nr, vs);
            for (long[] v : vs) {
                SeccompData d = SeccompData.x86_64(nr, v);
                t.compare(p, d);
                // ours says what the profile says (its reference semantics) on every input too
                String want = Action.describe(p.profile().evaluate(TABLE, nr, d.arch(), v));
                String got = Action.describe(Emulator.run(p.ours(), d).action());
                if (!want.equals(got) && unlikeProfile.size() < 20) {
                    unlikeProfile.add(d + ": profile " + want + ", ours " + got);
                }
            }
        }
        for (int arch : FOREIGN_ARCHES) {
            for (int nr : new int[] {0, 39, 110, 231, TABLE.maxNumber(), TOP, -1, Profile.X32_SYSCALL_BIT}) {
                t.compare(p, new SeccompData(nr, arch, 0, new long[6]));
            }
        }
        System.out.println("libseccomp differential " + name + ": " + t.same + " inputs decided alike "
                + t.decisions + ", " + t.badArch + " bad-architecture inputs KILL_PROCESS vs KILL_THREAD, "
                + t.disagreements.size() + " disagreements");
        assertEquals("", String.join("\n", t.disagreements), "decisions where ours and libseccomp's differ");
        assertEquals("", String.join("\n", unlikeProfile), "decisions where ours and Profile.evaluate differ");

        // -1 reaches the rules on both sides: the default action, not a kill
        int def = p.profile().defaultAction().ret();
        for (Program prog : List.of(p.ours(), p.theirs())) {
            assertEquals(
                    Action.describe(def),
                    Action.describe(Emulator.run(prog, SeccompData.x86_64(-1)).action()));
        }
        // the comparison reached both sides of every argument condition, for every call it names
        for (SyscallRule r : p.profile().syscalls()) {
            for (String n : r.names()) {
                int nr = TABLE.number(n).getAsInt();
                for (ArgRule a : r.args()) {
                    List<long[]> vs = triedByNr.get(nr);
                    assertTrue(vs.stream().anyMatch(a::test), n + " " + a + ": no vector satisfies it");
                    assertTrue(vs.stream().anyMatch(v -> !a.test(v)), n + " " + a + ": no vector breaks it");
                }
                if (!r.args().isEmpty()) {
                    assertTrue(triedByNr.get(nr).stream().anyMatch(r::matches), n + " " + r.args() + ": never matched");
                }
            }
        }
        assertTrue(t.same > 2 * (TOP + 1), t.same + " inputs");
        assertEquals(
                (TOP + 1 + EDGES.length - 1) * GENERIC.length + FOREIGN_ARCHES.length * 8,
                t.badArch,
                "every x32 number and every foreign architecture input is the documented difference");
    }

    /**
     * The names runc would hand libseccomp and our loader leaves out (unknown on x86_64): libseccomp
     * does not resolve any of them to an x86_64 call, and a rule naming them leaves its x86_64 program
     * byte for byte as it was. So both sides ignore the same names.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void namesUnknownOnX86_64AreIgnoredByLibseccompToo(String name, Path file) throws Exception {
        NeedsLibseccomp.assume();
        NeedsLibseccomp.assumeFile(file, "golang-github-containers-common");
        ObjectMapper m = new ObjectMapper();
        Set<String> dropped = new TreeSet<>();
        for (JsonNode r : m.readTree(file.toFile()).path("syscalls")) {
            r.path("names").forEach(n -> {
                if (TABLE.number(n.asText()).isEmpty()) {
                    dropped.add(n.asText());
                }
            });
        }
        if (dropped.isEmpty()) {
            return; // the fixture profiles name only x86_64 calls
        }
        String script = """
                import json, sys, seccomp
                names = json.load(open(sys.argv[1]))
                def export(extra):
                    f = seccomp.SyscallFilter(defaction=seccomp.ERRNO(38))
                    f.add_rule(seccomp.ALLOW, "getppid")
                    for n in extra:
                        f.add_rule(seccomp.ALLOW, n)
                    with open(sys.argv[2], "wb") as out:
                        f.export_bpf(out)
                    return open(sys.argv[2], "rb").read()
                base = export([])
                print(json.dumps({n: [seccomp.resolve_syscall(seccomp.Arch.X86_64, n), export([n]) != base]
                                  for n in names}))
                """;
        Path dir = Files.createTempDirectory("heimdall-libseccomp-names");
        try {
            Path py = Files.writeString(dir.resolve("names.py"), script);
            Path in = Files.writeString(dir.resolve("names.json"), m.writeValueAsString(dropped));
            Process proc = new ProcessBuilder(
                            LibseccompBaseline.PYTHON,
                            py.toString(),
                            in.toString(),
                            dir.resolve("out.bpf").toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(proc.waitFor(60, TimeUnit.SECONDS), "python did not finish");
            assertEquals(0, proc.exitValue(), out);
            JsonNode report = m.readTree(out);
            List<String> wrong = new ArrayList<>();
            report.fields().forEachRemaining(e -> {
                if (e.getValue().get(0).asInt() >= 0 || e.getValue().get(1).asBoolean()) {
                    wrong.add(e.getKey() + " " + e.getValue());
                }
            });
            System.out.println("libseccomp names " + name + ": " + dropped.size() + " names unknown on x86_64, "
                    + "ignored by both");
            assertEquals(List.of(), wrong, "names our loader leaves out that libseccomp gives an x86_64 rule");
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * A sample in the real kernel: -1, x32 numbers and the calls with argument rules, under ours and
     * under libseccomp's program (each over the {@link SafetyGuard}); the kernel must do what the
     * emulator says for each, and -1 must end the same way under both.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void kernelAgreesOnASample(String name, Path file) throws Exception {
        NeedsKernelSeccomp.assume();
        Pair p = Pair.of(file);
        Set<Integer> sample = new TreeSet<>(List.of(
                Compiler.SKIPPED_CALL,
                Profile.X32_SYSCALL_BIT,
                Profile.X32_SYSCALL_BIT | 39,
                Profile.X32_SYSCALL_BIT | 110,
                39,
                110));
        for (SyscallRule r : p.profile().syscalls()) {
            if (!r.args().isEmpty()) {
                r.names().forEach(n -> sample.add(TABLE.number(n).getAsInt()));
            }
        }
        for (Map.Entry<String, Program> e : List.of(Map.entry("ours", p.ours()), Map.entry("libseccomp", p.theirs()))) {
            long t0 = System.nanoTime();
            Differential d = new Differential(name + " " + e.getKey(), List.of(e.getValue()));
            for (int nr : sample) {
                for (long[] v : vectors(p.profile(), nr)) {
                    d.check(nr, v);
                }
            }
            KernelDifferentialTest.report(d, t0);
        }
        List<Program> guard = List.of(SafetyGuard.harmless().program());
        KernelOutcome ours = KernelOutcome.of(concat(guard, p.ours()), -1, new long[6]);
        KernelOutcome theirs = KernelOutcome.of(concat(guard, p.theirs()), -1, new long[6]);
        assertTrue(ours.sameAs(theirs), "syscall(-1): ours " + ours + ", libseccomp " + theirs);
    }

    private static List<Program> concat(List<Program> a, Program b) {
        return Stream.concat(a.stream(), Stream.of(b)).collect(Collectors.toList());
    }
}
