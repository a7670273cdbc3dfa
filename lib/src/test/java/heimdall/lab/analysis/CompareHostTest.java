package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.results.EnvironmentInfo;
import org.junit.jupiter.api.Test;

/** Compare's host columns from the typed environment.json: what it records, and nothing guessed where it does not. */
class CompareHostTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static EnvironmentInfo env(String json) throws Exception {
        return JSON.readValue(json, EnvironmentInfo.class);
    }

    @Test
    void aFolderWithoutEnvironmentJsonHasBlankHostFacts() {
        CompareHost h = CompareHost.of(null);
        assertEquals(new CompareHost(null, null, null, null, null, null, null, null, null, null, false), h);
        assertEquals("?", h.describe());
        assertEquals("", h.containerText());
    }

    @Test
    void everyRecordedFactIsReadFromItsNestedDescription() throws Exception {
        CompareHost h = CompareHost.of(env("""
                {"hostname": "box", "kernel_release": "6.18.0", "cpu_model": "EPYC", "clocksource": "tsc",
                 "cpu_mitigations": {"vulnerabilities": {"meltdown": "Mitigation: PTI"}, "cmdline_pti": "on"},
                 "process_seccomp": {"seccomp": 2, "seccomp_filters": 3},
                 "container": true, "container_hints": ["/.dockerenv", "/run/.containerenv"],
                 "container_detail": {"pid1_container": "podman"}}"""));
        assertEquals(
                new CompareHost(
                        "box",
                        "6.18.0",
                        "EPYC",
                        "tsc",
                        "on, pti=on",
                        3,
                        true,
                        "/.dockerenv; /run/.containerenv",
                        "podman",
                        null,
                        false),
                h);
        assertEquals("box, 6.18.0, container=podman, 3 filters", h.describe());
    }

    @Test
    void olderFoldersLackingTheNestedKeysGetNullsNotGuesses() throws Exception {
        CompareHost h = CompareHost.of(env("""
                {"hostname": "old", "kernel_release": "6.1.0",
                 "cpu_mitigations": {"vulnerabilities": {"meltdown": "Not affected"}},
                 "process_seccomp": {"seccomp": 0},
                 "container_detail": {"pid1_container": null}}"""));
        assertEquals("off (not affected)", h.pti());
        assertNull(h.seccompFilters());
        assertNull(h.pid1Container());
        assertNull(h.container());
        assertNull(h.containerSigns());
        assertNull(CompareHost.pti(JSON.readTree("\"not an object\"")));
    }
}
