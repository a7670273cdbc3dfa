package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.Errno;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Several compiled programs installed together in the kernel, against {@link Stack#evaluate} of the
 * same stack (under the {@link SafetyGuard}, which is one more program in it): the floors of
 * {@link Floors} (a broker filter under the static floor; three answers in one program), and a
 * container profile under a broker-like filter that also answers ERRNO, where the kernel must keep the
 * most restrictive answer and, between ERRNOs, the newest filter's errno. No listener is taken, so a
 * notifying answer is the kernel's ENOSYS.
 */
class KernelStackedTest {
    @BeforeAll
    static void kernel() {
        NeedsKernelSeccomp.assume();
    }

    private static Profile fixture(String name) {
        return ProfileJson.load(
                        KernelDifferentialTest.home().resolve("fixtures/profiles/" + name + "/x86_64-glibc.json"))
                .profile();
    }

    private static Differential run(String what, List<Program> programs, List<Profile> rules) {
        long t0 = System.nanoTime();
        Differential d = new Differential(what, programs);
        KernelDifferentialTest.checkAll(d, rules);
        KernelDifferentialTest.report(d, t0);
        return d;
    }

    @Test
    void brokerFilterUnderTheStaticFloor() {
        for (String name : List.of("abcdf", "heimdall-wasm-host")) {
            Profile p = fixture(name);
            Set<String> brokered = Set.of("openat", "mprotect");
            Floor f = Floors.stacked(name, p, brokered);
            assertEquals(2, f.programs().size());
            Differential d = run("stacked " + name, f.programs(), List.of(p, Floors.brokerFilter(brokered)));
            // where the floor allows openat or mprotect, the broker filter's NOTIFY without a listener: ENOSYS
            assertTrue(d.seen.contains(KernelOutcome.errno(Errno.ENOSYS)), d.seen.toString());
            assertTrue(d.seen.contains(KernelOutcome.killed(heimdall.lab.sys.Signals.SIGSYS)), d.seen.toString());
        }
    }

    @Test
    void threeAnswersInOneProgram() {
        Profile p = fixture("heimdall-wasm-host");
        Floor f = Floors.threeAnswers("wasm three answers", p, Set.of("openat", "prctl"));
        Differential d = run(
                "three answers heimdall-wasm-host",
                f.programs(),
                List.of(Floors.withBrokered(p, Set.of("openat", "prctl"))));
        assertTrue(d.seen.contains(KernelOutcome.errno(Errno.ENOSYS)), d.seen.toString());
    }

    /**
     * Podman's profile first, then a filter that notifies for openat and answers EACCES for calls
     * Podman allows (getppid, personality, reboot) and for calls Podman refuses with EPERM or ENOSYS
     * (mount, kexec_load): on those the newest filter's errno must win over Podman's and the guard's.
     */
    @Test
    void containerProfileUnderABrokerLikeFilterThatAlsoAnswersErrno() {
        Path podman = KernelDifferentialTest.PODMAN;
        Requires.file(podman, "Debian package golang-github-containers-common");
        Profile container = ProfileJson.load(podman).profile();
        Profile broker = Profile.builder(Action.ALLOW)
                .rule(Action.NOTIFY, "openat")
                .rule(Action.errno(13), "getppid", "personality", "reboot", "mount", "kexec_load")
                .build();
        List<Program> stack = List.of(Compiler.compile(container), Compiler.compile(broker));
        Differential d = run("podman under a broker filter", stack, List.of(container, broker));
        assertTrue(d.seen.contains(KernelOutcome.errno(13)), d.seen.toString());
        assertTrue(d.seen.contains(KernelOutcome.errno(Errno.ENOSYS)), d.seen.toString());
        // the tie rule was exercised: a call where both programs answer ERRNO with different errnos
        SeccompData kexec = SeccompData.x86_64(246); // kexec_load: Podman answers EPERM
        assertEquals(Action.Kind.ERRNO.base, Emulator.run(stack.get(0), kexec).actionOnly());
        assertEquals(Action.errno(13).ret(), Stack.evaluate(stack, kexec).action());
    }
}
