package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce workload-cost}'s {@code summary.json}: one program run whole under one
 * mechanism, or why it was not. Built from parts: what ran under what ({@link Subject}), the status and
 * reason, what a run cost ({@link Cost}: medians over the runs), the overhead against the same program with
 * no filter in the same interleaved rounds ({@link Overhead}: B/A with its interval and verdict), what the
 * mechanism changed in the result ({@link Check}) and the runs ({@link RunCounts}). {@link FlatRows} writes
 * the parts' fields flat, in this order.
 *
 * @param subject the workload, the mechanism and how it was placed
 * @param outcome {@code status}: ok, interrupted or refused
 * @param reason why the row was refused (written even when null for a refused row), or null
 * @param cost the run figures (medians over the runs)
 * @param overhead B/A against no filter, with its interval and verdict; none on the baseline's own row
 * @param predicted the call mix times each call's added cost, beside the measured added time
 * @param check the runs whose exit status or stdout differed from the runs without a filter
 * @param runs the runs asked and completed
 * @param enforced what the mechanism itself did in the runs (brokered, followed, Landlock's ABI), keys after
 *     the others (added with the broker-broker native, follower and landlock rows)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record WorkloadCostRow(
        @Flat Subject subject,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("reason") String reason,
        @Flat Cost cost,
        @Flat Overhead overhead,
        @Flat Predicted predicted,
        @Flat Check check,
        @Flat RunCounts runs,
        @Flat Enforced enforced)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part. */
    public WorkloadCostRow {
        if (subject == null) {
            throw new IllegalArgumentException("a workload-cost row names its workload and mechanism");
        }
        if (outcome == null) {
            throw new IllegalArgumentException("a workload-cost row has a status");
        }
        cost = cost == null ? Cost.NONE : cost;
        overhead = overhead == null ? Overhead.NONE : overhead;
        predicted = predicted == null ? Predicted.NONE : predicted;
        check = check == null ? Check.NONE : check;
        runs = runs == null ? RunCounts.NONE : runs;
        enforced = enforced == null ? Enforced.NONE : enforced;
    }

    /** A row without {@link Enforced} figures (a filter's, or the baseline's). */
    public WorkloadCostRow(
            Subject subject,
            RowStatus outcome,
            String reason,
            Cost cost,
            Overhead overhead,
            Predicted predicted,
            Check check,
            RunCounts runs) {
        this(subject, outcome, reason, cost, overhead, predicted, check, runs, Enforced.NONE);
    }

    /** This row with {@code e} as what its mechanism did. */
    public WorkloadCostRow withEnforced(Enforced e) {
        return new WorkloadCostRow(subject, outcome, reason, cost, overhead, predicted, check, runs, e);
    }

    /** This row with {@code p} as its prediction. */
    public WorkloadCostRow withPredicted(Predicted p) {
        return new WorkloadCostRow(subject, outcome, reason, cost, overhead, p, check, runs, enforced);
    }

    /** A refused row: the workload and mechanism, and why. */
    public static WorkloadCostRow refused(Subject subject, String reason) {
        return new WorkloadCostRow(subject, RowStatus.REFUSED, reason, null, null, null, null, null);
    }

    @Override
    public Set<String> nullsWritten() {
        return outcome == RowStatus.REFUSED ? Set.of("reason") : Set.of();
    }

    @Override
    public String status() {
        return outcome.label();
    }

    @Override
    public String failure() {
        return reason;
    }

    @Override
    public List<String> labelParts() {
        return List.of(subject.workload(), subject.mechanism());
    }

    @Override
    public Boolean noisy() {
        return cost.noisy();
    }

    /**
     * What ran under what.
     *
     * @param workload the workload's name ({@code find-tree}, or {@code user} for a user's command)
     * @param stresses the side of a sandbox it was chosen to stress
     * @param command the command as run (words joined by spaces)
     * @param mechanism {@code none}, {@code own-profile}, {@code profile}, {@code podman}, {@code docker},
     *     {@code broker-continue}, {@code broker-broker}, {@code follower}, {@code landlock}
     * @param supervisor {@code native} or {@code java} for a brokered row, else null
     * @param answer the broker's answer ({@code CONTINUE}, {@code BROKER} for names beneath {@code in/}), else null
     * @param placement where the supervisor ran ({@code unpinned}: wherever the scheduler put it), else null
     */
    public record Subject(
            @JsonProperty(value = "workload", required = true)
            String workload,

            @JsonProperty("stresses") String stresses,
            @JsonProperty("command") String command,

            @JsonProperty(value = "mechanism", required = true)
            String mechanism,

            @JsonProperty("supervisor") String supervisor,
            @JsonProperty("answer") String answer,
            @JsonProperty("placement") String placement) {

        /**
         * The mechanism as tables, charts and the first screen name it: {@code "broker-continue native"}, or the
         * mechanism alone when no supervisor answers ({@code "podman"}).
         */
        public String mechanismLabel() {
            return supervisor == null ? mechanism : mechanism + " " + supervisor;
        }
    }

    /**
     * A run's cost, medians over the runs (rusage of the program and every child it waited for).
     *
     * @param wallMedianNs wall time from the go to the program's exit
     * @param wallAddedNs the median less the no-filter median of the same rounds
     * @param wallRunsNs every run's wall time, in run order
     * @param userUs user CPU
     * @param systemUs system CPU
     * @param supervisorUs the measuring JVM's own CPU during the run (the supervisor's; near 0 without one)
     * @param voluntarySwitches voluntary context switches
     * @param involuntarySwitches involuntary context switches
     * @param minorFaults minor page faults
     * @param majorFaults major page faults
     * @param callsMade system calls made in one recorded run (ptrace), all tasks
     * @param notified calls that reached the supervisor in a run (median), brokered rows
     * @param ssb the program's {@code Speculation_Store_Bypass} state as it ended ({@code /proc/PID/status})
     * @param noisy whether the runs spread over the seeds' 25% rule
     */
    public record Cost(
            @JsonProperty("wall_median_ns") Long wallMedianNs,
            @JsonProperty("wall_added_ns") Long wallAddedNs,
            @JsonProperty("wall_runs_ns") List<Long> wallRunsNs,
            @JsonProperty("user_cpu_us") Long userUs,
            @JsonProperty("system_cpu_us") Long systemUs,
            @JsonProperty("supervisor_cpu_us") Long supervisorUs,
            @JsonProperty("voluntary_switches") Long voluntarySwitches,
            @JsonProperty("involuntary_switches") Long involuntarySwitches,
            @JsonProperty("minor_faults") Long minorFaults,
            @JsonProperty("major_faults") Long majorFaults,
            @JsonProperty("calls_made") Long callsMade,
            @JsonProperty("notified") Long notified,
            @JsonProperty("ssb") String ssb,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Cost NONE =
                new Cost(null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * B/A: this mechanism's run wall times against no filter's, in the same interleaved rounds
     * ({@code stats.ChangeTest}: the Hodges–Lehmann shift of the logarithms, Mann–Whitney's test).
     *
     * @param ratio the medians' ratio B/A
     * @param ratioLow the interval's low end
     * @param ratioHigh its high end
     * @param level the confidence asked
     * @param coverage the confidence the runs reach
     * @param pValue the U test's two-sided p
     * @param verdict slower, faster or no difference beyond noise
     * @param warning why the verdict cannot be trusted (too few runs), or null
     */
    public record Overhead(
            @JsonProperty("ratio") Double ratio,
            @JsonProperty("ratio_ci_low") Double ratioLow,
            @JsonProperty("ratio_ci_high") Double ratioHigh,
            @JsonProperty("ratio_ci_level") Double level,
            @JsonProperty("ratio_ci_coverage") Double coverage,
            @JsonProperty("p_value") Double pValue,
            @JsonProperty("verdict") String verdict,
            @JsonProperty("verdict_warning") String warning) {
        /** None (the baseline, or a refused row). */
        public static final Overhead NONE = new Overhead(null, null, null, null, null, null, null, null);
    }

    /**
     * The prediction: the recorded call mix (calls a run, by number) times each call's added cost under the
     * mechanism, measured in the same run (a harmless call under the same filter, answered the same way:
     * from the action cache, or running the program, scaled by its instructions; a brokered call's round trip
     * from the broker bench), beside the measured added time and its interval.
     *
     * @param addedNs the predicted added time a run
     * @param ratio the predicted B/A (1 + added over the no-filter median)
     * @param residualNs measured added less predicted
     * @param measuredLowNs the measured added time's interval, low end (from the ratio's)
     * @param measuredHighNs its high end
     * @param measuredCpuNs the CPU time the mechanism added a run (the program's user and system time, the
     *     supervisor's too on brokered rows; medians, less the no-filter runs'): what the per-call figures,
     *     means of calls on their CPU, predict; the wall time adds the waits for a CPU of a loaded host
     * @param within whether the prediction lies within the measured interval
     * @param cause what else changed, with its figures, when it does not; null otherwise
     * @param cachedNs a cached call's added cost under this filter
     * @param programNs the added cost of a call that runs the program
     * @param programInsns the instructions that call executes
     * @param roundTripNs a notified call's round trip (the answer of this row's supervisor), brokered rows
     * @param weightedInsns BPF instructions a run executes, the mix weighted (gVisor's method; cache ignored)
     * @param libseccompWeightedInsns the same for libseccomp's program of the same profile
     */
    public record Predicted(
            @JsonProperty("predicted_added_ns") Long addedNs,
            @JsonProperty("predicted_ratio") Double ratio,
            @JsonProperty("residual_ns") Long residualNs,
            @JsonProperty("measured_added_low_ns") Long measuredLowNs,
            @JsonProperty("measured_added_high_ns") Long measuredHighNs,
            @JsonProperty("measured_added_cpu_ns") Long measuredCpuNs,
            @JsonProperty("prediction_within_interval") Boolean within,
            @JsonProperty("residual_cause") String cause,
            @JsonProperty("per_call_cached_ns") Double cachedNs,
            @JsonProperty("per_call_program_ns") Double programNs,
            @JsonProperty("per_call_program_insns") Long programInsns,
            @JsonProperty("round_trip_ns") Double roundTripNs,
            @JsonProperty("weighted_insns") Long weightedInsns,
            @JsonProperty("libseccomp_weighted_insns") Long libseccompWeightedInsns) {
        /** No prediction (the baseline, a refused row). */
        public static final Predicted NONE =
                new Predicted(null, null, null, null, null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * What the mechanism changed: a sandbox that changes the result is not cheap.
     *
     * @param exitChangedRuns runs whose exit status differed from the no-filter runs'
     * @param outputChangedRuns runs whose stdout (length and FNV-1a hash) differed
     * @param killedBy the call a kill named (the audit record), or null
     */
    public record Check(
            @JsonProperty("exit_changed_runs") Long exitChangedRuns,
            @JsonProperty("output_changed_runs") Long outputChangedRuns,
            @JsonProperty("killed_by") String killedBy) {
        /** Nothing checked. */
        public static final Check NONE = new Check(null, null, null);

        /** Whether any run's result differed. */
        public boolean flagged() {
            return (exitChangedRuns != null && exitChangedRuns > 0)
                    || (outputChangedRuns != null && outputChangedRuns > 0);
        }
    }

    /**
     * What the mechanism itself did in the runs, where it is not a filter's: the broker's own opens, the
     * follower's steps, the Landlock ruleset installed.
     *
     * @param brokered calls the supervisor opened itself and handed over (median a run), broker-broker rows
     * @param followedCalls calls the kernel follower stepped (median a run), follower rows
     * @param followHook the follower's hook ({@code syscall-tracepoint}: design (a)), follower rows
     * @param perCallFollowNs t_follow measured in the same run (a followed getppid's added time over none), the
     *     per-call figure of the follower row's prediction
     * @param landlockAbi the Landlock ABI the kernel answered, landlock rows
     * @param landlockRuleset the ruleset the child enforced on itself, in words, landlock rows
     */
    public record Enforced(
            @JsonProperty("brokered") Long brokered,
            @JsonProperty("followed_calls") Long followedCalls,
            @JsonProperty("follow_hook") String followHook,
            @JsonProperty("per_call_follow_ns") Double perCallFollowNs,
            @JsonProperty("landlock_abi") Long landlockAbi,
            @JsonProperty("landlock_ruleset") String landlockRuleset) {
        /** Nothing beyond a filter. */
        public static final Enforced NONE = new Enforced(null, null, null, null, null, null);
    }
}
