package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Path;
import java.util.List;

/**
 * The published attach-cost table ({@code results/published/attach-cost.json}: seed 004's figures),
 * typed: each row's attach time with and without fork and the emulator. The file's prose (source,
 * statements, notes) is not read here.
 *
 * @param sourceShort the seed's source, in a few words
 * @param date when the seed measured
 * @param calls attaches a figure is the mean of
 * @param rows the published rows, in the seed's order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PublishedAttachCost(
        @JsonProperty("source_short") String sourceShort,
        @JsonProperty("date") String date,
        @JsonProperty("calls") Long calls,
        @JsonProperty(value = "rows", required = true) List<Row> rows) {

    /**
     * One published figure.
     *
     * @param what the seed's name for it
     * @param fork whether each attach ran in a fresh fork
     * @param emulator whether the seed's emulator was on
     * @param ns mean nanoseconds per attach
     * @param elapsedNs the seed's printed total over {@code calls} attaches
     * @param printed the seed's own line
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Row(
            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("fork") Boolean fork,
            @JsonProperty("emulator") Boolean emulator,
            @JsonProperty(value = "ns", required = true) long ns,
            @JsonProperty("elapsed_ns") Long elapsedNs,
            @JsonProperty("printed") String printed) {}

    /**
     * The project's copy, {@code results/published/attach-cost.json}; bad input naming the file and field when it does
     * not fit.
     */
    public static PublishedAttachCost read() {
        return read(Fixtures.resultsRoot().resolve("published/attach-cost.json"));
    }

    /** Reads {@code file}. */
    public static PublishedAttachCost read(Path file) {
        return SummaryJson.published(file, PublishedAttachCost.class);
    }
}
