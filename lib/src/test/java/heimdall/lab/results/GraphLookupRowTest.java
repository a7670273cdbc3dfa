package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * graph-lookup's row built from parts keeps the flat keys every folder has, in order, with the
 * median's interval after them; its status is a {@link RowStatus}, an unknown one bad input.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GraphLookupRowTest {
    /** The 33 flat keys of a graph-lookup row, in the order graph-lookup writes them. */
    static final List<String> GRAPH_LOOKUP_KEYS = List.of(
            "graph",
            "trace",
            "layout",
            "sites",
            "states",
            "transitions",
            "events",
            "prep_ms",
            "import_ms",
            "payload_bytes",
            "pinned",
            "nodes_sha256",
            "edges_sha256",
            "auto",
            "batches_asked",
            "batches_completed",
            "interrupted",
            "status",
            "reason",
            "ns_per_event_median",
            "ns_per_event_min",
            "ns_per_event_max",
            "spread",
            "noisy",
            "speedup_vs_hash",
            "speedup_vs_hash_fastutil",
            "rejections",
            "samples",
            "rejections_agree",
            "published_ns_per_event",
            "published_sites",
            "published_states",
            "same_graph_as_published");

    @Test
    void theRowHasItsFlatKeysThenTheIntervals() {
        List<String> keys = new ArrayList<>(GRAPH_LOOKUP_KEYS);
        keys.addAll(SummaryGoldenTest.INTERVAL_KEYS);
        assertEquals(keys, FlatRows.keys(GraphLookupRow.class, ""));
    }

    private static GraphLookupRow measured(RowIntervals intervals) {
        return new GraphLookupRow(
                "synthetic-64",
                "hot",
                "dfa-words",
                new GraphLookupRow.Size(70L, 64L, 4000L, 3000L),
                new GraphLookupRow.Preparation(0.5, null, 2048L),
                null,
                true,
                new GraphLookupRow.Batches(3L, 3L, false),
                RowStatus.MEASURED,
                null,
                new GraphLookupRow.Figures(2.25, 2.1, 2.8, 0.311, true),
                new GraphLookupRow.Speedups(3.0, 2.5),
                30L,
                3L,
                null,
                null,
                intervals);
    }

    /** A measured row writes its interval after every other key and reads back equal; a refused row has none. */
    @Test
    void aMeasuredRowWritesItsIntervalLastAndReadsItBack() {
        RowIntervals ci = new RowIntervals(new RowIntervals.Ci(2L, 3L, 0.95, 0.75, 3L), null, null);
        GraphLookupRow row = measured(ci);
        JsonNode tree = SummaryJson.tree(row);
        List<String> written = new ArrayList<>();
        tree.fieldNames().forEachRemaining(written::add);
        assertEquals(
                List.of(
                        "median_ci_low_ns",
                        "median_ci_high_ns",
                        "median_ci_level",
                        "median_ci_coverage",
                        "median_ci_runs"),
                written.subList(written.size() - 5, written.size()));
        assertEquals("measured", tree.get("status").asText());
        assertTrue(tree.get("digests") == null
                && tree.has("pinned")
                && tree.get("pinned").isNull());
        assertEquals(row, SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, GraphLookupRow.class));

        GraphLookupRow refused = new GraphLookupRow(
                "x",
                "walk main",
                "dfa-words",
                null,
                null,
                null,
                false,
                null,
                RowStatus.REFUSED,
                "too big",
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        JsonNode r = SummaryJson.tree(refused);
        assertTrue(r.has("ns_per_event_median") && r.get("ns_per_event_median").isNull(), r.toString());
        assertTrue(!r.has("samples") && !r.has("median_ci_low_ns"), r.toString());
        assertEquals("refused", refused.status());
        GraphLookupRow back = SummaryJson.row(Path.of("summary.json"), "rows[0]", r, GraphLookupRow.class);
        assertNull(back.intervals());
        assertEquals(GraphLookupRow.Figures.NONE, back.figures());
    }

    @Test
    void anUnknownStatusIsBadInputNamingTheField() {
        ObjectNode tree = SummaryJson.tree(measured(null));
        tree.put("status", "exploded");
        BadInput e = assertThrows(
                BadInput.class, () -> SummaryJson.row(Path.of("summary.json"), "rows[4]", tree, GraphLookupRow.class));
        assertTrue(e.getMessage().contains("rows[4].status"), e.getMessage());
    }
}
