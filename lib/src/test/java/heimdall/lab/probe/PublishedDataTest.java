package heimdall.lab.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** results/published/: the seeds' figures as data, checked for shape and internal consistency. */
class PublishedDataTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode read(String name) throws Exception {
        return JSON.readTree(
                NeedsPtrace.home().resolve("results/published").resolve(name).toFile());
    }

    @Test
    void floorCostHasAllFifteenRowsConsistentWithTheirPrintedCells() throws Exception {
        JsonNode d = read("floor-cost.json");
        assertEquals("2026-11-08", d.get("date").asText());
        assertEquals("oden", d.get("host").get("name").asText());
        assertEquals("7.0.0-42-generic", d.get("host").get("kernel").asText());
        JsonNode rows = d.get("rows");
        assertEquals(15, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            assertEquals(i + 1, r.get("row").asInt());
            assertEquals(
                    r.get("cache").asBoolean(),
                    r.get("printed").get("cache").asText().equals("yes"));
            assertEquals(
                    r.get("insns").asInt(), r.get("printed").get("BPF insns").asInt());
            assertEquals(
                    r.get("median_ns").asLong() - r.get("median_none_ns").asLong(),
                    r.get("added_from_medians_ns").asLong());
            long gap = Math.abs(
                    r.get("added_ns").asLong() - r.get("added_from_medians_ns").asLong());
            assertTrue(i < 9 ? gap == 0 : gap <= 50, "printed added agrees with the medians, row " + (i + 1));
            // bare allows are cached, argument rules are not: the seed's main claim
            if ("bare allow".equals(r.path("rule").asText())) {
                assertTrue(r.get("cache").asBoolean());
            }
        }
        assertEquals(4500, rows.get(9).get("added_ns").asLong());
        assertEquals("+4.5 µs", rows.get(9).get("printed").get("added").asText());
        assertEquals(1_000_000, rows.get(9).get("p99_ns").asLong());
        assertEquals(1833, rows.get(2).get("median_none_ns").asLong());
    }

    @Test
    void graphLookupAndKernelBitmapCarryTheSeedsFigures() throws Exception {
        JsonNode g = read("graph-lookup.json").get("broker_graph");
        assertEquals(101, g.get("sites").asInt());
        assertEquals(544, g.get("states").asInt());
        assertEquals(13304, g.get("transitions").asInt());
        assertEquals(178, g.get("minimized_states").asInt());
        assertEquals(9.51, g.get("import_and_construction_ms").asDouble());
        assertTrue(g.get("legacy_construction").get("hash_speedup").isNull());
        assertEquals(
                3.190,
                g.get("dfa_offsets_ns_per_event").get("before_minimization").asDouble());
        JsonNode k = read("kernel-bitmap.json");
        assertEquals(5, k.get("rows").size());
        assertEquals(638, k.get("rows").get(0).get("ns").asInt());
        assertEquals(26, k.get("estimates_ns").get("entry").asInt());
    }
}
