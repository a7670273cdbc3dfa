package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce attach-cost}'s {@code summary.json}: a floor attached in-process
 * ({@code attach_*}) and in a fresh fork ({@code fork_attach_*}), or the {@code "fork alone"} row
 * ({@code fork_*}); {@code samples_row} is its row in samples.arrow. Built from parts: what was
 * attached ({@link Subject}), the in-process loop's size ({@link Loop}), the {@link Timing} of each
 * variant, the {@link Compile} figures, the {@link Runs}, and the confidence intervals.
 * {@link FlatRows} writes the parts' fields flat, in this order, under the keys every folder has.
 * Times are nanoseconds; a figure not measured is null.
 *
 * <p>The row's main figure is the one a sandbox pays when it starts a confined process: for a floor
 * row, the fork+attach ({@code fork_attach_median_ns}) and what attaching adds to a fork
 * ({@code attach_in_fork_added_ns}); for the fork-alone row, the fork ({@code fork_median_ns}). Its
 * {@link #intervals} ({@code median_ci_*}, {@code p99_ci_*}, {@code added_ci_*}) are that figure's;
 * the in-process attach's are under {@code attach_} ({@code attach_median_ci_*}, {@code attach_p99_ci_*}).
 * Both come after every other key; folders made before them have none, and read as null.
 *
 * <p>A part never reads as null: an absent one is its {@code NONE} (every field null), which writes
 * no key.
 *
 * @param subject the floor attached and its loop variant (the fork-alone row: its name only)
 * @param samplesRow the row's row in samples.arrow
 * @param loop the attaches of each in-process run and the kernel's budget
 * @param attach the in-process attach's figures (each attach timed inside, the loop outside)
 * @param forkAttach the fork+attach's figures (fork, attach in the child, wait)
 * @param attachInForkAddedNs the fork+attach median minus the fork-alone median
 * @param compile this library's compile times for the floor
 * @param fork the fork-alone row's figures
 * @param outcome {@code status}: ok, interrupted, failed or not measured
 * @param failure why the row failed, or null
 * @param runs the runs asked and completed
 * @param intervals the main figure's median, p99 and added cost intervals (null: none)
 * @param attachIntervals the in-process attach's median and p99 intervals (null: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record AttachCostRow(
        @Flat Subject subject,

        @JsonProperty(value = "samples_row", required = true)
        Long samplesRow,

        @Flat Loop loop,
        @Flat(prefix = "attach_") Timing attach,
        @Flat(prefix = "fork_attach_", omit = "first_ns") Timing forkAttach,
        @JsonProperty("attach_in_fork_added_ns") Long attachInForkAddedNs,
        @Flat Compile compile,
        @Flat(prefix = "fork_", omit = "first_ns") Timing fork,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("failure") String failure,
        @Flat Runs runs,
        @Flat RowIntervals intervals,
        @Flat(prefix = "attach_", omit = "added") RowIntervals attachIntervals)
        implements ResultRow {

    /** The name of the fork-alone row, the baseline of the fork variant. */
    public static final String FORK_ALONE = "fork alone";

    /** Absent parts are their {@code NONE}, so a reader never meets a null part (the intervals may be null). */
    public AttachCostRow {
        if (subject == null) {
            throw new IllegalArgumentException("an attach-cost row names what it attaches");
        }
        loop = loop == null ? Loop.NONE : loop;
        attach = attach == null ? Timing.NONE : attach;
        forkAttach = forkAttach == null ? Timing.NONE : forkAttach;
        compile = compile == null ? Compile.NONE : compile;
        fork = fork == null ? Timing.NONE : fork;
        runs = runs == null ? Runs.NONE : runs;
    }

    private static final Set<String> MEASURED_NULLS =
            Set.of("attach_in_fork_added_ns", "compile_median_ns", "compile_p99_ns");

    /**
     * A measured floor's row names its fork-relative and compile figures even when null (a stop came first); other rows
     * leave nulls out.
     */
    @Override
    public Set<String> nullsWritten() {
        return attach.medianNs() != null ? MEASURED_NULLS : Set.of();
    }

    @Override
    public List<String> labelParts() {
        return subject.call() == null ? List.of(subject.what()) : List.of(subject.what(), subject.call());
    }

    @Override
    public String status() {
        return outcome == null ? null : outcome.label();
    }

    /** The row's name: the floor's, or {@link #FORK_ALONE}. */
    public String what() {
        return subject.what();
    }

    /** The variant a not-measured or failed row names ({@code "attach"}), or null. */
    public String call() {
        return subject.call();
    }

    /** Whether this is the fork-alone row (no floor attached), the baseline of the fork variant. */
    public boolean forkAlone() {
        return FORK_ALONE.equals(subject.what());
    }

    /**
     * The figures of the row's main figure: the fork alone's for the fork-alone row, else the fork+attach's
     * (what {@link #intervals} is about).
     */
    public Timing main() {
        return forkAlone() ? fork : forkAttach;
    }

    /**
     * What was attached: the row's name, the variant a not-measured row names, where the floor came
     * from, its length, and the program the in-process loop attaches (its length, whether it adds a
     * rule allowing {@code seccomp}, and its length once the kernel has converted it).
     */
    public record Subject(
            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("call") String call,
            @JsonProperty("source") String source,
            @JsonProperty("insns") Long insns,
            @JsonProperty("loop_insns") Long loopInsns,
            @JsonProperty("loop_adds_seccomp") Boolean loopAddsSeccomp,
            @JsonProperty("loop_kernel_insns") Long loopKernelInsns) {}

    /** The in-process loop's size: the attaches of each run, and the most the kernel allows one process. */
    public record Loop(
            @JsonProperty("attaches_per_run") Long attachesPerRun,
            @JsonProperty("attach_budget") Long budget) {
        /** Not measured. */
        public static final Loop NONE = new Loop(null, null);
    }

    /**
     * One variant's figures: median and p99 over every sample (each timed inside), the median over
     * runs of each run's first sample (in-process only), each run's median, and the loop timed outside
     * with no clock read in it (the median over runs of total / calls, and each run's total).
     */
    public record Timing(
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("p99_ns") Long p99Ns,
            @JsonProperty("first_ns") Long firstNs,
            @JsonProperty("run_medians_ns") List<Long> runMediansNs,
            @JsonProperty("outside_ns_per_call") Long outsideNsPerCall,
            @JsonProperty("outside_totals_ns") List<Long> outsideTotalsNs) {
        /** Not measured. */
        public static final Timing NONE = new Timing(null, null, null, null, null, null);
    }

    /** This library's compile times for the floor (null figures, 0 compiles: the hand-written filter). */
    public record Compile(
            @JsonProperty("compile_median_ns") Long medianNs,
            @JsonProperty("compile_p99_ns") Long p99Ns,
            @JsonProperty("compiles") Long compiles) {
        /** Not measured. */
        public static final Compile NONE = new Compile(null, null, null);
    }

    /** How many runs were asked and completed, and whether a stop cut them short. */
    public record Runs(
            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("interrupted") Boolean interrupted) {
        /** No runs recorded (a folder made before they were). */
        public static final Runs NONE = new Runs(null, null, null);
    }
}
