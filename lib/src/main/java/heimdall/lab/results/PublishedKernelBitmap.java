package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The published kernel-bitmap output ({@code results/published/kernel-bitmap.json}: the kernel
 * selftest's printout of 2020), typed: each configuration's figure, the estimates and the
 * expectations' verdicts. The file's prose (source, command, printed lines) is not read here.
 *
 * @param rows the configurations, 0 to 4 filters, in that order
 * @param estimatesNs each estimate by the selftest's name ({@code entry}, {@code per_filter_last_2_diff}, ...)
 * @param expectations the checks, in the selftest's order
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PublishedKernelBitmap(
        @JsonProperty(value = "rows", required = true) List<Row> rows,
        @JsonProperty("estimates_ns") Map<String, Long> estimatesNs,
        @JsonProperty("expectations") List<Expectation> expectations) {

    /**
     * One published configuration.
     *
     * @param filters how many filters it installs
     * @param ns its printed figure, ns per call
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Row(
            @JsonProperty(value = "what", required = true) String what,

            @JsonProperty(value = "filters", required = true)
            long filters,

            @JsonProperty("ns") Long ns) {}

    /** One published check and whether it held. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Expectation(
            @JsonProperty(value = "check", required = true) String check,
            @JsonProperty("ok") Boolean ok) {}

    /** The published figure of the configuration with {@code filters} filters (its row), or null. */
    public Long ns(int filters) {
        return rows.get(filters).ns();
    }

    /** The published estimate named {@code name}, or null when the printout has none. */
    public Long estimate(String name) {
        return estimatesNs == null ? null : estimatesNs.get(name);
    }

    /** Whether the {@code i}-th published check held, or null when the printout has no such check. */
    public Boolean ok(int i) {
        return expectations == null || i >= expectations.size()
                ? null
                : expectations.get(i).ok();
    }

    /**
     * The project's copy, {@code results/published/kernel-bitmap.json}; bad input naming the file and field when it
     * does not fit.
     */
    public static PublishedKernelBitmap read() {
        return read(Fixtures.resultsRoot().resolve("published/kernel-bitmap.json"));
    }

    /** Reads {@code file}. */
    public static PublishedKernelBitmap read(Path file) {
        return SummaryJson.published(file, PublishedKernelBitmap.class);
    }
}
