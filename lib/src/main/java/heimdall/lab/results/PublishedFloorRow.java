package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The published floor-cost row a measured row is compared with (the seeds' table, as
 * {@code summary.json}'s {@code published} object): its row number, figures in nanoseconds, and the
 * host and date it was measured on.
 */
public record PublishedFloorRow(
        @JsonProperty(value = "row", required = true) long row,
        @JsonProperty("insns") Long insns,
        @JsonProperty("cache") Boolean cache,
        @JsonProperty("median_none_ns") Long medianNoneNs,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("p99_ns") Long p99Ns,
        @JsonProperty("host") String host,
        @JsonProperty("date") String date) {}
