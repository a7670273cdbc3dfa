package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The published floor-cost table ({@code results/published/floor-cost.json}: seed 000's figures),
 * typed: each row's call, answer and figures, and the host and date they were measured on. The
 * file's prose (source, method, statements, printed cells) is not read here.
 *
 * @param date when the seed measured
 * @param host the seed's host (its name)
 * @param rows the published rows, in the seed's order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PublishedFloorCost(
        @JsonProperty(value = "date", required = true) String date,
        @JsonProperty(value = "host", required = true) Host host,
        @JsonProperty(value = "rows", required = true) List<Row> rows) {

    /** The seed's host: only its name is read. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Host(
            @JsonProperty(value = "name", required = true) String name) {}

    /**
     * One published row.
     *
     * @param answer {@code CONTINUE} or {@code broker} for a brokered row, null for a plain one
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Row(
            @JsonProperty(value = "row", required = true) long row,
            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty(value = "call", required = true) String call,
            @JsonProperty("answer") String answer,
            @JsonProperty("insns") Long insns,
            @JsonProperty("cache") Boolean cache,
            @JsonProperty("median_none_ns") Long medianNoneNs,
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("added_ns") Long addedNs,
            @JsonProperty("p99_ns") Long p99Ns) {}

    /**
     * The published row with this label, call and answer ({@code answer} null for a plain row; the
     * answer's case is not significant), as a summary row's {@code published} object; empty when the
     * seed has none.
     */
    public Optional<PublishedFloorRow> twin(String what, String call, String answer) {
        for (Row r : rows) {
            boolean sameAnswer = answer == null
                    ? r.answer() == null
                    : r.answer() != null && r.answer().equalsIgnoreCase(answer);
            if (r.what().equals(what) && r.call().equals(call) && sameAnswer) {
                return Optional.of(new PublishedFloorRow(
                        r.row(),
                        r.insns(),
                        r.cache(),
                        r.medianNoneNs(),
                        r.medianNs(),
                        r.addedNs(),
                        r.p99Ns(),
                        host.name(),
                        date));
            }
        }
        return Optional.empty();
    }

    /**
     * The project's copy, {@code results/published/floor-cost.json}; bad input naming the file and field when it does
     * not fit.
     */
    public static PublishedFloorCost read() {
        return read(Fixtures.resultsRoot().resolve("published/floor-cost.json"));
    }

    /** Reads {@code file}. */
    public static PublishedFloorCost read(Path file) {
        return SummaryJson.published(file, PublishedFloorCost.class);
    }
}
