package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checked-in fixture profiles installed in the real kernel (through heimdall-exec): the fixtures
 * run to completion under their own profile, and abcdf's variant with one unobserved call is killed
 * with SIGSYS. The profiles are translated by {@link LinearFilterForTests} until the project's
 * compiler is merged; then this test should use it instead.
 */
class ProfilesInstalledTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void seccompAvailable() throws Exception {
        ExecWrapperTest.seccompAvailable(); // same requirement: seccomp filters in this kernel
    }

    private static Path filterOf(String fixture) throws Exception {
        JsonNode profile = JSON.readTree(FixtureProfiles.folder(NeedsPtrace.home(), fixture)
                .resolve("x86_64-glibc.json").toFile());
        Path f = dir.resolve(fixture + ".bpf");
        Files.write(f, LinearFilterForTests.compile(profile, SyscallNames.x86_64()), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return f;
    }

    @Test
    void abcdfRunsUnderItsProfileAndItsUnobservedVariantIsKilled() throws Exception {
        Path bpf = filterOf("abcdf");
        String abcdf = NativeExecutables.abcdf().toString();
        assertEquals(0, ExecWrapperTest.runFile(bpf, abcdf, "3").status());
        assertEquals(0, ExecWrapperTest.runFile(bpf, abcdf, "50", "/etc/hostname").status(), "other loop count, other file");
        ExecWrapperTest.Result killed = ExecWrapperTest.runFile(bpf, abcdf, "3", "--unobserved");
        assertEquals(128 + ExecWrapperTest.SIGSYS, killed.status(), killed.stderr());
    }

    @Test
    void wasmHostRunsUnderItsProfile() throws Exception {
        Path node = NeedsPtrace.node();
        Path bpf = filterOf("heimdall-wasm-host");
        ExecWrapperTest.Result r = ExecWrapperTest.runFile(bpf, node.toString(),
                NeedsPtrace.home().resolve(FixtureProfiles.WASM_HOST_SCRIPT).toString());
        assertEquals(0, r.status(), r.stderr());
    }
}
