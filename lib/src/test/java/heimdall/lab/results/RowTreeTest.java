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
                2L,
                1L,
                "unchecked",
                1000L,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                0L,
                "not measured",
                5L,
                0L,
                true);
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
