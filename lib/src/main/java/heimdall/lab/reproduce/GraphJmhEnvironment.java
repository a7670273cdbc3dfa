package heimdall.lab.reproduce;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import heimdall.lab.sys.HostFacts;

/**
 * graph jmh's {@code environment.json}: the host's facts first, then what ran (its own order since it
 * was first written, before reproductions shared one).
 */
@JsonPropertyOrder({"host", "reproduction", "cpu", "quick"})
record GraphJmhEnvironment(
        @JsonUnwrapped HostFacts host,
        @JsonProperty("reproduction") String reproduction,
        @JsonProperty("cpu") int cpu,
        @JsonProperty("quick") boolean quick) {}
