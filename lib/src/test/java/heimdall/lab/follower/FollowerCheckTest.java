package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ./lab graph follow-check} on both hooks: every decision check agrees with the Java reference
 * where the kernel attaches the hook (design (a) here; design (b) in a guest kernel that allows BPF
 * trampolines, where this test runs the (b) variants of the abcdf and follower-mt checks), and a kernel
 * that refuses the hook gives a refusal naming it, with nothing of ours left loaded.
 */
@Timeout(600)
class FollowerCheckTest {
    static final int CHECKS = 7;

    @BeforeEach
    void kernel() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        Requires.ptrace();
    }

    @Test
    void theTracepointHooksDecisionsAgreeWithTheReference() {
        List<FollowerCheck.Check> seen = new ArrayList<>();
        List<FollowerCheck.Check> all = FollowerCheck.run(Hook.SYSCALL_TRACEPOINT, seen::add);
        all.forEach(c -> System.err.println("follow-check (a): " + c));
        assertEquals(all, seen, "each check reported as it ended");
        assertEquals(CHECKS, all.size(), all.toString());
        assertTrue(all.stream().allMatch(FollowerCheck.Check::ok), all.toString());
    }

    @Test
    void theSeccompHooksDecisionsAgreeWithTheReferenceOrItIsRefused() {
        List<Integer> before = Loaded.ours();
        boolean loads = HookProbe.probe(HookProbe.Point.FENTRY_SECURE_COMPUTING).usable();
        try {
            List<FollowerCheck.Check> all = FollowerCheck.run(Hook.SECCOMP_FENTRY, c -> {});
            all.forEach(c -> System.err.println("follow-check (b): " + c));
            assertTrue(loads, "the checks ran although the probe found the hook unusable");
            assertEquals(CHECKS, all.size(), all.toString());
            assertTrue(all.stream().allMatch(FollowerCheck.Check::ok), all.toString());
        } catch (Refusal r) {
            assertTrue(!loads, "refused although the probe found the hook usable: " + r.getMessage());
            assertTrue(
                    r.getMessage().startsWith("hook fentry/__secure_computing not attachable: load refused: "),
                    r.getMessage());
        }
        assertEquals(List.of(), Loaded.newSince(before), "no program of ours stays loaded");
    }

    @Test
    void theCommandExitsNonZeroOnARefusedHookAndZeroWhenEveryCheckAgrees() {
        boolean loads = HookProbe.probe(HookProbe.Point.FENTRY_SECURE_COMPUTING).usable();
        FollowCommandTest.Ran ran = FollowCommandTest.lab("graph", "follow-check", "--hook", "seccomp-fentry");
        assertEquals(loads ? 0 : 1, ran.status(), ran.out() + ran.err());
        assertTrue(
                (ran.out() + ran.err())
                        .contains(loads ? "checks agree on fentry/__secure_computing" : "not attachable"),
                ran.out() + ran.err());
        FollowCommandTest.Ran bad = FollowCommandTest.lab("graph", "follow-check", "--hook", "kprobe");
        assertEquals(2, bad.status(), bad.out() + bad.err());
        assertTrue(bad.err().contains("option --hook: 'kprobe'"), bad.err());
    }

    /** A check that throws is a FAIL naming why, never a pass; a refused hook ends the checks. */
    @Test
    void aFailingCheckIsADisagreementAndARefusalEndsTheChecks() {
        List<FollowerCheck.Check> out = new ArrayList<>();
        List<FollowerCheck.Check> seen = new ArrayList<>();
        FollowerCheck.check(out, seen::add, "agrees", () -> "seen");
        FollowerCheck.check(out, seen::add, "disagrees", () -> {
            throw new FollowerCheck.Disagreement("the state: expected 23, got 4");
        });
        FollowerCheck.check(out, seen::add, "breaks", () -> {
            throw new IllegalStateException("ring buffer poll failed");
        });
        assertEquals(
                List.of(
                        new FollowerCheck.Check("agrees", true, "seen"),
                        new FollowerCheck.Check("disagrees", false, "the state: expected 23, got 4"),
                        new FollowerCheck.Check("breaks", false, "IllegalStateException: ring buffer poll failed")),
                out);
        assertEquals(out, seen);
        assertTrue(
                out.get(1).toString().startsWith("FAIL  disagrees: "),
                out.get(1).toString());
        assertThrows(
                Refusal.class,
                () -> FollowerCheck.check(out, seen::add, "refused", () -> {
                    throw new Refusal("hook not attachable");
                }));
        assertEquals(3, out.size(), "a refusal is no check's result");
    }
}
