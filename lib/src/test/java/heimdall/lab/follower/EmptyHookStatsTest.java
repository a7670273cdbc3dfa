package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Refusal;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floors;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The empty program's statistics as the kernel counts them ({@code hf_hook_stats}), read on the real kernel:
 * what follower-cost sets the follower program's count against. No figure is judged (timing is the
 * reproduction's); what is asserted is that the kernel counted the runs of the program we attached.
 */
class EmptyHookStatsTest {
    private static final long WARMUP = 1_000;
    private static final long COUNT = 5_000;

    @Test
    void theKernelCountsEveryCallOfAFlooredChildOnTheEmptyProgram() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<Integer> before = Loaded.ours();
        // Under a floor, so that design (b)'s hook (__secure_computing) is reached too where it attaches.
        ChildSpec spec = ChildSpec.of(Call.GETPPID, WARMUP, COUNT)
                .withCpu(Cpus.measuring())
                .withPrograms(Floors.staticFloor("static floor, abcdf", Fixtures.profile("abcdf"))
                        .bytes());
        int counted = 0;
        try (Follower.RunTimeStats on = Follower.RunTimeStats.enable()) {
            for (Hook hook : Hook.values()) {
                EmptyHook closed;
                try (EmptyHook h = EmptyHook.attach(hook)) {
                    Follower.ProgramStats start = h.programStats();
                    MeasuredChild.run(spec).requireCompleted();
                    Follower.ProgramStats end = h.programStats();
                    // Every call the child made ran the program (on the tracepoint, other tasks' calls too).
                    assertTrue(
                            end.runCount() - start.runCount() >= WARMUP + COUNT, hook + ": " + start + " then " + end);
                    assertTrue(end.runTimeNs() > start.runTimeNs(), hook + ": " + start + " then " + end);
                    assertTrue(end.nsPerRun() != null && end.nsPerRun() > 0, hook + ": " + end);
                    closed = h;
                    counted++;
                } catch (Refusal r) {
                    // Only design (b) may be refused (a kernel that refuses BPF trampolines), naming the program.
                    assertEquals(Hook.SECCOMP_FENTRY, hook, r.getMessage());
                    assertTrue(r.getMessage().contains("empty program (fentry/__secure_computing)"), r.getMessage());
                    continue;
                }
                // A closed program's statistics are not read through a stale handle.
                IllegalStateException e = assertThrows(IllegalStateException.class, closed::programStats);
                assertTrue(e.getMessage().contains("closed"), e.getMessage());
            }
        }
        assertTrue(counted >= 1, "design (a)'s hook attaches wherever the follower runs");
        assertEquals(List.of(), Loaded.newSince(before), "no empty program of ours stays loaded");
    }
}
