package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the layout costs: the x32 test folded into the search, the weighted tree, Podman's floor. */
class CompilerLayoutTest {
    static final SyscallTable TABLE = SyscallTable.x86_64();

    @Test
    void x32AndSkippedCallAreBoundariesOfTheSearchNotASeparateStep() {
        Profile p = Profile.builder(Action.errno(38))
                .allow("read", "write", "getppid")
                .build();
        Program prog = Compiler.compile(p);
        // nothing between the nr load and the search's first compare: instruction 3 is the root
        assertEquals(Insn.JMP | Insn.JGE | Insn.K, prog.get(3).code());
        for (int i = 0; i < prog.length(); i++) {
            Insn in = prog.get(i);
            assertTrue(
                    in.code() != (Insn.JMP | Insn.JEQ | Insn.K) || in.k() != Compiler.SKIPPED_CALL,
                    "no separate test for -1 at " + i);
        }
        // every bare answer costs 3 + depth + 1 and the x32 numbers and -1 meet their answers in the tree
        assertEquals(
                Action.KILL_PROCESS.ret(),
                Emulator.run(prog, SeccompData.x86_64(Profile.X32_SYSCALL_BIT)).action());
        assertEquals(
                Action.KILL_PROCESS.ret(),
                Emulator.run(prog, SeccompData.x86_64(0xfffffffe)).action());
        assertEquals(
                Action.errno(38).ret(),
                Emulator.run(prog, SeccompData.x86_64(Compiler.SKIPPED_CALL)).action());
        assertEquals(
                Action.errno(38).ret(),
                Emulator.run(prog, SeccompData.x86_64(0x3fffffff)).action());
    }

    @Test
    void killProcessDefaultMergesTheTailIntoOneRange() {
        // ranges: [0,110) kill, [110] allow, [111, 2^32) kill (x32 and -1 included): two compares
        Program prog = Compiler.compile(
                Profile.builder(Action.KILL_PROCESS).allow("getppid").build());
        assertEquals(7, prog.length(), "ld arch, jeq, ld nr, two compares, RET KILL_PROCESS, RET ALLOW");
        for (int nr : new int[] {0, 109, 111, 0x40000000, -1, -2}) {
            Verdict v = Emulator.run(prog, SeccompData.x86_64(nr));
            assertEquals(Action.KILL_PROCESS.ret(), v.action(), "nr " + nr);
            assertTrue(v.insnsExecuted() <= 6, "nr " + nr + ": " + v);
        }
    }

    @Test
    void allowedCallsOfAnAllowListAreNoDeeperThanInABalancedTree() {
        // scattered allowed calls among long denied runs: the weighting must favour the allowed ones
        List<String> names = List.of(
                "read",
                "write",
                "close",
                "mmap",
                "brk",
                "rt_sigreturn",
                "getpid",
                "exit",
                "futex",
                "epoll_wait",
                "exit_group",
                "openat",
                "getrandom",
                "clock_nanosleep",
                "rseq");
        Program prog = Compiler.compile(Profile.builder(Action.errno(1))
                .allow(names.toArray(String[]::new))
                .build());
        int ranges = 2 * names.size() + 3; // at most: each call and the gap after it, x32, -1
        int balanced = 32 - Integer.numberOfLeadingZeros(ranges - 1);
        for (String n : names) {
            Verdict v = Emulator.run(prog, SeccompData.x86_64(TABLE.number(n).getAsInt()));
            assertEquals(Action.ALLOW.ret(), v.action(), n);
            assertTrue(v.insnsExecuted() <= 3 + balanced + 1, n + ": " + v);
        }
    }

    @Test
    void podmanProfileAllowedCallsRunAtMostTenInstructionsAtTheMedian() {
        Path podman = Path.of("/usr/share/containers/seccomp.json");
        Requires.file(podman, "Debian package golang-github-containers-common");
        Profile profile = ProfileJson.load(podman).profile();
        ProgramStats s = ProgramStats.of(Compiler.compile(profile), TABLE);
        int bareAllowed = 0;
        for (int nr : TABLE.numbers()) {
            if (CompilerPropertyTest.outcomes(profile, nr).equals(java.util.Set.of(Action.ALLOW.ret()))) {
                bareAllowed++;
            }
        }
        assertTrue(s.allowed().median() <= 10, s.toString());
        assertTrue(s.allowed().max() <= 19, "no worse than the unweighted layout's 19: " + s);
        assertEquals(bareAllowed, s.cacheable(), "every bare allowed call stays cacheable: " + s);
    }
}
