package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compiler and the emulator against the real kernel: each profile is compiled, and every syscall
 * number of the table (and a few past it, a few x32 numbers, and -1), with {@link CallCases}' argument
 * vectors (allowed, denied, rule-matching and rule-breaking, and each again with a rule's argument's
 * high half flipped), is called in a fresh runner under the compiled program; the kernel's verdict
 * must equal {@link KernelFate} of {@link Stack#evaluate} for every call, and the program's emulated
 * answer must equal the profile's own ({@link Profile#evaluate}). Calls run under a {@link SafetyGuard} (see {@link
 * Differential}), so nothing harmful
 * runs as root whatever the profile allows.
 */
class KernelDifferentialTest {
    static final SyscallTable TABLE = SyscallTable.x86_64();
    static final Path PODMAN = Path.of("/usr/share/containers/seccomp.json");
    /** Past the table: numbers the 6.18 kernel knows and the (older) headers do not, and unknown ones. */
    static final int BEYOND = 24;
    /** Called with the x32 bit set: the x32 range of the compiler's search tree, the emulator's unsigned compare. */
    static final List<Integer> X32_PROBES = List.of(0, 10, 110, 231, 257);

    @BeforeAll
    static void kernel() {
        NeedsKernelSeccomp.assume();
    }

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

    /** Every number to call: the table's range and a little past it, minus the kernel's pass-through calls. */
    static List<Integer> numbers() {
        List<Integer> out = new ArrayList<>();
        for (int nr = 0; nr <= TABLE.maxNumber() + BEYOND; nr++) {
            if (!CachePredictor.KERNEL_PASS_THROUGH_X86_64.contains(nr)) {
                out.add(nr);
            }
        }
        return out;
    }

    /**
     * The calls to make: every number with {@link CallCases}' vectors for {@code rules}, each vector
     * also with the high half of every argument a rule of that call looks at flipped (a rule that
     * compared only the low 32 bits would answer those wrongly), and the x32 probes.
     */
    static List<SeccompData> cases(List<Profile> rules) {
        List<SeccompData> out = new ArrayList<>();
        for (int nr : numbers()) {
            Set<Integer> argIndexes = new TreeSet<>();
            for (Profile p : rules) {
                for (SyscallRule r : p.syscalls()) {
                    if (r.names().stream().anyMatch(n -> TABLE.number(n).orElse(-1) == nr)) {
                        r.args().forEach(a -> argIndexes.add(a.index()));
                    }
                }
            }
            List<long[]> vectors = new ArrayList<>();
            for (Profile p : rules) {
                for (long[] v : CallCases.argVectors(p, TABLE, nr)) {
                    addNew(vectors, v);
                    for (int i : argIndexes) {
                        long[] high = v.clone();
                        high[i] ^= 1L << 32;
                        addNew(vectors, high);
                    }
                }
            }
            vectors.forEach(v -> out.add(SeccompData.x86_64(nr, v)));
        }
        for (int nr : X32_PROBES) {
            out.add(SeccompData.x86_64(nr | Profile.X32_SYSCALL_BIT));
        }
        out.add(SeccompData.x86_64(Compiler.SKIPPED_CALL)); // a tracer's skipped call: the default action
        return out;
    }

    private static void addNew(List<long[]> vectors, long[] v) {
        if (vectors.stream().noneMatch(o -> Arrays.equals(o, v))) {
            vectors.add(v);
        }
    }

    /** Makes every call of {@link #cases} through {@code d}. */
    static void checkAll(Differential d, List<Profile> rules) {
        for (SeccompData c : cases(rules)) {
            d.check(c.nr(), c.args());
        }
    }

    static void report(Differential d, long startNs) {
        System.out.println("differential: " + d.summary((System.nanoTime() - startNs) / 1_000_000));
        assertEquals(
                "",
                d.disagreements.stream().map(Object::toString).collect(Collectors.joining("\n")),
                d.disagreements.size() + " calls where the kernel and the emulator disagree");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("profiles")
    void compiledProfileAgreesWithTheKernelOnEveryCall(String name, Path file) {
        if (file.equals(PODMAN)) { // the fixtures are ours: missing ones fail below
            Requires.file(file, "Debian package golang-github-containers-common");
        }
        Profile profile = ProfileJson.load(file).profile();
        Program program = Compiler.compile(profile, TABLE, file.toString());
        // The program says what the profile says (its reference semantics), on every call made below.
        for (SeccompData c : cases(List.of(profile))) {
            assertEquals(
                    Action.describe(profile.evaluate(TABLE, c.nr(), c.arch(), c.args())),
                    Action.describe(Emulator.run(program, c).action()),
                    c.toString());
        }
        long t0 = System.nanoTime();
        Differential d = new Differential(name, List.of(program));
        checkAll(d, List.of(profile));
        report(d, t0);
        // Every kind of verdict was met, so a wrong one would have shown.
        assertTrue(d.byKind.getOrDefault(KernelOutcome.Kind.RETURNED, 0) > 0, "no call ran: " + d.byKind);
        assertTrue(d.byKind.getOrDefault(KernelOutcome.Kind.ERRNO, 0) > 0, "no call failed: " + d.byKind);
        assertTrue(d.byKind.getOrDefault(KernelOutcome.Kind.KILLED, 0) > 0, "no call was killed: " + d.byKind);
        assertTrue(d.compared > numbers().size(), d.compared + " calls");
    }
}
