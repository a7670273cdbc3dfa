package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.fixtures.Fixtures;
import java.nio.file.Path;

/**
 * The published graph-lookup figures ({@code results/published/graph-lookup.json}: seed 002's broker
 * graph), typed; the file's prose is not read here.
 *
 * @param brokerGraph the seed's broker graph and its dfa-offsets figures
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PublishedGraphLookup(
        @JsonProperty(value = "broker_graph", required = true)
        BrokerGraph brokerGraph) {

    /**
     * The seed's broker graph.
     *
     * @param sites call sites
     * @param states DFA states before minimization
     * @param transitions DFA transitions
     * @param minimizedStates states after minimization
     * @param importAndConstructionMs import and construction, in ms
     * @param dfaOffsetsNsPerEvent dfa-offsets ns/event before and after minimization
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record BrokerGraph(
            @JsonProperty(value = "sites", required = true) long sites,
            @JsonProperty(value = "states", required = true) long states,
            @JsonProperty("transitions") Long transitions,

            @JsonProperty(value = "minimized_states", required = true)
            long minimizedStates,

            @JsonProperty("import_and_construction_ms") Double importAndConstructionMs,

            @JsonProperty(value = "dfa_offsets_ns_per_event", required = true)
            Offsets dfaOffsetsNsPerEvent) {}

    /**
     * dfa-offsets ns/event.
     *
     * @param beforeMinimization on the graph as constructed
     * @param afterMinimization on the minimized graph
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Offsets(
            @JsonProperty(value = "before_minimization", required = true)
            double beforeMinimization,

            @JsonProperty(value = "after_minimization", required = true)
            double afterMinimization) {}

    /**
     * The project's copy, {@code results/published/graph-lookup.json}; bad input naming the file and field when it does
     * not fit.
     */
    public static PublishedGraphLookup read() {
        Path file = Fixtures.resultsRoot().resolve("published/graph-lookup.json");
        return SummaryJson.published(file, PublishedGraphLookup.class);
    }
}
