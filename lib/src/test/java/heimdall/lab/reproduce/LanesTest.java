package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LanesTest {
    @TempDir
    Path tmp;

    @Test
    void everyVariantDoesTheSameVerifiedWork() throws Exception {
        GraphBenchSettings s = GraphBenchSettings.of(
                Map.of("GRAPH_WORKLOAD_ITERS", "300", "GRAPH_WORKLOAD_THREADS", "1,3", "GRAPH_BENCH_SAMPLES", "1"),
                true);
        Path out = tmp.resolve("lanes");
        Lanes.Result r = Lanes.run(s, ResultsFolder.chosen(out), line -> {});
        assertEquals(List.of(), r.failures());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) new ObjectMapper()
                .readValue(out.resolve("summary.json").toFile(), Map.class)
                .get("rows");
        assertEquals(2 * (1 + Layout.values().length), rows.size(), "unchecked and every layout, for 1 and 3 workers");
        for (Map<String, Object> row : rows) {
            assertEquals(Boolean.TRUE, row.get("verified"), row.toString());
            assertEquals(300, row.get("reads_per_worker"));
            assertTrue(row.containsKey("noisy") && row.containsKey("wall_ms_median"));
        }
        assertEquals(
                rows.size() * 2,
                BatchSamples.read(out.resolve("samples.arrow"), "wall_ms").size(),
                "warm-up kept as sample 0");
        assertTrue(Files.readString(out.resolve("table.md")).contains("| 3 + 1 | dfa-offsets |"));
    }

    @Test
    void exactCountsAndChecksumsAreChecked() throws Exception {
        Path file = LaneWorkload.prepareFile(tmp);
        PreparedGraph pg = PreparedGraph.prepare(LaneWorkload.graph(), PreparedGraph.Options.defaults());
        int iters = 200;
        long[] sums = {LaneWorkload.expectedChecksum(0, iters), LaneWorkload.expectedChecksum(1, iters)};
        LaneWorkload.Batch b = LaneWorkload.runBatch(file, 2, iters, pg.layout(Layout.DFA_OFFSETS));
        assertNull(LaneWorkload.verify(b, 2, iters, true, sums));
        LaneWorkload.Counts w = b.workers().get(1);
        assertEquals(iters, w.reads());
        assertEquals((long) iters * LaneWorkload.BLOCK, w.writtenBytes());
        assertEquals(2L * iters, w.checks());
        assertEquals(iters, b.collector().rusages(), "every getrusage succeeded");
        // the check notices a wrong checksum, a missing write and an unchecked batch claimed as checked
        LaneWorkload.Batch wrong = new LaneWorkload.Batch(
                b.nanos(),
                List.of(
                        b.workers().get(0),
                        new LaneWorkload.Counts(
                                w.reads(),
                                w.readBytes(),
                                w.writes(),
                                w.writtenBytes(),
                                0,
                                0,
                                w.checks(),
                                0,
                                w.checksum() + 1)),
                b.collector());
        assertNotNull(LaneWorkload.verify(wrong, 2, iters, true, sums));
        LaneWorkload.Batch short1 = new LaneWorkload.Batch(
                b.nanos(),
                List.of(
                        b.workers().get(0),
                        new LaneWorkload.Counts(
                                w.reads(),
                                w.readBytes(),
                                w.writes() - 1,
                                w.writtenBytes(),
                                0,
                                0,
                                w.checks(),
                                0,
                                w.checksum())),
                b.collector());
        assertNotNull(LaneWorkload.verify(short1, 2, iters, true, sums));
        LaneWorkload.Batch unchecked = LaneWorkload.runBatch(
                file, 2, iters, null, List.of(heimdall.lab.sys.Cpus.allowed().get(0)));
        assertNull(LaneWorkload.verify(unchecked, 2, iters, false, sums));
        assertNotNull(LaneWorkload.verify(unchecked, 2, iters, true, sums));
    }
}
