package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The checked-in fixture profiles: what gen makes of the checked-in observations, and allowing what
 * the floor-cost rows and the measured runner need.
 */
class FixtureProfilesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"abcdf", "heimdall-wasm-host"})
    void checkedInProfileIsWhatGenMakesOfTheCheckedInObservations(String name) throws Exception {
        Path dir = FixtureProfiles.folder(NeedsPtrace.home(), name);
        Path obs = dir.resolve("observations.json");
        Observations o = ObservationsJson.read(obs);
        assertTrue(o.runs() >= 3, "probed 3 times");
        assertTrue(o.statuses().stream().allMatch(s -> s == 0), "every probe run exited 0");
        assertEquals(Files.readString(dir.resolve("x86_64-glibc.json")), ProfileGen.generate(o, obs.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abcdf", "heimdall-wasm-host"})
    void profilesAllowWhatTheMeasuredRunnerNeeds(String name) throws Exception {
        JsonNode p = profile(name);
        assertEquals("SCMP_ACT_KILL_PROCESS", p.get("defaultAction").asText());
        for (String call : List.of("exit_group", "close", "execve")) {
            assertTrue(bare(p, call), name + " allows " + call);
        }
        assertTrue(ruled(p, "mprotect", 2, 1), "mprotect(PROT_READ)");
        assertTrue(ruled(p, "openat", 2, 0x80000), "openat(O_RDONLY|O_CLOEXEC)");
        assertFalse(bare(p, "getpgrp") || ruled(p, "getpgrp", 0, 0), "abcdf --unobserved's extra call is not allowed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"abcdf"})
    void abcdfAllowsItsMarkersBare(String name) throws Exception {
        JsonNode p = profile(name);
        for (String call : List.of("getppid", "getuid", "getgid", "geteuid", "getegid")) {
            assertTrue(bare(p, call), call);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"heimdall-wasm-host"})
    void wasmHostAllowsItsMeasuredCalls(String name) throws Exception {
        JsonNode p = profile(name);
        assertTrue(bare(p, "gettid"));
        assertTrue(bare(p, "sched_yield"));
        assertTrue(ruled(p, "prctl", 0, 15), "prctl(PR_SET_NAME)");
        assertFalse(bare(p, "prctl"), "prctl is argument-ruled, never bare");
        assertFalse(bare(p, "mprotect"));
    }

    private static JsonNode profile(String name) throws Exception {
        return JSON.readTree(FixtureProfiles.folder(NeedsPtrace.home(), name)
                .resolve("x86_64-glibc.json")
                .toFile());
    }

    private static boolean bare(JsonNode p, String call) {
        for (JsonNode e : p.get("syscalls")) {
            if (e.get("args") == null && contains(e.get("names"), call)) {
                return e.get("action").asText().equals("SCMP_ACT_ALLOW");
            }
        }
        return false;
    }

    private static boolean ruled(JsonNode p, String call, int index, long value) {
        for (JsonNode e : p.get("syscalls")) {
            JsonNode args = e.get("args");
            if (args != null
                    && contains(e.get("names"), call)
                    && args.size() == 1
                    && args.get(0).get("index").asInt() == index
                    && args.get(0).get("value").asLong() == value
                    && args.get(0).get("op").asText().equals("SCMP_CMP_EQ")) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode names, String call) {
        for (JsonNode n : names) {
            if (n.asText().equals(call)) {
                return true;
            }
        }
        return false;
    }
}
