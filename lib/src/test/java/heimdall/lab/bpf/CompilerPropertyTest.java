package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Compiled programs, run in the emulator, answer what the profile's own semantics answer. */
class CompilerPropertyTest {
    static final SyscallTable TABLE = SyscallTable.x86_64();
    /** Values near the 32-bit boundaries, so that both halves of a comparison matter. */
    static final long[] VALUES = {
        0, 1, 2, 9, 16, 0xffff_ffffL, 0x1_0000_0000L, 0x1_0000_0001L, 0x2_0000_0009L, 0x8000_0000_0000_0000L, -1L, -2L
    };

    @Provide
    Arbitrary<Profile> profiles() {
        List<String> names = new ArrayList<>();
        // a dense low block (ranges merge) and a few scattered high numbers
        for (int nr = 0; nr < 60; nr++) {
            TABLE.name(nr).ifPresent(names::add);
        }
        names.addAll(List.of("openat", "prctl", "mprotect", "clone3", "futex_waitv", "set_mempolicy_home_node"));
        Arbitrary<Action> actions = Arbitraries.oneOf(
                Arbitraries.of(
                        Action.ALLOW, Action.KILL_PROCESS, Action.KILL_THREAD, Action.TRAP, Action.LOG, Action.NOTIFY),
                Arbitraries.integers().between(1, 40).map(Action::errno),
                Arbitraries.integers().between(0, 3).map(Action::trace));
        Arbitrary<Long> values = Arbitraries.oneOf(Arbitraries.of(toBoxed(VALUES)), Arbitraries.longs());
        Arbitrary<ArgRule> args = Combinators.combine(
                        Arbitraries.integers().between(0, 5), values, values, Arbitraries.of(Op.values()))
                .as(ArgRule::new);
        Arbitrary<SyscallRule> rules = Combinators.combine(
                        Arbitraries.of(names).list().ofMinSize(1).ofMaxSize(8),
                        actions,
                        args.list().ofMaxSize(3).injectDuplicates(0.1))
                .as(SyscallRule::new);
        return Combinators.combine(actions, rules.list().ofMaxSize(25))
                .as((def, rs) -> new Profile(def, List.of("SCMP_ARCH_X86_64"), rs));
    }

    @Property(tries = 150)
    void emulatedProgramMatchesProfileSemantics(@ForAll("profiles") Profile profile, @ForAll long seed) {
        Program program = Compiler.compile(profile);
        Random rnd = new Random(seed);
        for (int nr = 0; nr <= TABLE.maxNumber() + 2; nr++) {
            for (int i = 0; i < 6; i++) {
                long[] a = new long[6];
                for (int j = 0; j < 6; j++) {
                    a[j] = rnd.nextInt(4) == 0 ? rnd.nextLong() : VALUES[rnd.nextInt(VALUES.length)];
                }
                assertAgree(profile, program, new SeccompData(nr, Profile.AUDIT_ARCH_X86_64, rnd.nextLong(), a));
            }
        }
        for (int nr : TABLE.numbers()) {
            java.util.Set<Integer> outcomes = outcomes(profile, nr);
            boolean bareAllow = outcomes.equals(java.util.Set.of(Action.ALLOW.ret()));
            assertEquals(bareAllow, CachePredictor.cacheable(program, nr), () -> "nr " + nr + " outcomes " + outcomes);
        }
        for (int nr : new int[] {-1, 0x40000000, 0x40000001, 0x7fffffff, Integer.MIN_VALUE}) {
            assertAgree(profile, program, SeccompData.x86_64(nr));
        }
        assertAgree(profile, program, new SeccompData(0, 0x40000003 /* i386 */, 0, new long[6]));
    }

    /** The answers a call can get from the profile, whatever its arguments. */
    static java.util.Set<Integer> outcomes(Profile profile, int nr) {
        java.util.Set<Integer> out = new java.util.HashSet<>();
        for (SyscallRule r : profile.syscalls()) {
            if (r.names().stream().anyMatch(n -> TABLE.number(n).getAsInt() == nr)) {
                out.add(r.action().ret());
                if (r.args().isEmpty()) {
                    return out;
                }
            }
        }
        out.add(profile.defaultAction().ret());
        return out;
    }

    @Property(tries = 60)
    void stackedProgramsAnswerWithTheKernelsPrecedence(
            @ForAll("profiles") Profile older, @ForAll("profiles") Profile newer, @ForAll long seed) {
        List<Program> stack = List.of(Compiler.compile(older), Compiler.compile(newer));
        Random rnd = new Random(seed);
        for (int nr = 0; nr <= TABLE.maxNumber(); nr += 1 + rnd.nextInt(3)) {
            long[] a = new long[6];
            for (int j = 0; j < 6; j++) {
                a[j] = VALUES[rnd.nextInt(VALUES.length)];
            }
            int o = older.evaluate(TABLE, nr, Profile.AUDIT_ARCH_X86_64, a);
            int n = newer.evaluate(TABLE, nr, Profile.AUDIT_ARCH_X86_64, a);
            // the most restrictive action (signed compare of the action bits); the newer one on a tie
            int want = (o & 0xffff0000) < (n & 0xffff0000) ? o : n;
            Verdict got = Stack.evaluate(stack, SeccompData.x86_64(nr, a));
            assertEquals(Action.describe(want), Action.describe(got.action()));
            boolean bothBareAllow = outcomes(older, nr).equals(java.util.Set.of(Action.ALLOW.ret()))
                    && outcomes(newer, nr).equals(java.util.Set.of(Action.ALLOW.ret()));
            assertEquals(bothBareAllow, CachePredictor.cacheable(stack, nr));
        }
    }

    static void assertAgree(Profile profile, Program program, SeccompData d) {
        int want = profile.evaluate(TABLE, d.nr(), d.arch(), d.args());
        Verdict got = Emulator.run(program, d);
        assertEquals(
                Action.describe(want),
                Action.describe(got.action()),
                () -> d + "\n" + Disassembler.disassemble(program));
    }

    @Test
    void longJumpsGetTrampolinesAndStayCorrect() {
        // every call argument-sensitive, each with many rules: the dispatch's jumps reach far past 255
        Profile.Builder b = Profile.builder(Action.errno(38));
        for (int nr = 0; nr < 200; nr += 2) {
            String name = TABLE.name(nr).orElseThrow();
            for (int k = 0; k < 3; k++) {
                b.rule(Action.ALLOW, name, ArgRule.of(k, Op.EQ, nr + k));
            }
        }
        Profile profile = b.build();
        Program program = Compiler.compile(profile);
        assertTrue(program.length() > 1000, "length " + program.length());
        assertTrue(
                program.insns().stream().anyMatch(i -> i.code() == (Insn.JMP | Insn.JA) && i.k() > 255),
                "expected long JA trampolines");
        for (int nr = 0; nr < 210; nr++) {
            assertAgree(profile, program, SeccompData.x86_64(nr, nr, nr + 1, nr + 2));
            assertAgree(profile, program, SeccompData.x86_64(nr, 0, nr + 1, 7));
            assertAgree(profile, program, SeccompData.x86_64(nr, 0, 0, nr + 2));
            assertAgree(profile, program, SeccompData.x86_64(nr));
        }
    }

    @Test
    void allowedBareCallsRunFewInstructions() {
        Profile p = Profile.builder(Action.KILL_PROCESS).allow("getppid").build();
        Program prog = Compiler.compile(p);
        // ld arch, jeq, ld nr, then a tree over 3 ranges (2 compares; x32 and -1 are in the last), ret
        assertEquals(6, Emulator.run(prog, SeccompData.x86_64(110)).insnsExecuted());
        assertEquals(
                Action.ALLOW.ret(), Emulator.run(prog, SeccompData.x86_64(110)).action());
        assertEquals(
                Action.KILL_PROCESS.ret(),
                Emulator.run(prog, SeccompData.x86_64(111)).action());
    }

    private static Long[] toBoxed(long[] v) {
        Long[] out = new Long[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
