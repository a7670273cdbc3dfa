package heimdall.lab.reproduce.explorecheck;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.sys.Host;

/**
 * explore check's own facts in {@code environment.json}, after the times and the host: with the rows and
 * the host, everything its {@code table.md} is made from. (Here, not beside {@code explore.ExploreCheck},
 * because its kind, {@link ExploreCheckKind}, makes the table and {@code explore} uses this package.)
 *
 * @param cpu the child's CPU
 * @param options what was run, as {@code ./lab explore check}'s options give it
 * @param loadSamples the host's load during the rounds
 * @param method how the rounds were run, in words
 * @param java the JVM that ran them
 */
@JsonPropertyOrder({"cpu", "options", "load_samples", "method", "java"})
public record ExploreCheckSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("options") Options options,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("method") String method,
        @JsonProperty("java") String java) {

    /**
     * The options: rounds, each a block of fluent runs and a block of floor-cost runs; fresh children a
     * block; untimed and timed calls a run; the child's CPU.
     */
    @JsonPropertyOrder({"rounds", "runs", "warmup", "calls", "cpu"})
    public record Options(
            @JsonProperty("rounds") int rounds,
            @JsonProperty("runs") int runs,
            @JsonProperty("warmup") long warmup,
            @JsonProperty("calls") long calls,
            @JsonProperty("cpu") int cpu) {}
}
