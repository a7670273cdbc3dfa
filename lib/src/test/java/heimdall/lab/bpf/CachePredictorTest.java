package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CachePredictorTest {
    static final int ALLOW = 0x7fff0000;
    static final int ARCH = Profile.AUDIT_ARCH_X86_64;

    static Program prog(Insn... insns) {
        return new Program(List.of(insns));
    }

    /** arch check, then nr == 39 ? ALLOW : ERRNO. */
    static Program pureDispatch() {
        return prog(
                ldAbs(4),
                jump(JEQ, ARCH, 1, 0),
                ret(0),
                ldAbs(0),
                andK(0xffff),
                jump(JGE, 39, 0, 2),
                jump(JGT, 39, 1, 0),
                ret(ALLOW),
                ja(0),
                jump(JSET, 0x100, 0, 1),
                ret(0x50001),
                ret(0x50001));
    }

    @Test
    void pureNrAndArchDispatchIsCacheableForItsAllowedNumbers() {
        Program p = pureDispatch();
        assertTrue(CachePredictor.cacheable(p, 39));
        assertFalse(CachePredictor.cacheable(p, 40), "ends in ERRNO");
        assertFalse(CachePredictor.cacheable(p, 38), "ends in ERRNO");
        assertEquals(1, CachePredictor.cacheableNumbers(p, 500).cardinality());
    }

    @Test
    void numbersOutsideTheKernelsBitmapAreNeverCacheable() {
        // seccomp_cache_check_allow_bitmap: nr < 0 or past the bitmap runs the filters, even a constant allow
        Program allowAll = prog(ldAbs(0), ret(ALLOW));
        assertTrue(CachePredictor.cacheable(allowAll, 0));
        for (int nr : new int[] {-1, Integer.MIN_VALUE, Profile.X32_SYSCALL_BIT, Profile.X32_SYSCALL_BIT | 39}) {
            assertEquals(ALLOW, Emulator.run(allowAll, SeccompData.x86_64(nr)).action());
            assertFalse(CachePredictor.cacheable(allowAll, nr), "nr " + nr);
        }
        // a compiled allow-by-default profile lets -1 through to its default, uncached
        Program compiled = Compiler.compile(
                Profile.builder(Action.ALLOW).rule(Action.errno(1), "getppid").build());
        assertEquals(ALLOW, Emulator.run(compiled, SeccompData.x86_64(-1)).action());
        assertFalse(CachePredictor.cacheable(compiled, -1));
        assertTrue(CachePredictor.cacheable(compiled, 39));
    }

    @Test
    void nonConstantInstructionsOnThePathAreNotCacheable() {
        List<Insn[]> spoilers = List.of(
                new Insn[] {ldAbs(16)}, // args[0]
                new Insn[] {ldAbs(8)}, // instruction_pointer
                new Insn[] {new Insn(LD | IMM, 0, 0, 39)}, // LD IMM
                new Insn[] {new Insn(LDX | IMM, 0, 0, 1)}, // X register
                new Insn[] {new Insn(MISC | TAX, 0, 0, 0)},
                new Insn[] {new Insn(ST, 0, 0, 0), new Insn(LD | MEM, 0, 0, 0)}, // scratch memory
                new Insn[] {new Insn(ALU | ADD | K, 0, 0, 0)}, // ALU other than AND K
                new Insn[] {new Insn(ALU | OR | K, 0, 0, 0)});
        for (Insn[] spoiler : spoilers) {
            java.util.ArrayList<Insn> insns = new java.util.ArrayList<>(List.of(ldAbs(0)));
            insns.addAll(List.of(spoiler));
            insns.add(ldAbs(0));
            insns.add(ret(ALLOW));
            Program p = new Program(insns);
            assertEquals(ALLOW, Emulator.run(p, SeccompData.x86_64(39)).action());
            assertFalse(CachePredictor.cacheable(p, 39), "spoiled by " + spoiler[0]);
        }
        assertFalse(CachePredictor.cacheable(prog(ldAbs(0), new Insn(RET | A, 0, 0, 0)), ALLOW), "RET A");
        // a spoiler off the path does not matter
        Program offPath = prog(ldAbs(0), jump(JEQ, 39, 0, 1), ret(ALLOW), ldAbs(16), ret(ALLOW));
        assertTrue(CachePredictor.cacheable(offPath, 39));
        assertFalse(CachePredictor.cacheable(offPath, 40));
    }

    @Test
    void aStackIsCacheableOnlyWhereEveryProgramIs() {
        Program allowAll = prog(ret(ALLOW));
        Program argCheck = prog(ldAbs(0), jump(JEQ, 1, 0, 1), ldAbs(16), ret(ALLOW));
        assertTrue(CachePredictor.cacheable(List.of(allowAll, allowAll), 1));
        assertFalse(CachePredictor.cacheable(List.of(allowAll, argCheck), 1));
        assertTrue(CachePredictor.cacheable(List.of(allowAll, argCheck), 2));
    }

    @Test
    void compiledProfileKeepsBareAllowsCacheable() {
        Profile p = Profile.builder(Action.KILL_PROCESS)
                .allow("getppid", "gettid", "read")
                .rule(Action.ALLOW, "mprotect", heimdall.lab.profile.ArgRule.of(2, heimdall.lab.profile.Op.EQ, 1))
                .build();
        Program prog = Compiler.compile(p);
        SyscallTable t = SyscallTable.x86_64();
        for (int nr : t.numbers()) {
            String name = t.name(nr).orElseThrow();
            boolean bareAllowed = List.of("getppid", "gettid", "read").contains(name);
            assertEquals(bareAllowed, CachePredictor.cacheable(prog, nr), name);
        }
    }

    @Test
    void podmanProfileEveryBareAllowedCallIsCacheable() {
        Path podman = Path.of("/usr/share/containers/seccomp.json");
        Requires.file(podman, "Debian package golang-github-containers-common");
        Profile profile = ProfileJson.load(podman).profile();
        SyscallTable t = SyscallTable.x86_64();
        Program prog = Compiler.compile(profile);
        int bare = 0;
        for (int nr : t.numbers()) {
            boolean argSensitive = isArgSensitive(profile, t, nr);
            boolean allowed = Emulator.run(prog, SeccompData.x86_64(nr)).allows();
            if (allowed && !argSensitive) {
                bare++;
                assertTrue(CachePredictor.cacheable(prog, nr), t.name(nr).orElseThrow());
            }
            if (argSensitive) {
                assertFalse(CachePredictor.cacheable(prog, nr), t.name(nr).orElseThrow());
            }
        }
        assertTrue(bare > 300, "Podman's profile allows over 300 calls bare, got " + bare);
    }

    /** Whether the profile's first rule for nr has conditions (so the answer depends on arguments). */
    static boolean isArgSensitive(Profile p, SyscallTable t, int nr) {
        for (var r : p.syscalls()) {
            if (r.names().stream().anyMatch(n -> t.number(n).orElse(-1) == nr)) {
                return !r.args().isEmpty();
            }
        }
        return false;
    }
}
