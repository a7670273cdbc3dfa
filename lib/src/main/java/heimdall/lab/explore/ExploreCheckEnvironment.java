package heimdall.lab.explore;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.HostFacts;

/**
 * explore check's {@code environment.json}: the host's facts first, then its own settings. (It is not a
 * reproduction: no reproduction, interruption or times, as in every folder it has written.)
 */
@JsonPropertyOrder({"host", "cpu", "options", "load_samples", "method", "java"})
record ExploreCheckEnvironment(
        @JsonUnwrapped HostFacts host,
        @JsonProperty("cpu") int cpu,
        @JsonProperty("options") ExploreCheck.Options options,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("method") String method,
        @JsonProperty("java") String java) {

    static ExploreCheckEnvironment of(Host host, ExploreCheck.Options o, Host.LoadSampler loads) {
        return new ExploreCheckEnvironment(
                HostFacts.of(host),
                o.cpu(),
                o,
                loads.summary(),
                "rounds alternate which goes first; each block is fresh heimdall-runner children, run i at code "
                        + "placement i mod 4; samples.arrow row 0 is floor-cost's row (filtered, none), row 1 the fluent API's",
                ResultsFolder.javaVm());
    }
}
