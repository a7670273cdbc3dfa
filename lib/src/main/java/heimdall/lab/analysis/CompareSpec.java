package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.results.ReproductionKind;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@link Compare} lines up the rows of one reproduction: the fields that name a row (its
 * identity, the same on every host), the figure compared and the published figure beside it.
 *
 * <p>Only kinds that declare an identity are compared; others are refused rather than lined up by a
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
    /** Every kind with a {@link ReproductionKind#identity() row identity}, by name (the registry says which). */
    static final Map<String, CompareSpec> SUPPORTED = supported();

    private static Map<String, CompareSpec> supported() {
        Map<String, CompareSpec> m = new LinkedHashMap<>();
        for (ReproductionKind<?, ?> k : ReproductionKind.all()) {
            k.identity()
                    .ifPresent(id -> m.put(
                            k.name(),
                            new CompareSpec(k.name(), id.keys(), id.median(), id.added(), id.published(), id.unit())));
        }
        return Collections.unmodifiableMap(m);
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
