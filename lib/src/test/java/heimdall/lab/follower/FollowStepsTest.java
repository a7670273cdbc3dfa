package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.StringArray;
import heimdall.lab.Refusal;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The follower's step variants (issue 32's split by step) on the real kernel: each loads and follows a measured
 * child, the kernel runs it on every call of the child, and only the variants that reach the counters count the
 * calls (the per-CPU count summed by the loader: exactly the child's calls stepped). The loader refuses a step
 * short of the whole one to a follower armed at exec, and any step it does not know. That the whole step still
 * kills a deviating process is {@link KernelFollowerTest}'s and {@link MultithreadedFollowerTest}'s.
 */
class FollowStepsTest {
    private static final long WARMUP = FollowerCost.Options.MIN_WARMUP;
    private static final long COUNT = 5_000;

    @Test
    void everyStepLoadsFollowsTheChildAndOnlyTheCountingOnesCount() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<Integer> before = Loaded.ours();
        FollowerCost.Options o = new FollowerCost.Options(1, WARMUP, COUNT, Cpus.measuring());
        ChildSpec spec = ChildSpec.of(Call.GETPPID, WARMUP, COUNT).withCpu(Cpus.measuring());
        int loaded = 0;
        for (Hook hook : Hook.values()) {
            for (FollowStep step : FollowStep.values()) {
                FollowerRuns.WithRun w;
                try {
                    w = FollowerRuns.withFollower(hook, true, spec, o, step, true);
                } catch (Refusal r) {
                    // Only design (b) may be refused (a kernel that refuses BPF trampolines), every step alike.
                    assertEquals(Hook.SECCOMP_FENTRY, hook, step + ": " + r.getMessage());
                    assertTrue(r.getMessage().contains("not attachable"), r.getMessage());
                    continue;
                }
                loaded++;
                assertEquals(COUNT, w.samples().length, hook + " " + step);
                if (hook == Hook.SYSCALL_TRACEPOINT) {
                    // every call of the child ran the variant (its timed ones at least; other tasks' too)
                    assertTrue(w.program().runCount() >= COUNT, hook + " " + step + ": " + w.program());
                }
                if (step.compareTo(FollowStep.COUNTERS) >= 0) {
                    // followed from before half its warm-up: every timed call and the rest counted, per CPU
                    assertTrue(w.stepped() >= COUNT + WARMUP / 2, hook + " " + step + ": " + w.stepped());
                    assertTrue(w.stepped() <= w.program().runCount(), hook + " " + step + ": " + w);
                } else {
                    assertEquals(0, w.stepped(), hook + " " + step + " stops before the counters");
                }
            }
        }
        assertTrue(loaded >= FollowStep.values().length, "design (a)'s hook loads every step");
        assertEquals(List.of(), Loaded.newSince(before), "no variant stays loaded");
    }

    @Test
    void theLoaderRefusesAShortStepToAFollowerArmedAtExecAndAnUnknownStep() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        FollowerNative.load();
        KernelTables t = KernelTables.allowingEverything();
        List<String> said = new ArrayList<>();
        // the target a regression would follow: a bystander held at its exec gate, never this JVM
        int[] gate = new int[1];
        int idle = FollowerNative.hf_spawn("/bin/true", new StringArray(new String[] {"/bin/true"}), 0, gate);
        assertTrue(idle > 0, "cannot fork the bystander: " + idle);
        try {
            refuse(t, idle, said);
        } finally {
            FollowerNative.hf_close_gate(gate[0]);
            FollowerNative.hf_kill(idle);
            FollowerNative.hf_wait(idle, -1, new int[1]);
        }
        assertEquals(5, said.size());
        for (String s : said) {
            assertTrue(s.contains("judges nothing, so only a cost measurement (armed at once) may load one"), s);
        }
    }

    private static void refuse(KernelTables t, int target, List<String> said) {
        for (int[] armAndStep : new int[][] {
            {0, FollowStep.CHECK.code()}, {0, FollowStep.CURSOR.code()}, {0, FollowStep.COUNTERS.code()}, {1, 0}, {1, 5}
        }) {
            byte[] err = new byte[4096];
            long h = FollowerNative.hf_open(
                    target,
                    armAndStep[0],
                    Hook.SYSCALL_TRACEPOINT.code(),
                    armAndStep[1],
                    t.cells(),
                    t.cells().length,
                    t.columns(),
                    t.mainStart(),
                    t.threadStart(),
                    t.signalStarts(),
                    t.childStarts(),
                    err,
                    err.length);
            if (h > 0) {
                FollowerNative.hf_close(h);
            }
            assertEquals(-22, h, "EINVAL for arm " + armAndStep[0] + ", step " + armAndStep[1]);
            said.add(Follower.cString(err));
        }
    }
}
