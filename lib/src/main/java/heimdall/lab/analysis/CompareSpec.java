package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@link Compare} lines up the rows of one reproduction: the fields that name a row (its
 * identity, the same on every host), the figure compared and the published figure beside it.
 *
 * <p>Only reproductions listed here are compared; others are refused rather than lined up by a
 * guessed key.
 *
 * @param reproduction the reproduction's name, as summary.json gives it
 * @param keys the row fields that together name a row (absent fields count as blank)
 * @param median the row's median field
 * @param added the row's added-cost field (for graph-lookup, ns per event: all of it is added)
 * @param published the published added cost: a field of the row, or {@code object.field} inside one
 * @param unit the unit of median and added, for column and axis titles
 */
record CompareSpec(String reproduction, List<String> keys, String median, String added, String published, String unit) {
    /** The floor rows' identity: floor, call, and for brokered rows supervisor, answer, placement, wake-up. */
    private static final List<String> FLOOR_KEYS = List.of("what", "call", "supervisor", "answer", "placement", "sync_wakeup", "reference");

    static final Map<String, CompareSpec> SUPPORTED = supported();

    private static Map<String, CompareSpec> supported() {
        Map<String, CompareSpec> m = new LinkedHashMap<>();
        m.put("floor-cost", new CompareSpec("floor-cost", FLOOR_KEYS, "median_ns", "added_ns", "published.added_ns", "ns"));
        m.put("host-load", new CompareSpec("host-load",
                java.util.stream.Stream.concat(java.util.stream.Stream.of("load"), FLOOR_KEYS.stream()).toList(),
                "median_ns", "added_ns", "published.added_ns", "ns"));
        m.put("graph-lookup", new CompareSpec("graph-lookup", List.of("graph", "trace", "layout"),
                "ns_per_event_median", "ns_per_event_median", "published_ns_per_event", "ns/event"));
        // kernel-matrix: a row is a kernel's section and row; its emulated kernels' rows compare by ratio only
        m.put("kernel-matrix", new CompareSpec("kernel-matrix", List.of("kernel", "section", "what"), "median_ns", "added_ns",
                "published", "ns"));
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The published figure of one row, or null when it has none. */
    JsonNode publishedOf(JsonNode row) {
        int dot = published.indexOf('.');
        if (dot < 0) {
            return row.get(published);
        }
        JsonNode object = row.get(published.substring(0, dot));
        return object != null && object.isObject() ? object.get(published.substring(dot + 1)) : null;
    }
}
