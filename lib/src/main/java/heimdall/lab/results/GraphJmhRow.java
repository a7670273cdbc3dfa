package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The row of {@code ./lab graph jmh}'s {@code summary.json}: JMH's figure for one graph, trace and
 * layout beside the replay harness's.
 */
public record GraphJmhRow(
        @JsonProperty(value = "graph", required = true) String graph,
        @JsonProperty(value = "trace", required = true) String trace,
        @JsonProperty(value = "layout", required = true) String layout,
        @JsonProperty("events") Long events,
        @JsonProperty("harness_ns_per_event") Double harnessNsPerEvent,
        @JsonProperty("harness_run_medians_ns_per_event") List<Double> harnessRunMediansNsPerEvent,
        @JsonProperty("jmh_median_ns_per_event") Double jmhMedianNsPerEvent,
        @JsonProperty("jmh_mean_ns_per_event") Double jmhMeanNsPerEvent,
        @JsonProperty("jmh_error_ns_per_event") Double jmhErrorNsPerEvent,
        @JsonProperty("jmh_over_harness") Double jmhOverHarness,
        @JsonProperty("agrees_within_15_percent") Boolean agreesWithin15Percent)
        implements ResultRow {

    @Override
    public List<String> labelParts() {
        return List.of(graph + " / " + trace + " / " + layout);
    }
}
