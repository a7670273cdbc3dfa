package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.sys.Signals;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The default broker floor ({@link Floors#brokerFloor()}) over the whole x86_64 syscall table: every
 * number gets exactly the answer the floor promises (notify for the four opens by name, a kill for the
 * opens without a name, for foreign architectures, the x32 numbers and numbers the table does not
 * know; allow, from the action cache, for the rest), checked on the program and then in the kernel,
 * one fresh runner per call under the {@link SafetyGuard} (the {@link Differential}).
 */
class KernelBrokerFloorTest {
    private static final SyscallTable TABLE = SyscallTable.x86_64();
    private static final int AUDIT_ARCH_I386 = 0x40000003;
    /** open_tree_attr (Linux 6.15): in the running kernel, not in the table's headers. */
    private static final int OPEN_TREE_ATTR = 467;

    private static final Program FLOOR = Compiler.compile(Floors.brokerFloor());
    private static final int KILL = Action.KILL_PROCESS.ret();

    @Test
    void everyNumberOfTheTableGetsTheAnswerTheFloorPromises() {
        Set<String> named = Set.copyOf(Floors.OPEN_BY_NAME);
        Set<String> bypass = Set.copyOf(Floors.OPEN_WITHOUT_NAME);
        Map<String, List<String>> wrong = new TreeMap<>();
        int allowed = 0;
        for (Map.Entry<String, Integer> e : TABLE.byName().entrySet()) {
            String name = e.getKey();
            int nr = e.getValue();
            int got = Emulator.run(FLOOR, SeccompData.x86_64(nr)).action();
            int want = named.contains(name)
                    ? Action.NOTIFY.ret()
                    : bypass.contains(name) ? Action.KILL_PROCESS.ret() : Action.ALLOW.ret();
            if (got != want) {
                String how = Action.describe(got) + " instead of " + Action.describe(want);
                wrong.computeIfAbsent(how, k -> new ArrayList<>()).add(name);
            }
            if (want == Action.ALLOW.ret()) {
                allowed++;
                if (!CachePredictor.cacheable(FLOOR, nr) && !CachePredictor.KERNEL_PASS_THROUGH_X86_64.contains(nr)) {
                    wrong.computeIfAbsent("allowed but not cacheable", k -> new ArrayList<>())
                            .add(name);
                }
            }
            // The same call from any other architecture, and its x32 number: killed.
            assertEquals(KILL, answer(new SeccompData(nr, AUDIT_ARCH_I386, 0, new long[6])), name + " as an i386 call");
            assertEquals(KILL, answer(SeccompData.x86_64(nr | Profile.X32_SYSCALL_BIT)), name + " as an x32 call");
        }
        assertEquals(Map.of(), wrong, "calls the broker floor answers otherwise than it promises");
        assertTrue(allowed > 300, allowed + " calls allowed");
        // Every name it rules is a call of the table (a misspelling would rule nothing).
        for (String n : named) {
            assertTrue(TABLE.number(n).isPresent(), n);
        }
        for (String n : bypass) {
            assertTrue(TABLE.number(n).isPresent(), n);
        }
        // i386 open (nr 5 through int 0x80), numbers past the table (open_tree_attr) and -1: killed.
        assertEquals(KILL, answer(new SeccompData(5, AUDIT_ARCH_I386, 0, new long[6])));
        assertEquals(KILL, answer(SeccompData.x86_64(OPEN_TREE_ATTR)));
        assertEquals(KILL, answer(SeccompData.x86_64(TABLE.maxNumber() + 1)));
        assertEquals(KILL, answer(SeccompData.x86_64(-1)));
    }

    private static int answer(SeccompData call) {
        return Emulator.run(FLOOR, call).action();
    }

    /**
     * The kernel agrees with the program on every number of the table (and past it, x32 numbers, -1),
     * each call made in a fresh runner: the kills are seen as SIGSYS, the rest as the guard's errnos
     * (a notify without a listener loses to the guard's ERRNO, as the kernel's precedence says).
     */
    @Test
    @Timeout(600)
    void theKernelAgreesOnEveryCall() {
        NeedsKernelSeccomp.assume();
        long t0 = System.nanoTime();
        Differential d = new Differential("broker floor", List.of(FLOOR));
        KernelDifferentialTest.checkAll(d, List.of(Floors.brokerFloor()));
        KernelDifferentialTest.report(d, t0);
        assertTrue(d.seen.contains(KernelOutcome.killed(Signals.SIGSYS)), d.seen.toString());
        assertTrue(d.compared > TABLE.numbers().size(), d.compared + " calls");
    }
}
