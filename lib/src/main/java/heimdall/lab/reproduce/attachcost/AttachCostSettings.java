package heimdall.lab.reproduce.attachcost;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.child.AttachBudget;

/** attach-cost's own facts in {@code environment.json}, after the times and the host. */
@JsonPropertyOrder({"cpu", "options", "attach_budget", "methods", "java"})
record AttachCostSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("options") AttachCost.Options options,
        @JsonProperty("attach_budget") Budget attachBudget,
        @JsonProperty("methods") Methods methods,
        @JsonProperty("java") String java) {

    static AttachCostSettings of(AttachCost.Options o) {
        return new AttachCostSettings(
                o.cpu(),
                o,
                new Budget(
                        AttachBudget.MAX_INSNS_PER_PATH,
                        AttachBudget.PENALTY,
                        "a process can hold at most 32772 / (E + 4) copies of a filter whose eBPF conversion has E "
                                + "instructions "
                                + "(heimdall.lab.child.AttachBudget.kernelLength; checked against the kernel in the "
                                + "tests)"),
                Methods.WRITTEN,
                ResultsFolder.javaVm());
    }

    /** The kernel's attach budget the floors are sized by. */
    @JsonPropertyOrder({"max_insns_per_path", "penalty_per_filter", "rule"})
    record Budget(
            @JsonProperty("max_insns_per_path") int maxInsnsPerPath,
            @JsonProperty("penalty_per_filter") int penaltyPerFilter,
            @JsonProperty("rule") String rule) {}

    /** How each figure is timed. */
    @JsonPropertyOrder({"inside", "outside", "fork", "compile"})
    record Methods(
            @JsonProperty("inside") String inside,
            @JsonProperty("outside") String outside,
            @JsonProperty("fork") String fork,
            @JsonProperty("compile") String compile) {
        static final Methods WRITTEN = new Methods(
                "each seccomp(SECCOMP_SET_MODE_FILTER) timed alone with clock_gettime(CLOCK_MONOTONIC), vDSO",
                "one CLOCK_MONOTONIC pair around the whole loop, no clock read inside; total / calls",
                "raw fork(); the child attaches once (or not, for the baseline) and exit_groups; wait4; all timed",
                "heimdall.lab.bpf.Compiler.compile(profile) in this JVM after the warm-up, System.nanoTime around "
                        + "each");
    }
}
