package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.sys.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** environment.json written from records: the keys every folder so far has, in their order. */
class EnvironmentWriterTest {
    /**
     * The host's keys in every environment.json written so far (HostFacts), in their order: a golden copy on
     * purpose, since a list derived from HostFacts would follow a key renamed there instead of catching it.
     */
    static final List<String> HOST_KEYS = List.of(
            "hostname",
            "cpu_model",
            "online_cpus",
            "allowed_cpus",
            "kernel_release",
            "clocksource",
            "load_average",
            "nice",
            "container",
            "container_hints",
            "bpf_jit",
            "seccomp_actions_avail",
            "process_seccomp",
            "container_detail",
            "cpu_policy",
            "cpu_mitigations");

    @JsonPropertyOrder({"cpu", "zeta", "alpha"})
    record Settings(
            @JsonProperty("cpu") int cpu,
            @JsonProperty("zeta") String zeta,
            @JsonProperty("alpha") String alpha) {}

    record Clash(@JsonProperty("hostname") String hostname) {}

    @Test
    void threeKeysTimesHostThenSettingsInTheirOrder(@TempDir Path tmp) throws Exception {
        Host host = Host.capture();
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("out"));
        Instant started = Instant.parse("2026-01-02T03:04:05Z");
        Path file = folder.writeEnvironment(
                "x", Optional.empty(), started, started.plusSeconds(1), host, new Settings(3, "z", "a"));
        JsonNode env = new ObjectMapper().readTree(Files.readString(file));
        List<String> keys = new ArrayList<>();
        env.fieldNames().forEachRemaining(keys::add);
        List<String> want =
                new ArrayList<>(List.of("reproduction", "interrupted", "interruption", "started", "finished"));
        want.addAll(HOST_KEYS);
        want.addAll(List.of("cpu", "zeta", "alpha"));
        assertEquals(want, keys);
        assertEquals("2026-01-02T03:04:05Z", env.get("started").asText());
        assertFalse(env.get("interrupted").asBoolean());
        assertTrue(env.get("interruption").isNull());
        List<String> load = new ArrayList<>();
        env.get("load_average").fieldNames().forEachRemaining(load::add);
        assertEquals(List.of("one", "five", "fifteen", "runnable", "tasks"), load);
        List<String> jit = new ArrayList<>();
        env.get("bpf_jit").fieldNames().forEachRemaining(jit::add);
        assertEquals(List.of("net.core.bpf_jit_enable", "net.core.bpf_jit_harden", "net.core.bpf_jit_kallsyms"), jit);
    }

    @Test
    void aSettingRepeatingAHostKeyIsRefused(@TempDir Path tmp) {
        ResultsFolder folder = ResultsFolder.chosen(tmp.resolve("out"));
        Instant now = Instant.now();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> folder.writeEnvironment("x", Optional.empty(), now, now, Host.capture(), new Clash("h")));
        assertTrue(e.getMessage().contains("hostname"), e.getMessage());
        assertFalse(Files.exists(tmp.resolve("out/environment.json")));
    }
}
