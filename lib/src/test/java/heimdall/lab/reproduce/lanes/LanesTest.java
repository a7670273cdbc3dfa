package heimdall.lab.reproduce.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.BatchSamples;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.graph.prepared.Layout;
import heimdall.lab.graph.prepared.PreparedGraph;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.results.FigureCi;
import heimdall.lab.results.LanesRow;
import heimdall.lab.results.LanesRow.Variant;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.SummaryJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyMeasuredRowHasAnIntervalOfItsMedianAndOfItsRatioInSummaryJson() throws Exception {
        GraphBenchSettings s = GraphBenchSettings.of(
                Map.of("GRAPH_WORKLOAD_ITERS", "200", "GRAPH_WORKLOAD_THREADS", "1", "GRAPH_BENCH_SAMPLES", "3"), true);
        Path out = tmp.resolve("lanes-ci");
        Lanes.Result r = Lanes.run(s, ResultsFolder.chosen(out), line -> {});
        assertEquals(List.of(), r.failures());
        JsonNode rows = new ObjectMapper()
                .readTree(out.resolve("summary.json").toFile())
                .get("rows");
        assertEquals(1 + Layout.values().length, rows.size());
        for (JsonNode row : rows) {
            double median = row.get("wall_ms_median").asDouble();
            assertTrue(
                    row.get("wall_ms_ci_low").asDouble() <= median
                            && median <= row.get("wall_ms_ci_high").asDouble(),
                    row.toString());
            // 3 batches: the fastest to the slowest, the very figures the row writes
            assertEquals(
                    row.get("wall_ms_min").asDouble(), row.get("wall_ms_ci_low").asDouble(), row.toString());
            assertEquals(
                    row.get("wall_ms_max").asDouble(),
                    row.get("wall_ms_ci_high").asDouble(),
                    row.toString());
            assertEquals(0.75, row.get("wall_ms_ci_coverage").asDouble(), "1 - 2 / 2^3: " + row);
            assertEquals(3, row.get("wall_ms_ci_runs").asInt());
            List<String> keys = new ArrayList<>();
            row.fieldNames().forEachRemaining(keys::add);
            assertEquals("interrupted", keys.get(keys.indexOf("wall_ms_ci_low") - 1), "appended after the old keys");
            if (row.get("variant").asText().equals("unchecked")) {
                assertFalse(row.has("vs_unchecked_ci_low"), "no ratio of unchecked to itself");
                continue;
            }
            double ratio = row.get("vs_unchecked").asDouble();
            assertTrue(
                    row.get("vs_unchecked_ci_low").asDouble() <= ratio
                            && ratio <= row.get("vs_unchecked_ci_high").asDouble(),
                    row.toString());
            assertEquals(0.9, row.get("vs_unchecked_ci_coverage").asDouble(), "3 against 3 batches: 1 - 2 / 20");
        }
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.contains("| median [95% CI] |") && table.contains("| vs unchecked [95% CI] |"), table);
        assertTrue(table.contains("(75% over 3 batches)") && table.contains("Hodges–Lehmann"), table);
    }

    @Test
    void aVariantTwiceAsSlowHasARatioIntervalAroundTwoAndNotOne() throws Exception {
        GraphBenchSettings s = GraphBenchSettings.of(Map.of("GRAPH_BENCH_SAMPLES", "7"), true);
        double[] unchecked = {10, 14, 11, 16, 12, 13, 15};
        double[] twice = new double[7];
        for (int i = 0; i < 7; i++) {
            twice[i] = 2 * unchecked[(i + 3) % 7];
        }
        List<LanesRow> rows = Lanes.rows(
                4,
                List.of(Variant.UNCHECKED, Variant.DFA_OFFSETS),
                new double[][] {unchecked, twice},
                new String[2],
                s);
        Path out = tmp.resolve("synthetic");
        ResultsFolder folder = ResultsFolder.chosen(out);
        folder.writeSummary(ReproductionKind.of(LanesRow.class), Optional.empty(), rows);
        folder.publish();
        LanesRow back = SummaryJson.read(out).rows(LanesRow.class).get(1);
        assertEquals(2.0, back.vsUnchecked());
        FigureCi ratio = back.intervals().vsUnchecked();
        assertTrue(ratio.contains(2.0) && !ratio.contains(1.0), ratio.toString());
        assertTrue(ratio.reached(), "7 against 7 batches reach 95%: " + ratio);
        FigureCi wall = back.intervals().wallMs();
        assertEquals(20.0, wall.low());
        assertEquals(32.0, wall.high());
        assertEquals(0.9844, wall.coverage(), "1 - 2 / 2^7");
        assertTrue(wall.contains(back.wallMsMedian()));
        assertNull(rows.get(0).intervals().vsUnchecked(), "unchecked has no ratio interval");
    }

    @Test
    void aBatchWrittenAsZeroMillisecondsLeavesTheRatioWithoutAnIntervalRatherThanFailing() {
        LanesRow.Intervals ci = Lanes.intervals(new double[] {0, 0.001, 0.002}, 0.001, new double[] {1, 2, 3}, 2);
        assertNull(ci.vsUnchecked(), "no ratio of a zero");
        assertEquals(0.0, ci.wallMs().low());
        assertEquals(0.002, ci.wallMs().high());
    }

    @Test
    void aMedianThatRoundsUpToTheMinimumKeepsTheIntervalAtTheRowsOwnMinimum() {
        GraphBenchSettings s = GraphBenchSettings.of(Map.of("GRAPH_BENCH_SAMPLES", "3"), true);
        // written 0.432, 0.432, 0.458: the median before rounding (0.4318) lies below the written minimum
        double[] batches = {0.4318, 0.458, 0.4316};
        LanesRow row = Lanes.rows(1, List.of(Variant.UNCHECKED), new double[][] {batches}, new String[1], s)
                .get(0);
        assertEquals(0.432, row.wall().minMs());
        assertEquals(0.432, row.intervals().wallMs().low(), "not stretched to 0.431");
        assertEquals(0.458, row.intervals().wallMs().high());
        assertTrue(row.intervals().wallMs().contains(row.wallMsMedian()));
    }

    @Test
    void everyLayoutIsAVariantOfTheSameName() {
        for (Layout l : Layout.values()) {
            assertEquals(l.wire(), Variant.of(l.wire()).label());
            assertTrue(Variant.of(l.wire()).checked());
        }
        assertEquals(Layout.values().length + 1, Variant.values().length, "unchecked and one per layout");
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
