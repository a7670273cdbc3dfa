package heimdall.lab.reproduce.graphjmh;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * graph jmh's own facts in {@code environment.json}, after the times and the host: what was measured
 * and how, everything its table needs beyond the row.
 *
 * @param cpu the CPU the harness and JMH's benchmark thread were pinned to
 * @param quick whether it was a {@code --quick} run
 * @param harnessRuns runs of the harness protocol, the middle median compared
 * @param harnessBatches measured batches of each harness run (after one warm-up batch)
 * @param jmhVersion the JMH that ran
 * @param jmhMode JMH's benchmark mode ({@code sample}: each whole-trace replay timed)
 * @param jmhForks JMH's forks
 * @param jmhWarmupIterations its warm-up iterations
 * @param jmhMeasurementIterations its measurement iterations
 * @param jmhInvocationsTimed the replays JMH timed (its samples)
 */
@JsonPropertyOrder({
    "cpu",
    "quick",
    "harness_runs",
    "harness_batches",
    "jmh_version",
    "jmh_mode",
    "jmh_forks",
    "jmh_warmup_iterations",
    "jmh_measurement_iterations",
    "jmh_invocations_timed"
})
record GraphJmhSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("quick") boolean quick,
        @JsonProperty("harness_runs") int harnessRuns,
        @JsonProperty("harness_batches") int harnessBatches,
        @JsonProperty("jmh_version") String jmhVersion,
        @JsonProperty("jmh_mode") String jmhMode,
        @JsonProperty("jmh_forks") int jmhForks,
        @JsonProperty("jmh_warmup_iterations") int jmhWarmupIterations,
        @JsonProperty("jmh_measurement_iterations") int jmhMeasurementIterations,
        @JsonProperty("jmh_invocations_timed") long jmhInvocationsTimed) {}
