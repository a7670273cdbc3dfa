package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Our layout against libseccomp's binary tree on Podman's profile. */
class LibseccompComparisonTest {
    static final Path PODMAN = Path.of("/usr/share/containers/seccomp.json");

    @Test
    void podmanProfileOursRunsNoMoreInstructionsThanLibseccompsBinaryTree() throws Exception {
        // the installed files only: if python3 then cannot import seccomp or our bridge breaks, this fails
        Requires.that(
                KernelFacts.file(PODMAN, "Debian package golang-github-containers-common"),
                KernelFacts.executable(Path.of(LibseccompBaseline.PYTHON), "Debian package python3"),
                KernelFacts.pythonModule("seccomp", "Debian package python3-seccomp"));
        SyscallTable t = SyscallTable.x86_64();
        Profile profile = ProfileJson.load(PODMAN).profile();
        Program ours = Compiler.compile(profile);
        LibseccompBaseline.Result theirs = LibseccompBaseline.compile(profile, t);
        assertEquals(0, theirs.refused().size(), theirs.refused().toString());

        // Same rules, same answers: libseccomp's program decides every call as ours does.
        long[][] vectors = {{}, {16, 3, 9}, {16, 3, 0}, {2, 1, 9}, {8}, {0x20008}, {0xffffffffL}, {-1L}};
        for (int nr : t.numbers()) {
            for (long[] v : vectors) {
                SeccompData d = SeccompData.x86_64(nr, v);
                assertEquals(
                        Action.describe(Emulator.run(theirs.program(), d).action()),
                        Action.describe(Emulator.run(ours, d).action()),
                        t.name(nr).orElseThrow() + " " + d);
            }
        }

        ProgramStats a = ProgramStats.of(ours, t);
        ProgramStats b = ProgramStats.of(theirs.program(), t);
        System.err.println("podman: heimdall " + a);
        System.err.println("podman: libseccomp " + b);
        assertEquals(b.allowed().count(), a.allowed().count());
        assertTrue(a.allowed().median() <= b.allowed().median(), a + " vs " + b);
        assertTrue(a.allowed().max() <= b.allowed().max(), a + " vs " + b);
        assertEquals(b.cacheable(), a.cacheable(), "both keep every bare allow cacheable");
    }
}
