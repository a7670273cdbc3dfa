package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HostTest {
    @Test
    void capturesTheHostAndSerialisesForEnvironmentJson() throws Exception {
        Host h = Host.capture();
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim(), h.kernelRelease());
        assertFalse(h.cpuModel().equals("absent"), "no model name in /proc/cpuinfo");
        assertTrue(h.onlineCpus() >= h.allowedCpus().size());
        assertEquals(Cpus.allowed(), h.allowedCpus());
        assertTrue(h.load().one() >= 0);
        assertEquals(3, h.bpfJit().size());
        assertEquals(Files.exists(Path.of("/.dockerenv")), h.containerHints().contains("/.dockerenv"));
        assertEquals(!h.containerHints().isEmpty(), h.container());

        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(h.toMap()));
        for (String key : new String[] {"cpu_model", "online_cpus", "kernel_release", "clocksource", "load_average",
                "nice", "container", "bpf_jit", "seccomp_actions_avail"}) {
            assertTrue(json.has(key), key);
        }
        assertEquals(h.clocksource(), json.get("clocksource").asText());
    }

    @Test
    void theSamplerKeepsEverySample() {
        Host.LoadSampler s = new Host.LoadSampler();
        s.sample();
        s.sample();
        assertEquals(2, s.samples().size());
        assertEquals(2, ((java.util.List<?>) s.toMap().get("samples_one")).size());
    }
}
