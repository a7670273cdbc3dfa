package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce attach-cost}'s {@code summary.json}: a floor attached in-process
 * ({@code attach_*}) and in a fresh fork ({@code fork_attach_*}), or the {@code "fork alone"} row
 * ({@code fork_*}); {@code samples_row} is its row in samples.arrow. Null where not measured.
 */
public record AttachCostRow(
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty("call") String call,
        @JsonProperty("source") String source,
        @JsonProperty("insns") Long insns,
        @JsonProperty("loop_insns") Long loopInsns,
        @JsonProperty("loop_adds_seccomp") Boolean loopAddsSeccomp,
        @JsonProperty("loop_kernel_insns") Long loopKernelInsns,

        @JsonProperty(value = "samples_row", required = true)
        Long samplesRow,

        @JsonProperty("attaches_per_run") Long attachesPerRun,
        @JsonProperty("attach_budget") Long attachBudget,
        @JsonProperty("attach_median_ns") Long attachMedianNs,
        @JsonProperty("attach_p99_ns") Long attachP99Ns,
        @JsonProperty("attach_first_ns") Long attachFirstNs,
        @JsonProperty("attach_run_medians_ns") List<Long> attachRunMediansNs,
        @JsonProperty("attach_outside_ns_per_call") Long attachOutsideNsPerCall,
        @JsonProperty("attach_outside_totals_ns") List<Long> attachOutsideTotalsNs,
        @JsonProperty("fork_attach_median_ns") Long forkAttachMedianNs,
        @JsonProperty("fork_attach_p99_ns") Long forkAttachP99Ns,
        @JsonProperty("fork_attach_run_medians_ns") List<Long> forkAttachRunMediansNs,
        @JsonProperty("fork_attach_outside_ns_per_call") Long forkAttachOutsideNsPerCall,
        @JsonProperty("fork_attach_outside_totals_ns") List<Long> forkAttachOutsideTotalsNs,
        @JsonProperty("attach_in_fork_added_ns") Long attachInForkAddedNs,
        @JsonProperty("compile_median_ns") Long compileMedianNs,
        @JsonProperty("compile_p99_ns") Long compileP99Ns,
        @JsonProperty("compiles") Long compiles,
        @JsonProperty("fork_median_ns") Long forkMedianNs,
        @JsonProperty("fork_p99_ns") Long forkP99Ns,
        @JsonProperty("fork_run_medians_ns") List<Long> forkRunMediansNs,
        @JsonProperty("fork_outside_ns_per_call") Long forkOutsideNsPerCall,
        @JsonProperty("fork_outside_totals_ns") List<Long> forkOutsideTotalsNs,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("failure") String failure,
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("interrupted") Boolean interrupted)
        implements ResultRow {

    private static final Set<String> MEASURED_NULLS =
            Set.of("attach_in_fork_added_ns", "compile_median_ns", "compile_p99_ns");

    /**
     * A measured floor's row names its fork-relative and compile figures even when null (a stop came first); other rows
     * leave nulls out.
     */
    @Override
    public Set<String> nullsWritten() {
        return attachMedianNs != null ? MEASURED_NULLS : Set.of();
    }

    @Override
    public List<String> labelParts() {
        return call == null ? List.of(what) : List.of(what, call);
    }

    /** Whether this is the fork-alone row (no floor attached), the baseline of the fork variant. */
    public boolean forkAlone() {
        return "fork alone".equals(what);
    }
}
