package heimdall.lab.reproduce.mechanisms;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.FloorBench;
import java.util.List;

/**
 * mechanisms' own facts in {@code environment.json}, after the times and the host: where it ran, how much,
 * the Landlock ruleset and ABI (observed, and predicted from the kernel's version), and the decision grid.
 *
 * @param cpu the child's CPU
 * @param supervisorCpu the supervisor's CPU
 * @param counts runs and calls
 * @param codePlacement how runs rotate through the timed loop's placements
 * @param landlock the ruleset of the Landlock rows
 * @param landlockAbi the ABI this kernel answered (0: none)
 * @param landlockAbiPredicted the ABI its version predicts (null: unreadable version)
 * @param landlockPlan the ruleset on this kernel: {@code enforced}, or the refusal's reason
 * @param grid the two policies' answers on the grid of names
 * @param java the JVM
 */
@JsonPropertyOrder({
    "cpu",
    "supervisor_cpu",
    "counts",
    "code_placement",
    "landlock",
    "landlock_abi",
    "landlock_abi_predicted",
    "landlock_plan",
    "grid",
    "java"
})
record MechanismsSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("supervisor_cpu") int supervisorCpu,
        @JsonProperty("counts") FloorBench.Counts counts,
        @JsonProperty("code_placement") String codePlacement,
        @JsonProperty("landlock") String landlock,
        @JsonProperty("landlock_abi") int landlockAbi,
        @JsonProperty("landlock_abi_predicted") Integer landlockAbiPredicted,
        @JsonProperty("landlock_plan") String landlockPlan,
        @JsonProperty("grid") List<DecisionGrid.Outcome> grid,
        @JsonProperty("java") String java) {}
