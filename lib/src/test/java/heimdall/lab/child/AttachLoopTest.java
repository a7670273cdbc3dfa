package heimdall.lab.child;

import static heimdall.lab.child.Programs.JEQ_K;
import static heimdall.lab.child.Programs.LD_W_ABS;
import static heimdall.lab.child.Programs.NR_EXIT_GROUP;
import static heimdall.lab.child.Programs.RET_ALLOW;
import static heimdall.lab.child.Programs.RET_K;
import static heimdall.lab.child.Programs.insn;
import static heimdall.lab.child.Programs.program;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Errno;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The runner's attach and fork calls, the batch clock option, and the kernel's attach budget. */
class AttachLoopTest {
    static final int JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
    static final int JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    static final int ARCH_X86_64 = 0xc000003e;

    /** load nr, RET ALLOW: the selftest's cacheable filter. */
    static byte[] twoInsns() {
        return program(insn(LD_W_ABS, 0, 0, 0), insn(RET_K, 0, 0, RET_ALLOW));
    }

    /**
     * A program with every conversion the budget model counts: an arch check with a negative constant
     * and both branches taken, a JEQ with a fall-through true branch (inverted), a JSET with both
     * branches, a JGE and several RET K; everything is allowed.
     */
    static byte[] conversions() {
        return program(
                insn(LD_W_ABS, 0, 0, 4), // arch
                insn(JEQ_K, 1, 0, ARCH_X86_64), // negative constant, jf == 0: 2 kernel insns
                insn(RET_K, 0, 0, RET_ALLOW),
                insn(LD_W_ABS, 0, 0, 0), // nr
                insn(JEQ_K, 0, 1, 9999), // jt == 0: inverted to JNE, 1
                insn(RET_K, 0, 0, RET_ALLOW),
                insn(JSET_K, 1, 2, 0x40000000), // both branches: 2
                insn(RET_K, 0, 0, RET_ALLOW),
                insn(JGE_K, 0, 1, 1000), // jt == 0: inverted to JLT, 1
                insn(RET_K, 0, 0, RET_ALLOW),
                insn(RET_K, 0, 0, RET_ALLOW));
    }

    static Stream<byte[]> programs() {
        return Stream.of(Programs.allowAll(), twoInsns(), conversions());
    }

    @Test
    void kernelLengthFollowsTheConversionRules() {
        assertEquals(3 + 2, AttachBudget.kernelLength(Programs.allowAll()));
        assertEquals(3 + 1 + 2, AttachBudget.kernelLength(twoInsns()));
        // ld, jeq(neg k: +1), ret(2), ld, jeq inverted(1), ret(2), jset(+1), ret(2), jge inverted(1), ret(2), ret(2)
        assertEquals(3 + 1 + 2 + 2 + 1 + 1 + 2 + 2 + 2 + 1 + 2 + 2, AttachBudget.kernelLength(conversions()));
        assertEquals(32772 / 10, AttachBudget.maxFilters(twoInsns()));
        assertEquals(0, AttachBudget.maxFilters(twoInsns(), java.util.Collections.nCopies(3277, twoInsns())));
        assertEquals(1, AttachBudget.maxFilters(twoInsns(), java.util.Collections.nCopies(3276, twoInsns())));
    }

    /** The budget model against the kernel: exactly maxFilters attaches succeed, the next is ENOMEM. */
    @ParameterizedTest
    @MethodSource("programs")
    void theAttachLoopMakesExactlyTheBudgetAndTheNextAttachIsRefused(byte[] prog) {
        MeasuredChildTest.requireSeccomp("allow");
        int k = AttachBudget.maxFilters(prog);
        ChildResult ok = MeasuredChild.run(ChildSpec.attaching(Call.ATTACH, prog, 0, k));
        assertTrue(ok.completed(), ok.fate().describe());
        assertEquals(k, ok.samples().length);
        assertTrue(Arrays.stream(ok.samples()).allMatch(s -> s > 0));

        ChildResult over = MeasuredChild.run(ChildSpec.attaching(Call.ATTACH, prog, 0, k + 1));
        Fate.Exited e =
                assertInstanceOf(Fate.Exited.class, over.fate(), over.fate().describe());
        assertEquals(72, e.code());
        assertEquals(Errno.ENOMEM, e.setupErrno(), Errno.name(e.setupErrno()));
        assertEquals(Phase.MEASURE, e.phase());
        assertEquals(k, over.samples().length, "the attaches made before the refusal are kept");
        assertEquals(Errno.ENOMEM, over.lastErrno());
    }

    @Test
    void warmUpAttachesCountAgainstTheBudget() {
        MeasuredChildTest.requireSeccomp("allow");
        byte[] prog = twoInsns();
        int k = AttachBudget.maxFilters(prog);
        ChildResult r = MeasuredChild.run(ChildSpec.attaching(Call.ATTACH, prog, 10, k - 9));
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate(), r.fate().describe());
        assertEquals(72, e.code());
        assertEquals(k - 10, r.samples().length);
    }

    @Test
    void theAttachLoopTimedAsAWholeGivesATotalAndNoSamples() {
        MeasuredChildTest.requireSeccomp("allow");
        ChildResult r = MeasuredChild.run(
                ChildSpec.attaching(Call.ATTACH, twoInsns(), 0, 100).withMode(ChildSpec.Mode.BATCH));
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(0, r.samples().length);
        assertTrue(r.batchTotalNs() > 0);
    }

    @Test
    void forkWithAndWithoutAnAttachCompletesEveryCall() {
        MeasuredChildTest.requireSeccomp("allow");
        ChildResult fork = MeasuredChild.run(ChildSpec.of(Call.FORK, 5, 50));
        assertTrue(fork.completed(), fork.fate().describe());
        assertEquals(50, fork.samples().length);
        ChildResult attach = MeasuredChild.run(ChildSpec.attaching(Call.FORK_ATTACH, twoInsns(), 5, 50));
        assertTrue(attach.completed(), attach.fate().describe());
        assertEquals(50, attach.samples().length);
        assertTrue(Arrays.stream(attach.samples()).allMatch(s -> s > 0));
        // Each child attaches once in a fresh process: far more calls than the in-process budget.
        int beyond = AttachBudget.maxFilters(Programs.allowAll()) + 1;
        ChildResult many = MeasuredChild.run(ChildSpec.attaching(Call.FORK_ATTACH, Programs.allowAll(), 0, beyond)
                .withMode(ChildSpec.Mode.BATCH));
        assertTrue(many.completed(), many.fate().describe());
        assertTrue(many.batchTotalNs() > 0);
    }

    /** A forked child killed by the program it attached (it forbids exit_group) fails the run at call 0. */
    @Test
    void aForkedChildThatDiesEndsTheRun() {
        MeasuredChildTest.requireSeccomp("kill_process");
        byte[] killsExit = Programs.onSyscall(NR_EXIT_GROUP, Programs.RET_KILL_PROCESS);
        ChildResult r = MeasuredChild.run(ChildSpec.attaching(Call.FORK_ATTACH, killsExit, 0, 10));
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate(), r.fate().describe());
        assertEquals(72, e.code());
        assertEquals(0, r.samples().length);
    }

    @Test
    void batchCpuTimeGivesAPositiveTotalAndIsEncodedInTheHeader() {
        MeasuredChildTest.requireSeccomp("allow");
        ChildSpec spec = ChildSpec.of(Call.GETPID, 1_000, 100_000)
                .withMode(ChildSpec.Mode.BATCH_CPUTIME)
                .withPrograms(twoInsns());
        assertEquals(
                1, ByteBuffer.wrap(spec.encode()).order(ByteOrder.LITTLE_ENDIAN).getInt(204));
        assertEquals(
                1, ByteBuffer.wrap(spec.encode()).order(ByteOrder.LITTLE_ENDIAN).getInt(24), "mode BATCH");
        assertEquals(
                0,
                ByteBuffer.wrap(spec.withMode(ChildSpec.Mode.BATCH).encode())
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getInt(204));
        ChildResult r = MeasuredChild.run(spec);
        assertTrue(r.completed(), r.fate().describe());
        assertEquals(0, r.samples().length);
        assertTrue(r.batchTotalNs() > 0, "CPU time around 100,000 getpid calls");
        // A process's CPU time cannot exceed the wall time around the same loop by much; both are ns.
        assertTrue(r.batchTotalNs() < 10_000_000_000L);
    }

    @Test
    void attachingCallsNeedAProgramAndNoListener() {
        assertThrows(
                BadInput.class,
                () -> new ChildSpec(
                        -1,
                        List.of(),
                        Call.ATTACH,
                        0,
                        1,
                        ChildSpec.Mode.PER_CALL,
                        false,
                        ChildSpec.ListenerTransfer.SCM_RIGHTS,
                        0,
                        0));
        assertThrows(
                BadInput.class,
                () -> ChildSpec.attaching(Call.FORK_ATTACH, twoInsns(), 0, 1)
                        .withNewListener(ChildSpec.ListenerTransfer.PIDFD_GETFD));
        // FORK attaches nothing: no program needed.
        ChildSpec.of(Call.FORK, 0, 1);
    }
}
