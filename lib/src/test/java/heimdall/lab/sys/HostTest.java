package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(HostFacts.of(h)));
        for (String key : new String[] {
            "cpu_model",
            "online_cpus",
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
            "cpu_mitigations"
        }) {
            assertTrue(json.has(key), key);
        }
        assertEquals(h.clocksource(), json.get("clocksource").asText());
        // every added object says what it could not read; a null inside is explained there, except
        // for the fields documented as null when read and not set
        java.util.Set<String> mayBeUnset =
                java.util.Set.of("pid1_container", "self_cgroup_v2_path", "cmdline_mitigations", "cmdline_pti");
        for (String key : new String[] {"process_seccomp", "container_detail", "cpu_policy", "cpu_mitigations"}) {
            JsonNode o = json.get(key);
            assertTrue(o.get("unread").isObject(), key);
            o.fields()
                    .forEachRemaining(f -> assertTrue(
                            !f.getValue().isNull()
                                    || o.get("unread").has(f.getKey())
                                    || mayBeUnset.contains(f.getKey())
                                    || f.getKey().equals("seccomp_mode")
                                            && o.get("unread").has("seccomp"),
                            key + "." + f.getKey() + " is null without a reason"));
        }
        assertEquals(
                h.selfSeccomp().seccomp(),
                json.get("process_seccomp").get("seccomp").asInt());
    }

    /** Governors and SMT as the kernel shows them here, or null with the missing file named. */
    @Test
    void cpuPolicyMatchesSysfs() throws Exception {
        CpuPolicy c = CpuPolicy.capture();
        Path cpu = Path.of("/sys/devices/system/cpu");
        Path control = cpu.resolve("smt/control");
        if (Files.isReadable(control)) {
            assertEquals(Files.readString(control).trim(), c.smtControl());
        } else {
            assertEquals(null, c.smtControl());
            assertTrue(
                    c.unread().get("smt_control").startsWith(control.toString()),
                    c.unread().toString());
        }
        List<Integer> online =
                Cpus.parseList(Files.readString(cpu.resolve("online")).trim());
        int withGovernor = 0;
        for (int n : online) {
            Path g = cpu.resolve("cpu" + n + "/cpufreq/scaling_governor");
            if (Files.isReadable(g)) {
                withGovernor++;
                assertTrue(
                        c.governors().get(Files.readString(g).trim()).contains(n),
                        c.governors().toString());
            }
        }
        assertEquals(withGovernor == 0, c.governors() == null);
        assertEquals(
                withGovernor < online.size(),
                c.unread().containsKey("scaling_governors"),
                c.unread().toString());
    }

    @Test
    void theSamplerKeepsEverySample() {
        Host.LoadSampler s = new Host.LoadSampler();
        s.sample();
        s.sample();
        assertEquals(2, s.samples().size());
        assertEquals(2, s.summary().samplesOne().size());
    }
}
