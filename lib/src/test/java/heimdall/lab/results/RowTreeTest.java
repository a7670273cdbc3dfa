package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A row written from its record has the fields its reproduction always wrote: nulls only where named. */
class RowTreeTest {
    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void aLanesRowNotMeasuredNamesItsFiguresAsNullAndLeavesTheRestOut() {
        LanesRow notMeasured = new LanesRow(
                new LanesRow.Subject(2L, 1L, LanesRow.Variant.UNCHECKED, 1000L),
                null,
                null,
                null,
                null,
                null,
                0L,
                RowStatus.NOT_MEASURED,
                new LanesRow.Batches(5L, 0L, true),
                null);
        JsonNode t = SummaryJson.tree(notMeasured);
        assertEquals(
                List.of(
                        "workers",
                        "collectors",
                        "variant",
                        "iterations",
                        "wall_ms_median",
                        "wall_ms_min",
                        "wall_ms_max",
                        "spread",
                        "noisy",
                        "vs_unchecked",
                        "verified",
                        "failure",
                        "samples",
                        "status",
                        "batches_asked",
                        "batches_completed",
                        "interrupted"),
                names(t));
        assertTrue(t.get("failure").isNull());
        assertEquals(
                notMeasured, SummaryJson.row(java.nio.file.Path.of("x"), "", t, LanesRow.class), "reads back the same");
    }

    @Test
    void aMeasuredLanesRowWritesItsIntervalsAfterEveryOtherKey() {
        LanesRow measured = new LanesRow(
                new LanesRow.Subject(4L, 1L, LanesRow.Variant.DFA_OFFSETS, 1000L),
                new LanesRow.Wall(10.5, 10.0, 12.0, 0.19, false),
                1.05,
                new LanesRow.Calls(1000L, 1000L, 4_096_000L, 1000L, 1000L, 10_000L),
                true,
                null,
                3L,
                RowStatus.MEASURED,
                new LanesRow.Batches(3L, 3L, false),
                new LanesRow.Intervals(
                        new FigureCi(10.0, 12.0, 0.95, 0.75, 3L), new FigureCi(0.98, 1.2, 0.95, 0.9, 3L)));
        JsonNode t = SummaryJson.tree(measured);
        List<String> keys = names(t);
        assertEquals(
                List.of(
                        "workers",
                        "collectors",
                        "variant",
                        "iterations",
                        "wall_ms_median",
                        "wall_ms_min",
                        "wall_ms_max",
                        "spread",
                        "noisy",
                        "vs_unchecked",
                        "reads_per_worker",
                        "writes_per_worker",
                        "bytes_per_worker",
                        "collector_getrusage",
                        "collector_sched_yield",
                        "checks_per_batch",
                        "verified",
                        "failure",
                        "samples",
                        "status",
                        "batches_asked",
                        "batches_completed",
                        "interrupted",
                        "wall_ms_ci_low",
                        "wall_ms_ci_high",
                        "wall_ms_ci_level",
                        "wall_ms_ci_coverage",
                        "wall_ms_ci_runs",
                        "vs_unchecked_ci_low",
                        "vs_unchecked_ci_high",
                        "vs_unchecked_ci_level",
                        "vs_unchecked_ci_coverage",
                        "vs_unchecked_ci_runs"),
                keys);
        assertEquals("dfa-offsets", t.get("variant").asText());
        assertEquals("measured", t.get("status").asText());
        assertTrue(t.get("wall_ms_ci_runs").isIntegralNumber()
                && t.get("wall_ms_ci_low").isDouble());
        assertEquals(measured, SummaryJson.row(java.nio.file.Path.of("x"), "", t, LanesRow.class));
    }

    @Test
    void aKernelBitmapRowKeepsItsSectionOnce() {
        KernelBitmapRow.Agreement a = SummaryJson.row(
                java.nio.file.Path.of("x"),
                "",
                SummaryJson.JSON
                        .createObjectNode()
                        .put("section", "agreement")
                        .put("what", "w")
                        .put("agree", true)
                        .set("compared", SummaryJson.JSON.createArrayNode().add("bare_per_call")),
                KernelBitmapRow.Agreement.class);
        JsonNode t = SummaryJson.tree(a);
        assertEquals(List.of("section", "what", "compared", "agree"), names(t));
    }

    @Test
    void aGraphRowWithItsPublishedFigureKeepsItsOwnFigures() {
        GraphLookupRow r = graphRow(GraphLookupRow.Published.NONE, null);
        GraphLookupRow p = graphRow(new GraphLookupRow.Published(3.19, 101L, 544L, false), false);
        assertEquals(91L, p.size().sites());
        assertEquals(96L, p.size().states());
        assertEquals(101L, p.published().sites());
        assertEquals(544L, p.published().states());
        assertEquals(2.0, p.speedups().vsHash());
        assertEquals(Boolean.FALSE, p.rejectionsAgree());
        assertEquals(3.0, p.figures().median());
        JsonNode t = SummaryJson.tree(r);
        assertTrue(
                t.has("published_sites") && t.get("published_sites").isNull(),
                "graph-lookup names the published figures, null or not");
        assertTrue(!t.has("reason") && !t.has("rejections_agree"));
        assertTrue(SummaryJson.tree(p).get("rejections_agree").isBoolean());
    }

    private static GraphLookupRow graphRow(GraphLookupRow.Published published, Boolean rejectionsAgree) {
        return new GraphLookupRow(
                "broker",
                "walk main",
                "dfa-offsets",
                new GraphLookupRow.Size(91L, 96L, 900L, 1000L),
                new GraphLookupRow.Preparation(1.5, null, 4096L),
                new GraphLookupRow.Digests(true, "a", "b"),
                false,
                new GraphLookupRow.Batches(5L, 5L, false),
                RowStatus.MEASURED,
                null,
                new GraphLookupRow.Figures(3.0, 2.9, 3.2, 0.1, false),
                new GraphLookupRow.Speedups(2.0, null),
                0L,
                5L,
                rejectionsAgree,
                published,
                null);
    }
}
