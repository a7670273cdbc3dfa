package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.HostFacts;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** environment.json as written now reads back through Results and shows in Tables.environment, nulls included. */
class EnvironmentJsonTest {
    @Test
    void theHostRecordRoundTripsAndFlattens(@TempDir Path dir) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> host =
                json.convertValue(HostFacts.of(Host.capture()), new TypeReference<Map<String, Object>>() {});
        json.writeValue(
                dir.resolve("summary.json").toFile(),
                Map.of(
                        "reproduction",
                        "floor-cost",
                        "schema_version",
                        2,
                        "interrupted",
                        false,
                        "rows",
                        List.of(Map.of(
                                "what",
                                "getpid native",
                                "call",
                                "getpid",
                                "floor",
                                "native",
                                "status",
                                "ok",
                                "median_ns",
                                100))));
        json.writeValue(dir.resolve("environment.json").toFile(), host);

        Results r = Results.load(dir);
        // typed, with the meaning the host record gave each field
        Map<?, ?> seccomp = (Map<?, ?>) host.get("process_seccomp");
        assertEquals(host.get("kernel_release"), r.env().kernelRelease());
        assertEquals(host.get("container_hints"), r.env().containerHints());
        assertEquals(
                String.valueOf(seccomp.get("seccomp")),
                r.env().processSeccomp().path("seccomp").asText());
        assertEquals(
                String.valueOf(seccomp.get("seccomp_filters")),
                r.env().processSeccomp().path("seccomp_filters").asText());

        Table t = Tables.environment(r);
        Map<String, String> shown = new HashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            shown.put(t.stringColumn("field").get(i), t.stringColumn("value").get(i));
        }
        assertEquals(String.valueOf(seccomp.get("seccomp_filters")), shown.get("process_seccomp.seccomp_filters"));
        assertEquals(
                String.valueOf(((Map<?, ?>) host.get("cpu_policy")).get("smt_control")),
                shown.get("cpu_policy.smt_control"),
                "a null field is shown as null, not dropped");
        assertTrue(
                shown.keySet().stream().anyMatch(k -> k.startsWith("cpu_policy.scaling_governors")),
                shown.keySet().toString());
        assertTrue(
                shown.containsKey("cpu_mitigations.cmdline_params"),
                shown.keySet().toString());
    }
}
