package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import heimdall.lab.bpf.Compiler;
import heimdall.lab.bpf.Emulator;
import heimdall.lab.bpf.KernelFate;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.profile.SyscallTable;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checked-in fixture profiles, compiled by the project's {@link Compiler} and installed in the real
 * kernel through heimdall-exec: the fixtures run to completion under their own profile, and abcdf's
 * variant with one unobserved call ({@code getpgrp}) is killed with SIGSYS.
 */
class ProfilesInstalledTest {
    private static final int GETPGRP = 111;

    @TempDir
    static Path dir;

    @BeforeAll
    static void seccompAvailable() throws Exception {
        ExecWrapperTest.seccompAvailable(); // same requirement: seccomp filters in this kernel
    }

    private static Program compiled(String fixture) {
        Path json = FixtureProfiles.folder(NeedsPtrace.home(), fixture).resolve("x86_64-glibc.json");
        Profile profile = ProfileJson.load(json).profile();
        return Compiler.compile(profile, SyscallTable.x86_64(), json.toString());
    }

    private static Path written(String fixture, Program p) throws Exception {
        Path f = dir.resolve(fixture + ".bpf");
        Files.write(f, p.toBytes());
        return f;
    }

    @Test
    void abcdfRunsUnderItsProfileAndItsUnobservedVariantIsKilled() throws Exception {
        Program p = compiled("abcdf");
        // The variant's extra call is one the profile answers with a kill (else the test proves nothing).
        assertEquals(
                KernelFate.Kind.KILLED_BY_SIGSYS,
                KernelFate.of(Emulator.run(p, SeccompData.x86_64(GETPGRP))).kind());
        Path bpf = written("abcdf", p);
        String abcdf = NativeExecutables.abcdf().toString();
        ExecWrapperTest.Result ok = ExecWrapperTest.runFile(bpf, abcdf, FixtureProfiles.ABCDF_LOOPS);
        assertEquals(0, ok.status(), ok.stderr());
        ExecWrapperTest.Result other = ExecWrapperTest.runFile(bpf, abcdf, "50", "/etc/hostname");
        assertEquals(0, other.status(), "other loop count, other file: " + other.stderr());
        ExecWrapperTest.Result killed =
                ExecWrapperTest.runFile(bpf, abcdf, FixtureProfiles.ABCDF_LOOPS, "--unobserved");
        assertEquals(128 + ExecWrapperTest.SIGSYS, killed.status(), killed.stderr());
        assertFalse(
                killed.stderr().contains("heimdall-exec:"),
                "the wrapper installed the program and exec'd: " + killed.stderr());
    }

    @Test
    void wasmHostRunsUnderItsProfile() throws Exception {
        Path node = NeedsPtrace.node();
        Path bpf = written("heimdall-wasm-host", compiled("heimdall-wasm-host"));
        ExecWrapperTest.Result r = ExecWrapperTest.runFile(
                bpf,
                node.toString(),
                NeedsPtrace.home().resolve(FixtureProfiles.WASM_HOST_SCRIPT).toString());
        assertEquals(0, r.status(), r.stderr());
    }
}
