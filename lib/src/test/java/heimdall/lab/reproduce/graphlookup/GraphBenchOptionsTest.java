package heimdall.lab.reproduce.graphlookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.testing.LabRun;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * graph-lookup and lanes take options like every kind (issue 30): an option given wins over the seed's variable,
 * which wins over the defaults; bad values are refused naming the option they came from (or the variable).
 */
class GraphBenchOptionsTest {
    @Test
    void anOptionWinsOverItsVariableWhichWinsOverTheDefault() {
        Map<String, String> env = Map.of("GRAPH_BENCH_CALLS", "5000", "GRAPH_BENCH_SAMPLES", "4");
        GraphBenchSettings s = GraphBenchSettings.of(env, Map.of("--calls", "7000", "--coalesce", "1"), true);
        assertEquals(7000, s.calls());
        assertEquals(4, s.samples(), "the variable, no option given");
        assertEquals(5000, s.workloadIters(), "the quick default");
        assertTrue(s.coalesce());
        GraphBenchSettings threads = GraphBenchSettings.of(Map.of(), Map.of("--threads", "2,3"), false);
        assertEquals(List.of(2, 3), threads.workloadThreads());
        assertEquals(50_000, threads.workloadIters(), "the full default");
        assertFalse(threads.cpuFromEnv());
    }

    @Test
    void aBadValueIsRefusedNamingTheOptionItCameFrom() {
        BadInput calls = assertThrows(
                BadInput.class,
                () -> GraphBenchSettings.of(Map.of("GRAPH_BENCH_CALLS", "9"), Map.of("--calls", "many"), true));
        assertTrue(calls.getMessage().contains("--calls='many': not a whole number"), calls.getMessage());
        BadInput threads =
                assertThrows(BadInput.class, () -> GraphBenchSettings.of(Map.of(), Map.of("--threads", "1,,4"), true));
        assertTrue(threads.getMessage().startsWith("--threads='1,,4': comma-separated"), threads.getMessage());
        BadInput variable = assertThrows(
                BadInput.class, () -> GraphBenchSettings.of(Map.of("GRAPH_BENCH_SAMPLES", "0"), Map.of(), true));
        assertTrue(variable.getMessage().contains("GRAPH_BENCH_SAMPLES=0: out of range"), variable.getMessage());
    }

    @Test
    void theCommandLineRefusesABadOptionWithStatusTwoNamingIt() throws Exception {
        LabRun lookup = LabRun.of("reproduce", "graph-lookup", "--quick", "--calls", "0");
        assertEquals(2, lookup.status(), lookup.err());
        assertTrue(lookup.err().contains("--calls=0: out of range"), lookup.err());
        LabRun lanes = LabRun.of("reproduce", "lanes", "--quick", "--workload-cpus", "4095");
        assertEquals(2, lanes.status(), lanes.err());
        assertTrue(lanes.err().contains("--workload-cpus='4095': must be CPUs"), lanes.err());
        assertFalse(lanes.err().contains("Exception"), lanes.err());
    }
}
