package heimdall.lab.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import heimdall.lab.BadInput;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.LabRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The profile mutants of issue 20's fuzzing, replayed: each is refused (never widened, never warned
 * past) with exit 2 and one message naming the file and the field in our words, through the loader
 * and through {@code ./lab bpf stats}; real profiles still load.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProfileBadInputTest {
    static final HostConditions HOST = new HostConditions("amd64", "6.18.0", HostConditions.CONTAINER_DEFAULT_CAPS);

    @TempDir
    Path dir;

    /** A profile that allows getpid under {@code extra} (the rule's other fields), ERRNO otherwise. */
    static String rule(String extra) {
        return "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [{\"names\": [\"getpid\"], "
                + "\"action\": \"SCMP_ACT_ALLOW\"" + extra + "}]}";
    }

    static final String ARG = "{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}";
    static final String OK = rule("");

    /** (what, profile text, the field named, the reason's words). */
    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(
                        "minKernel too long for a number",
                        rule(", \"includes\": {\"minKernel\": \"4.99999999999999999999\"}"),
                        "syscalls[0].includes.minKernel",
                        "expected a kernel version such as 4.8"),
                Arguments.of(
                        "minKernel too long, excludes",
                        rule(", \"excludes\": {\"minKernel\": \"4.99999999999999999999\"}"),
                        "syscalls[0].excludes.minKernel",
                        "expected a kernel version"),
                Arguments.of(
                        "minKernel not a version",
                        rule(", \"includes\": {\"minKernel\": \"new\"}"),
                        "syscalls[0].includes.minKernel",
                        "got \"new\""),
                Arguments.of(
                        "trailing content", OK + " \"x\"", "line 1", "more content after the end of the JSON value"),
                Arguments.of("trailing garbage", OK + " x", "line 1", "unrecognized word 'x'"),
                Arguments.of("two profiles back to back", OK + "\n" + OK, "line 2", "more content after the end"),
                Arguments.of(
                        "defaultAction twice",
                        "{\"defaultAction\": \"SCMP_ACT_KILL_PROCESS\", " + "\"defaultAction\": \"SCMP_ACT_ALLOW\"}",
                        "line 1",
                        "key \"defaultAction\" appears twice"),
                Arguments.of(
                        "a rule's key twice",
                        rule(", \"action\": \"SCMP_ACT_ALLOW\""),
                        "line 1",
                        "key \"action\" appears twice"),
                Arguments.of(
                        "ARGS for args",
                        rule(", \"ARGS\": [" + ARG + "]"),
                        "syscalls[0].ARGS",
                        "unknown field (did you mean args?)"),
                Arguments.of(
                        "' args' for args",
                        rule(", \" args\": [" + ARG + "]"),
                        "syscalls[0]. args",
                        "did you mean args?"),
                Arguments.of("unknown rule field", rule(", \"when\": \"never\""), "syscalls[0].when", "unknown field"),
                Arguments.of(
                        "unknown arg field",
                        rule(", \"args\": [{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\", "
                                + "\"valuetwo\": 2}]"),
                        "syscalls[0].args[0].valuetwo",
                        "did you mean valueTwo?"),
                Arguments.of(
                        "unknown condition field",
                        rule(", \"excludes\": {\"Arches\": [\"amd64\"]}"),
                        "syscalls[0].excludes.Arches",
                        "did you mean arches?"),
                Arguments.of(
                        "index -1",
                        rule(", \"args\": [{\"index\": -1, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]"),
                        "syscalls[0].args[0].index",
                        "must be 0..5 (seccomp_data has args[0..5]), got -1"),
                Arguments.of(
                        "index 6",
                        rule(", \"args\": [{\"index\": 6, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]"),
                        "syscalls[0].args[0].index",
                        "got 6"),
                Arguments.of(
                        "index 1.5",
                        rule(", \"args\": [{\"index\": 1.5, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]"),
                        "syscalls[0].args[0].index",
                        "expected a whole number 0..5, got 1.5"),
                Arguments.of(
                        "includes a string",
                        rule(", \"includes\": \"amd64\""),
                        "syscalls[0].includes",
                        "expected an object with arches, caps, minKernel, got \"amd64\""),
                Arguments.of("includes an array", rule(", \"includes\": []"), "syscalls[0].includes", "got an array"),
                Arguments.of("excludes a number", rule(", \"excludes\": 5"), "syscalls[0].excludes", "got 5"),
                Arguments.of(
                        "arches a string",
                        rule(", \"excludes\": {\"arches\": \"amd64\"}"),
                        "syscalls[0].excludes.arches",
                        "expected an array of strings"),
                Arguments.of(
                        "caps an object",
                        rule(", \"includes\": {\"caps\": {}}"),
                        "syscalls[0].includes.caps",
                        "expected an array of strings"),
                Arguments.of(
                        "a name with a trailing space",
                        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
                                + "[{\"names\": [\"ptrace \"], \"action\": \"SCMP_ACT_ERRNO\"}]}",
                        "syscalls[0].names[0]",
                        "not a syscall name"),
                Arguments.of("an empty name", rule(", \"name\": \"\""), "syscalls[0].name", "not a syscall name"),
                Arguments.of("comment a number", rule(", \"comment\": 7"), "syscalls[0].comment", "expected a string"),
                Arguments.of(
                        "errnoRet out of range",
                        "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 65536}",
                        "defaultErrnoRet",
                        "0..65535, got 65536"),
                Arguments.of(
                        "value over 64 bits",
                        rule(", \"args\": [{\"index\": 0, \"value\": 18446744073709551616, "
                                + "\"op\": \"SCMP_CMP_EQ\"}]"),
                        "syscalls[0].args[0].value",
                        "outside 0..2^64-1"),
                Arguments.of(
                        "NaN",
                        rule(", \"args\": [{\"index\": 0, \"value\": NaN, \"op\": \"SCMP_CMP_EQ\"}]"),
                        "line 1",
                        "NaN is not a JSON number"),
                Arguments.of(
                        "a number of 1,200 digits",
                        rule(", \"args\": [{\"index\": 0, \"value\": " + "9".repeat(1200)
                                + ", \"op\": \"SCMP_CMP_EQ\"}]"),
                        "not valid JSON",
                        "a number of 1200 digits, over the limit of 1000"),
                Arguments.of("nested 2,000 deep", "[".repeat(2000), "not valid JSON", "nested deeper than 1000 levels"),
                Arguments.of(
                        "ends early", "{\"defaultAction\": ", "line 1", "ends before every object and array is closed"),
                Arguments.of("a comment", "/* c */ " + OK, "line 1", "JSON has no comments"),
                Arguments.of(
                        "a plus sign",
                        "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": +1}",
                        "line 1",
                        "no plus sign"),
                Arguments.of("empty file", "", "empty", "no JSON value"),
                Arguments.of("not an object", "[]", "(root)", "expected a JSON object"),
                Arguments.of(
                        "sysCalls for syscalls",
                        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"sysCalls\": [{\"names\": "
                                + "[\"ptrace\"], \"action\": \"SCMP_ACT_ERRNO\"}]}",
                        "sysCalls",
                        "did you mean syscalls?"),
                Arguments.of(
                        "syscall for syscalls",
                        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscall\": []}",
                        "syscall",
                        "did you mean syscalls?"),
                Arguments.of(
                        "defaultaction beside defaultAction",
                        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", " + "\"defaultaction\": \"SCMP_ACT_KILL\"}",
                        "defaultaction",
                        "did you mean defaultAction?"),
                Arguments.of(
                        "architecures",
                        "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"architecures\": []}",
                        "architecures",
                        "did you mean architectures?"),
                Arguments.of(
                        "an escape sequence in a field's name",
                        rule(", \"\\u001b[2JARGS\": []"),
                        "syscalls[0].\\e[2JARGS",
                        "unknown field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void refusedByTheLoaderNamingTheField(String what, String json, String field, String reason) {
        BadInput e = assertThrows(
                BadInput.class,
                () -> ProfileJson.parse(json, "p.json", HOST, SyscallTable.x86_64()),
                what + " must be refused, never loaded");
        assertTrue(e.getMessage().startsWith("p.json: "), e.getMessage());
        assertTrue(e.getMessage().contains(field), "names " + field + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(reason), "says " + reason + ": " + e.getMessage());
        LabRun.assertClean(e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutants")
    void refusedByTheCommandLineWithStatus2(String what, String json, String field, String reason) throws Exception {
        Path f = dir.resolve("p.json");
        Files.writeString(f, json);
        LabRun.of("bpf", "stats", f.toString()).assertRefused(2, f.toString(), field, reason);
        Path out = dir.resolve("p.bpf");
        LabRun.of("bpf", "compile", f.toString(), "-o", out.toString()).assertRefused(2, f.toString(), reason);
        assertTrue(Files.notExists(out), "no program written for a refused profile");
    }

    @Test
    void aMisspelledArgsNeverWidensTheRuleToAnAllow() {
        // The rule allows getpid only when args[0] == 1; a misspelled "args" made it allow every getpid.
        String json = rule(", \"ARGS\": [" + ARG + "]");
        assertThrows(BadInput.class, () -> ProfileJson.parse(json, "p.json", HOST, SyscallTable.x86_64()));
        Profile right = ProfileJson.parse(rule(", \"args\": [" + ARG + "]"), "p.json", HOST, SyscallTable.x86_64())
                .profile();
        int getpid = SyscallTable.x86_64().number("getpid").orElseThrow();
        assertEquals(
                Action.ALLOW.ret(),
                right.evaluate(
                        SyscallTable.x86_64(), getpid, Profile.AUDIT_ARCH_X86_64, new long[] {1, 0, 0, 0, 0, 0}));
        assertTrue(
                right.evaluate(SyscallTable.x86_64(), getpid, Profile.AUDIT_ARCH_X86_64, new long[6])
                        != Action.ALLOW.ret(),
                "args[0] == 0 is not allowed");
    }

    @Test
    void aTopLevelFieldUnlikeAnyKnownIsWarnedAboutNotRefused() {
        ProfileJson.Loaded l = ProfileJson.parse(
                "{\"defaultAction\": \"SCMP_ACT_ERRNO\", "
                        + "\"x-vendor-note\": {\"a\": 1}, "
                        + "\"syscalls\": [{\"names\": [\"getpid\"], \"action\": \"SCMP_ACT_ALLOW\"}]}",
                "p.json",
                HOST,
                SyscallTable.x86_64());
        assertEquals(1, l.profile().syscalls().size());
        assertTrue(
                l.warnings().stream().anyMatch(w -> w.contains("x-vendor-note") && w.contains("ignored")),
                l.warnings().toString());
    }

    @Test
    void aGoodMinKernelStillDecides() {
        String json = rule(", \"includes\": {\"minKernel\": \"99.0\"}");
        assertEquals(
                List.of(),
                ProfileJson.parse(json, "p.json", HOST, SyscallTable.x86_64())
                        .profile()
                        .syscalls());
        assertEquals(
                1,
                ProfileJson.parse(
                                rule(", \"includes\": {\"minKernel\": \"5.10.1\"}"),
                                "p.json",
                                HOST,
                                SyscallTable.x86_64())
                        .profile()
                        .syscalls()
                        .size());
        // an unreadable kernel release of the host (not the profile's) is no reason to refuse the profile
        HostConditions odd = new HostConditions("amd64", "unknown", Set.of());
        assertEquals(
                1,
                ProfileJson.parse(json, "p.json", odd, SyscallTable.x86_64())
                        .profile()
                        .syscalls()
                        .size());
    }

    /** Observations, the input of {@code profile gen}, are read as strictly: a key twice is refused, not resolved. */
    @Test
    void observationsWithAKeyTwiceAreRefused() throws Exception {
        String good = Files.readString(Fixtures.home().resolve("fixtures/profiles/abcdf/observations.json"));
        Path f = dir.resolve("obs.json");
        Files.writeString(f, good.replaceFirst("\\{", "{\"format\": \"x\", "));
        Path out = dir.resolve("gen.json");
        LabRun.of("profile", "gen", f.toString(), "-o", out.toString())
                .assertRefused(2, f.toString(), "line", "key \"format\" appears twice");
        assertTrue(Files.notExists(out));
        Files.writeString(f, good + "]");
        LabRun.of("profile", "gen", f.toString(), "-o", out.toString())
                .assertRefused(2, f.toString(), "not valid JSON");
        Files.writeString(f, good);
        assertEquals(
                0,
                LabRun.of("profile", "gen", f.toString(), "-o", out.toString()).status());
    }

    /** The real profiles: the fixtures, and Podman's when containers-common is installed, load as before. */
    @Test
    void realProfilesStillLoad() throws Exception {
        try (Stream<Path> files = Files.walk(Fixtures.home().resolve("fixtures/profiles"))) {
            List<Path> profiles = files.filter(p -> p.getFileName().toString().startsWith("x86_64"))
                    .toList();
            assertTrue(profiles.size() >= 2, profiles.toString());
            for (Path p : profiles) {
                assertTrue(ProfileJson.load(p).profile().syscalls().size() > 5, p.toString());
            }
        }
        Path podman = Path.of("/usr/share/containers/seccomp.json");
        assumeTrue(Files.isRegularFile(podman), "containers-common is not installed");
        ProfileJson.Loaded l = ProfileJson.load(podman, HOST, SyscallTable.x86_64());
        assertTrue(l.profile().syscalls().size() > 10, l.profile().syscalls().size() + " rules");
        assertTrue(
                l.warnings().stream().noneMatch(w -> w.contains("unknown top-level")),
                l.warnings().toString());
    }
}
