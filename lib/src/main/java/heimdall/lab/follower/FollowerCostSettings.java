package heimdall.lab.follower;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.HostFacts;
import java.time.Instant;

/**
 * follower-cost's {@code environment.json} after the three keys every reproduction has: its own {@code schema}
 * (it came before the others had one, hence first), the times, the host's facts and the options.
 */
@JsonPropertyOrder({"schema", "started", "finished", "host", "options", "java"})
public record FollowerCostSettings(
        @JsonProperty("schema") int schema,
        @JsonProperty("started") String started,
        @JsonProperty("finished") String finished,
        @JsonUnwrapped HostFacts host,
        @JsonProperty("options") RunOptions options,
        @JsonProperty("java") String java) {

    /** Schema 1, the run's times, {@code host}'s facts, {@code o} and this JVM. */
    static FollowerCostSettings of(Instant started, Instant finished, Host host, FollowerCost.Options o) {
        return new FollowerCostSettings(
                1,
                started.toString(),
                finished.toString(),
                HostFacts.of(host),
                RunOptions.of(o),
                ResultsFolder.javaVm());
    }

    /** The options a run was given ({@link FollowerCost.Options}). */
    @JsonPropertyOrder({"runs", "warmup", "count", "cpu"})
    public record RunOptions(
            @JsonProperty("runs") int runs,
            @JsonProperty("warmup") long warmup,
            @JsonProperty("count") long count,
            @JsonProperty("cpu") int cpu) {
        static RunOptions of(FollowerCost.Options o) {
            return new RunOptions(o.runs(), o.warmup(), o.count(), o.cpu());
        }
    }
}
