package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce follower-cost}'s {@code summary.json}: a call's cost without and
 * with the follower's {@code hook} in a {@code process}, or the reason it was not measured; the
 * divergence rows ({@code measure} "divergence") give, per run, the divergent call and the calls begun
 * after the kill. Built from parts: what was measured ({@link Subject}), the status, the {@link Figures}
 * without and with the follower, the {@link Divergence}, the published figure, the follower program's
 * own cost ({@link ProgramCost}), the runs ({@link RunCounts}), t_hook ({@link HookCost}), the empty
 * program's cost on the same hook (a {@link ProgramCost} too) and the intervals ({@link RowIntervals}:
 * the median and p99 with the hook, and the added cost). {@link FlatRows} writes the parts' fields flat,
 * in this order, under the keys every folder has; fields a row kind or an older folder lacks are null
 * (the {@code program_*} fields and the intervals are absent from older folders, the {@link HookCost}
 * fields from folders made before issue 32, the {@code empty_program_*} statistics from folders made before the
 * empty program's statistics run, the {@link Steps} ({@code step_*}) and the statistics runs' timed medians
 * ({@code *_timed_median_ns}) from folders made before the follower's own work was split by step).
 *
 * <p>A part never reads as null: an absent one is its {@code NONE} (every field null).
 *
 * @param subject the measure, hook, process, floor and call
 * @param outcome {@code status}: ok, refused or not measured
 * @param reason why the row was refused (written even when null for a refused row), or null
 * @param figures the call's figures without and with the follower (cost rows)
 * @param divergence the calls completed from the divergent call on (divergence rows)
 * @param published the seeds' figure, or what they say of it
 * @param program the follower program's own cost over one extra run with BPF statistics on (t_follow rows)
 * @param runs the runs asked and completed
 * @param hookCost the same calls with an empty program on the same hook (t_hook), and the follower's own
 *     work over it ({@link HookCost#NONE}: not measured)
 * @param emptyProgram the empty program's (t_hook's) cost over one more run with it alone on the same hook and
 *     BPF statistics on, written under {@code empty_program_} ({@link ProgramCost#NONE}: no such run)
 * @param steps the follower's own work split by the parts of its step, written under {@code step_}
 *     ({@link Steps#NONE}: not measured, as on t_idle rows)
 * @param intervals the confidence intervals, after every other key ({@link RowIntervals#NONE}: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record FollowerCostRow(
        @Flat Subject subject,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("reason") String reason,
        @Flat Figures figures,
        @Flat Divergence divergence,
        @JsonProperty("published") String published,
        @Flat(prefix = "program_") ProgramCost program,
        @Flat RunCounts runs,
        @Flat HookCost hookCost,
        @Flat(prefix = "empty_program_") ProgramCost emptyProgram,
        @Flat(prefix = "step_") Steps steps,
        @Flat RowIntervals intervals)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part. */
    public FollowerCostRow {
        if (subject == null) {
            throw new IllegalArgumentException("a follower-cost row names its measure, hook, process, floor and call");
        }
        if (outcome == null) {
            throw new IllegalArgumentException("a follower-cost row has a status");
        }
        figures = figures == null ? Figures.NONE : figures;
        divergence = divergence == null ? Divergence.NONE : divergence;
        program = program == null ? ProgramCost.NONE : program;
        emptyProgram = emptyProgram == null ? ProgramCost.NONE : emptyProgram;
        runs = runs == null ? RunCounts.NONE : runs;
        hookCost = hookCost == null ? HookCost.NONE : hookCost;
        steps = steps == null ? Steps.NONE : steps;
        intervals = intervals == null ? RowIntervals.NONE : intervals;
    }

    /** A row without the split by step ({@link Steps#NONE}): t_idle and divergence rows, refused rows. */
    public FollowerCostRow(
            Subject subject,
            RowStatus outcome,
            String reason,
            Figures figures,
            Divergence divergence,
            String published,
            ProgramCost program,
            RunCounts runs,
            HookCost hookCost,
            ProgramCost emptyProgram,
            RowIntervals intervals) {
        this(
                subject,
                outcome,
                reason,
                figures,
                divergence,
                published,
                program,
                runs,
                hookCost,
                emptyProgram,
                Steps.NONE,
                intervals);
    }

    /** This row with {@code intervals} in place of its own. */
    public FollowerCostRow withIntervals(RowIntervals intervals) {
        return new FollowerCostRow(
                subject,
                outcome,
                reason,
                figures,
                divergence,
                published,
                program,
                runs,
                hookCost,
                emptyProgram,
                steps,
                intervals);
    }

    /** A refused row says its reason even when the refusal had no message (null); other rows leave nulls out. */
    @Override
    public Set<String> nullsWritten() {
        return outcome == RowStatus.REFUSED ? Set.of("reason") : Set.of();
    }

    @Override
    public String status() {
        return outcome.label();
    }

    /** Whether this is a divergence row (calls completed from the divergent call on), not a cost row. */
    public boolean isDivergence() {
        return subject.measure() == Measure.DIVERGENCE;
    }

    @Override
    public List<String> labelParts() {
        return List.of(subject.measure().label(), subject.hook(), subject.process(), subject.call());
    }

    /** What a row measures, as summary.json spells it ({@link #label()}). */
    public enum Measure {
        /** A followed call's cost: the follower steps the child's calls. */
        T_FOLLOW,
        /** An unrelated process's cost while the follower is attached. */
        T_IDLE,
        /** The calls a deviating process completes from its divergent call on. */
        DIVERGENCE;

        /** As written: {@code "t_follow"}, {@code "t_idle"}, {@code "divergence"}. */
        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Whether the row's runs spread over the seeds' 25% rule, from its {@code figures} part; null when it has none. */
    @Override
    public Boolean noisy() {
        return figures == null ? null : figures.noisy();
    }

    /**
     * What was measured: the row's name, the measure, the follower's hook (its wire name), the process
     * timed, the floor it runs under ({@code "none"}: no filter) and the call.
     */
    public record Subject(
            @JsonProperty("what") String what,

            @JsonProperty(value = "measure", required = true)
            Measure measure,

            @JsonProperty(value = "hook", required = true) String hook,

            @JsonProperty(value = "process", required = true)
            String process,

            @JsonProperty(value = "floor", required = true) String floor,
            @JsonProperty(value = "call", required = true) String call) {
        /** Every field but {@code what} is named. */
        public Subject {
            if (measure == null || hook == null || process == null || floor == null || call == null) {
                throw new IllegalArgumentException(
                        "a follower-cost row names its measure, hook, process, floor and call");
            }
        }
    }

    /**
     * The call's figures without and with the follower, in the order written: medians, the added median
     * (with − without), p99s, each run's medians, the spreads of the run medians and whether noisy.
     */
    public record Figures(
            @JsonProperty("median_without_ns") Long medianWithoutNs,
            @JsonProperty("median_with_ns") Long medianWithNs,
            @JsonProperty("added_ns") Long addedNs,
            @JsonProperty("p99_without_ns") Long p99WithoutNs,
            @JsonProperty("p99_with_ns") Long p99WithNs,
            @JsonProperty("run_medians_without_ns") List<Long> runMediansWithoutNs,
            @JsonProperty("run_medians_with_ns") List<Long> runMediansWithNs,
            @JsonProperty("spread_without") Double spreadWithout,
            @JsonProperty("spread_with") Double spreadWith,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Figures NONE = new Figures(null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * A divergence row's figures, per run: the divergent call's index, the calls begun after the kill,
     * and the calls completed from the divergent call on (the goal is one).
     */
    public record Divergence(
            @JsonProperty("divergent_call_index") List<Long> divergentCallIndex,
            @JsonProperty("calls_begun_after_kill") List<Long> callsBegunAfterKill,
            @JsonProperty("calls_completed_from_divergence") Long callsCompletedFromDivergence) {
        /** Not a divergence row, or not measured. */
        public static final Divergence NONE = new Divergence(null, null, null);
    }

    /**
     * A BPF program's cost as the kernel counts it (BPF_ENABLE_STATS: run_cnt, run_time_ns) over one extra run
     * of the row made with statistics on, apart from the timed runs: the follower's step program (written under
     * {@code program_}), the empty program alone on the same hook (under {@code empty_program_}) or a step's
     * variant ({@code step_<part>_program_}); the note says what the runs were, or why there are none.
     *
     * @param timedMedianNs the median of the calls the child timed in that statistics run (every program run
     *     in it carries the statistics' clock reads), or null (folders made before it was kept)
     */
    public record ProgramCost(
            @JsonProperty("runs") Long runs,
            @JsonProperty("run_time_ns") Long runTimeNs,
            @JsonProperty("ns_per_run") Double nsPerRun,
            @JsonProperty("stats_note") String statsNote,
            @JsonProperty("timed_median_ns") Long timedMedianNs) {
        /** No statistics run. */
        public static final ProgramCost NONE = new ProgramCost(null, null, null, null, null);

        /** No statistics run, and why. */
        public static ProgramCost none(String note) {
            return new ProgramCost(null, null, null, note, null);
        }
    }

    /**
     * The follower's own work split by the parts of a followed call's step (issue 32), on t_follow rows: the
     * calls timed, in the same runs as without and with the follower and with the empty program, with the same
     * program stopped after each part ({@code heimdall.lab.follower.FollowStep}). Each part's {@code ns} is the
     * median at that part less the median at the part before it (the empty program's before {@code check}), so
     * the four add up to {@code own_ns}; {@code cell} is the full step, whose median is {@code median_with_ns}
     * and whose count is {@code program_*}, so it has only its share and interval.
     */
    public record Steps(
            @Flat(prefix = "check_") Step check,
            @Flat(prefix = "cursor_") Step cursor,
            @Flat(prefix = "counters_") Step counters,

            @Flat(
                    prefix = "cell_",
                    omit = {"median_ns", "run_medians_ns", "program", "refusal"})
            Step cell) {
        /** Not measured (t_idle and divergence rows, refused rows, older folders). */
        public static final Steps NONE = new Steps(null, null, null, null);

        /** An absent part is {@link Step#NONE}. */
        public Steps {
            check = check == null ? Step.NONE : check;
            cursor = cursor == null ? Step.NONE : cursor;
            counters = counters == null ? Step.NONE : counters;
            cell = cell == null ? Step.NONE : cell;
        }

        /** The parts in the program's order: check, cursor, counters, cell. */
        public List<Step> inOrder() {
            return List.of(check, cursor, counters, cell);
        }
    }

    /**
     * One part of the step: the calls' median with the follower stopped after it, its share of the own work
     * (over the part before it) with the interval (the Hodges–Lehmann shift of the run medians, as
     * {@code own_ci_*}), the kernel's count of that variant over a statistics run of its own, or why the kernel
     * refused the variant.
     *
     * @param medianNs the median with the follower stopped after this part
     * @param runMediansNs each run's median with it
     * @param ns this part's share: {@code median_ns} less the part before it (null when either is not measured)
     * @param ci {@code ns}'s interval
     * @param program the variant's count over one statistics run ({@code program_*})
     * @param refusal why the variant was refused (by the kernel, or pointed too late), or null
     */
    public record Step(
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("run_medians_ns") List<Long> runMediansNs,
            @JsonProperty("ns") Long ns,
            @Flat(prefix = "ci_") RowIntervals.Ci ci,
            @Flat(prefix = "program_") ProgramCost program,
            @JsonProperty("refusal") String refusal) {
        /** Not measured. */
        public static final Step NONE = new Step(null, null, null, null, null, null);

        /** An absent count is {@link ProgramCost#NONE}. */
        public Step {
            program = program == null ? ProgramCost.NONE : program;
        }
    }

    /**
     * t_hook (issue 32): the row's calls timed with an empty program alone on the same hook, in the same
     * runs as without and with the follower, so the hook's cost and the follower's own work are told
     * apart. {@code hook_ns} is the median with the empty program less the median without anything
     * ({@code median_without_ns}); {@code own_ns} the median with the follower less the median with the
     * empty program; their intervals are the Hodges–Lehmann shifts of the run medians
     * ({@code hook_ci_*} over the runs without, {@code own_ci_*} over the runs with the empty program).
     * A hook the kernel refuses the empty program on has only {@code empty_program} and
     * {@code hook_refusal}.
     *
     * @param emptyProgram the attach point and what the program does ({@code "tp_btf/sys_enter, returns 0"})
     * @param medianHookNs the median with the empty program attached
     * @param p99HookNs its p99
     * @param runMediansHookNs each run's median with it
     * @param spreadHook (max − min) / median of those run medians
     * @param hookNs t_hook: the median with the empty program less the median without
     * @param hookCi {@code hook_ns}'s interval
     * @param ownNs the follower's own work: the median with the follower less the median with the empty program
     * @param ownCi {@code own_ns}'s interval
     * @param hookRefusal why the kernel refused the empty program, or null
     */
    public record HookCost(
            @JsonProperty("empty_program") String emptyProgram,
            @JsonProperty("median_hook_ns") Long medianHookNs,
            @JsonProperty("p99_hook_ns") Long p99HookNs,
            @JsonProperty("run_medians_hook_ns") List<Long> runMediansHookNs,
            @JsonProperty("spread_hook") Double spreadHook,
            @JsonProperty("hook_ns") Long hookNs,
            @Flat(prefix = "hook_ci_") RowIntervals.Ci hookCi,
            @JsonProperty("own_ns") Long ownNs,
            @Flat(prefix = "own_ci_") RowIntervals.Ci ownCi,
            @JsonProperty("hook_refusal") String hookRefusal) {
        /** Not measured (a divergence row, or a folder made before t_hook). */
        public static final HookCost NONE = new HookCost(null, null, null, null, null, null, null, null, null, null);

        /** The empty program refused on its hook, with the reason. */
        public static HookCost refused(String emptyProgram, String reason) {
            return new HookCost(emptyProgram, null, null, null, null, null, null, null, null, reason);
        }
    }
}
