package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Design (b)'s evidence: which attach points this kernel lets the follower use, each probed with a
 * trivial program. The facts are printed (they are the kernel's, and differ between kernels); what
 * is asserted is that the tool's answer agrees with them: the seccomp hook is used when it attaches
 * and refused, exit 1, naming each point's failing step and errno when it does not, with nothing
 * left loaded either way.
 */
class HookProbeTest {
    @Test
    void theProbeRecordsEachPointAndTheToolAgreesWithIt() {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<Integer> before = Loaded.ours();
        List<HookProbe.Result> all = HookProbe.probeAll();
        all.forEach(r -> System.err.println("hook probe: " + r));
        assertEquals(HookProbe.Point.values().length, all.size());
        // Design (a) runs on this hook: the follower's own tests need it, so it must load and attach.
        assertTrue(result(all, HookProbe.Point.TP_BTF_SYS_ENTER).usable(), all.toString());
        for (HookProbe.Result r : all) {
            if (r.loadErrno() != 0) {
                assertEquals(-1, r.attachErrno(), "no attach is tried after a refused load: " + r);
            }
            assertTrue(
                    r.outcome()
                            .startsWith(
                                    r.usable() ? "loads" : r.loadErrno() != 0 ? "load refused: " : "loaded, attach"),
                    r.toString());
        }

        HookProbe.Result secc = result(all, HookProbe.Point.FENTRY_SECURE_COMPUTING);
        FollowCommandTest.Ran ran = FollowCommandTest.lab(FollowCommandTest.follow(
                        "--hook",
                        "seccomp-fentry",
                        "--floor",
                        "--",
                        heimdall.lab.probe.NativeExecutables.abcdf().toString(),
                        "3")
                .toArray(String[]::new));
        if (secc.usable()) {
            assertEquals(0, ran.status(), ran.out() + ran.err());
        } else {
            assertEquals(1, ran.status(), "a refusal: " + ran.out() + ran.err());
            String msg = ran.out() + ran.err();
            for (HookProbe.Result r : all) {
                assertTrue(msg.contains(r.toString()), "the refusal names " + r + ":\n" + msg);
            }
            assertTrue(msg.contains("not attachable"), msg);
        }
        assertEquals(List.of(), Loaded.newSince(before), "no probe or follower program of ours stays loaded");
    }

    private static HookProbe.Result result(List<HookProbe.Result> all, HookProbe.Point p) {
        return all.stream().filter(r -> r.point() == p).findFirst().orElseThrow();
    }
}
