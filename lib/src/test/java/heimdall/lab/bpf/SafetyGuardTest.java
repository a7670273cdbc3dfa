package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.sys.Signals;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The differential tests run real calls as root under {@link SafetyGuard}: its program must answer
 * exactly as its list says, and no dangerous call may ever pass it, whatever the program on top.
 */
class SafetyGuardTest {
    private static final SyscallTable TABLE = SyscallTable.x86_64();
    private static final Program ALLOW_ALL = new Program(List.of(Insn.ret(Action.ALLOW.ret())));

    /** Argument vectors: zeros, all ones, each listed condition met and broken, and random ones. */
    private static List<long[]> vectors(SafetyGuard g) {
        List<long[]> out = new ArrayList<>();
        out.add(new long[6]);
        long[] ones = new long[6];
        java.util.Arrays.fill(ones, -1L);
        out.add(ones);
        for (SafetyGuard.Entry e : g.entries()) {
            long[] meets = new long[6];
            for (SafetyGuard.Cond c : e.conds()) {
                meets[c.index()] = c.values()[c.values().length - 1];
            }
            out.add(meets);
            for (SafetyGuard.Cond c : e.conds()) {
                for (long delta : new long[] {1, 1L << 32, -1}) {
                    long[] breaks = meets.clone();
                    breaks[c.index()] = c.values()[0] + delta;
                    out.add(breaks);
                }
            }
        }
        Random r = new Random(20261130);
        for (int i = 0; i < 40; i++) {
            long[] a = new long[6];
            for (int k = 0; k < 6; k++) {
                a[k] = switch (r.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> r.nextInt(64);
                    case 2 -> (long) r.nextInt(64) << 32;
                    default -> r.nextLong();
                };
            }
            out.add(a);
        }
        return out;
    }

    @Test
    void theProgramAnswersAsTheListSays() {
        for (SafetyGuard g : List.of(SafetyGuard.harmless(), SafetyGuard.opaque())) {
            List<long[]> vectors = vectors(g);
            for (int nr = 0; nr < 1100; nr++) {
                for (int bits : new int[] {0, Profile.X32_SYSCALL_BIT}) {
                    for (long[] a : vectors) {
                        SeccompData d = SeccompData.x86_64(nr | bits, a);
                        assertEquals(g.answer(d), Emulator.run(g.program(), d).action(), d.toString());
                    }
                }
            }
            SeccompData i386 = new SeccompData(20, 0x40000003, 0, new long[6]);
            assertEquals(
                    Action.errno(SafetyGuard.FOREIGN).ret(),
                    Emulator.run(g.program(), i386).action());
        }
    }

    @Test
    void theOpaqueGuardListsOnlyWhatTheRunnerNeedsAndNothingTheHarmlessOneRefuses() {
        for (SafetyGuard.Entry e : SafetyGuard.opaque().entries()) {
            assertTrue(
                    SafetyGuard.harmless().entries().stream()
                            .anyMatch(h -> h.nr() == e.nr() && h.conds().equals(e.conds())),
                    e.name());
        }
        assertEquals(
                List.of("seccomp", "exit", "exit_group"),
                SafetyGuard.opaque().entries().stream()
                        .map(SafetyGuard.Entry::name)
                        .toList());
    }

    @Test
    void noDangerousCallPassesWhateverTheProgramOnTop() {
        int checked = 0;
        for (String name : SafetyGuard.DANGEROUS) {
            OptionalInt nr = TABLE.number(name);
            if (nr.isEmpty()) {
                continue; // not a call on x86_64 (_sysctl is gone from newer headers)
            }
            assertFalse(SafetyGuard.harmless().lists(nr.getAsInt()), name + " is on the allow list");
            for (long[] a : vectors(SafetyGuard.harmless())) {
                Verdict v = Stack.evaluate(
                        List.of(SafetyGuard.harmless().program(), ALLOW_ALL), SeccompData.x86_64(nr.getAsInt(), a));
                assertEquals(Action.errno(SafetyGuard.NOT_LISTED).ret(), v.action(), name);
            }
            checked++;
        }
        assertTrue(checked >= 80, "only " + checked + " dangerous calls found in the table");
    }

    /**
     * The kernel agrees, on calls that would be harmless even if the guard let them through
     * ({@code reboot} without its magic numbers fails with EINVAL, {@code mprotect} of page 0 with ENOMEM).
     */
    @Test
    void theKernelAnswersAsTheGuardSays() {
        NeedsKernelSeccomp.assume();
        List<Program> stack = List.of(SafetyGuard.harmless().program(), ALLOW_ALL);
        assertEquals(
                KernelOutcome.Kind.RETURNED,
                KernelOutcome.of(stack, 110 /* getppid */, new long[6]).kind());
        assertEquals(
                KernelOutcome.errno(SafetyGuard.NOT_LISTED), KernelOutcome.of(stack, 169 /* reboot */, new long[6]));
        assertEquals(
                KernelOutcome.errno(SafetyGuard.HARMFUL_ARGS),
                KernelOutcome.of(stack, 10 /* mprotect */, new long[] {0, 4096, 1, 0, 0, 0}));
        assertEquals(
                KernelOutcome.errno(SafetyGuard.FOREIGN),
                KernelOutcome.of(stack, 110 | Profile.X32_SYSCALL_BIT, new long[6]));
        assertEquals(
                new KernelOutcome(KernelOutcome.Kind.EXITED, 7),
                KernelOutcome.of(stack, 231 /* exit_group */, new long[] {7, 0, 0, 0, 0, 0}));
        // the opaque guard lets no call under test run
        List<Program> opaque = List.of(SafetyGuard.opaque().program(), ALLOW_ALL);
        assertEquals(KernelOutcome.errno(SafetyGuard.NOT_LISTED), KernelOutcome.of(opaque, 110, new long[6]));
        Program killAll = new Program(List.of(Insn.ret(Action.KILL_PROCESS.ret())));
        // a program on top that kills wins over the guard's ERRNO
        assertEquals(
                KernelOutcome.killed(Signals.SIGSYS),
                KernelOutcome.of(List.of(SafetyGuard.harmless().program(), killAll), 169, new long[6]));
    }
}
