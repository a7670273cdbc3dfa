package heimdall.lab.reproduce.workloadcost;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.ResultsFolder;
import java.util.List;
import java.util.Locale;

/** workload-cost's own facts in {@code environment.json}, after the times and the host. */
@JsonPropertyOrder({"runs", "probe_runs", "size", "mechanisms", "workloads", "method", "speculation", "java"})
record WorkloadCostSettings(
        @JsonProperty("runs") int runs,
        @JsonProperty("probe_runs") int probeRuns,
        @JsonProperty("size") String size,
        @JsonProperty("mechanisms") List<String> mechanisms,
        @JsonProperty("workloads") List<WorkloadFacts> workloads,
        @JsonProperty("method") String method,
        @JsonProperty("speculation") Speculation speculation,
        @JsonProperty("java") String java) {

    static final String METHOD = "each run a fresh process (heimdall-workload: fork, filter installed right before "
            + "exec, wall time from the go to the exit, rusage from wait4); the mechanisms interleaved run by run, "
            + "the order rotated a step each round; overhead B/A of the run wall times against no filter in the "
            + "same rounds: Hodges-Lehmann shift of the logarithms with its Mann-Whitney interval and U test";

    /** One workload as run. */
    @JsonPropertyOrder({"name", "stresses", "command", "dir"})
    record WorkloadFacts(
            @JsonProperty("name") String name,
            @JsonProperty("stresses") String stresses,
            @JsonProperty("command") List<String> command,
            @JsonProperty("dir") String dir) {}

    /**
     * The settings of a run.
     *
     * @param speculation whether the kernel forced SSB/STIBP on the filtered runs, or why it cannot be seen
     *     (absent from folders made before it)
     */
    static WorkloadCostSettings of(WorkloadCost.Options o, List<Workload> workloads, Speculation speculation) {
        return new WorkloadCostSettings(
                o.runs(),
                o.probeRuns(),
                o.user().isEmpty() ? o.size().name().toLowerCase(Locale.ROOT) : "user",
                o.mechanisms().stream().map(Mechanism::rowName).toList(),
                workloads.stream()
                        .map(w -> new WorkloadFacts(
                                w.name(), w.stresses(), w.command(), w.dir().toString()))
                        .toList(),
                METHOD,
                speculation,
                ResultsFolder.javaVm());
    }
}
