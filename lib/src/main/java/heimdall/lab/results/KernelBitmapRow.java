package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A row of {@code ./lab reproduce kernel-bitmap}'s {@code summary.json}; its {@code section} says
 * which kind: a measured {@link Configuration} (0–4 filters, every timing method), an
 * {@link Estimate} derived from them, an {@link Expectation} checked on them, and the one
 * {@link Agreement} between the methods. Method-specific fields are null in folders made before
 * that method existed (older folders have {@code harness}/{@code batch} in their place).
 */
@JsonTypeInfo(
        use = JsonTypeInfo.Id.NAME,
        include = JsonTypeInfo.As.EXISTING_PROPERTY,
        property = "section",
        visible = true)
@JsonSubTypes({
    @JsonSubTypes.Type(value = KernelBitmapRow.Configuration.class, name = "configuration"),
    @JsonSubTypes.Type(value = KernelBitmapRow.Estimate.class, name = "estimate"),
    @JsonSubTypes.Type(value = KernelBitmapRow.Expectation.class, name = "expectation"),
    @JsonSubTypes.Type(value = KernelBitmapRow.Agreement.class, name = "agreement")
})
public sealed interface KernelBitmapRow extends ResultRow {
    /** The row's section: configuration, estimate, expectation or agreement. */
    String section();

    /** What the row is about (a configuration's name, an estimate's, a check). */
    String what();

    @Override
    default List<String> labelParts() {
        return List.of(what());
    }

    /**
     * The runner's timed loop a figure comes from: its bare {@code syscall} instruction, or the kernel selftest's loop.
     */
    enum Loop {
        /** The runner's bare {@code syscall} instruction (fields without a prefix). */
        BARE,
        /** The selftest's loop, glibc's {@code syscall()} with the pid compared (fields prefixed {@code selftest_}). */
        SELFTEST
    }

    /**
     * A measured configuration: the figures of the bare loop and of the selftest's loop (the same
     * {@link LoopFigures}, the selftest's under {@code selftest_}), by code placement, the runs, and
     * last each loop's intervals ({@link LoopIntervals}, the selftest's under {@code selftest_}). Absent
     * figures (older folders) are their {@code NONE}; absent intervals (folders made before them) are null.
     */
    @JsonSerialize(using = FlatRows.Writer.class)
    public record Configuration(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("filters") Long filters,
            @JsonProperty("mode") String mode,
            @JsonProperty("cache") Boolean cache,
            @Flat LoopFigures bare,
            @Flat(prefix = "selftest_") LoopFigures selftest,
            @JsonProperty("clock_step_ns") Long clockStepNs,
            @JsonProperty("batch_calls") Long batchCalls,
            @JsonProperty("published_ns") Long publishedNs,
            @Flat Runs runs,
            @JsonProperty("median_interpolated_ns") Long medianInterpolatedNs,
            @JsonProperty("batch_median_ns_per_call") Long batchMedianNsPerCall,
            @Flat LoopIntervals bareIntervals,
            @Flat(prefix = "selftest_") LoopIntervals selftestIntervals)
            implements KernelBitmapRow {
        /** A loop a folder does not have is {@link LoopFigures#NONE}. */
        public Configuration {
            bare = bare == null ? LoopFigures.NONE : bare;
            selftest = selftest == null ? LoopFigures.NONE : selftest;
        }

        /** The published figure is written even when the printout has none. */
        @Override
        public Set<String> nullsWritten() {
            return Set.of("published_ns");
        }

        /** The figures of {@code loop}. */
        public LoopFigures of(Loop loop) {
            return loop == Loop.BARE ? bare : selftest;
        }

        /** The intervals of {@code loop}, or null (a folder made before them). */
        public LoopIntervals intervals(Loop loop) {
            return loop == Loop.BARE ? bareIntervals : selftestIntervals;
        }

        /**
         * Whether a loop's per-call runs spread over the seeds' 25% ({@code per_call_noisy} or
         * {@code selftest_per_call_noisy}); null when neither is in the row. The batch timings' flags
         * ({@code batch_noisy}, ...) are the table's, not counted here: a row's noise is that of its run
         * medians, as for every other reproduction.
         */
        @Override
        public Boolean noisy() {
            Boolean b = bare.perCall().noisy();
            Boolean s = selftest.perCall().noisy();
            return b == null && s == null ? null : Boolean.TRUE.equals(b) || Boolean.TRUE.equals(s);
        }

        /** The median of every sample of the bare loop timed per call ({@code median_ns}). */
        public Long medianNs() {
            return bare.perCall().medianNs();
        }

        /** Their p99 ({@code p99_ns}). */
        public Long p99Ns() {
            return bare.perCall().p99Ns();
        }

        /** The per-call runs completed ({@code runs_completed}; null in a folder without it). */
        public Long runsCompleted() {
            return runs == null ? null : runs.runsCompleted();
        }

        /** Each run's median of the bare loop timed per call ({@code run_medians_ns}). */
        public List<Long> runMediansNs() {
            return bare.perCall().runMediansNs();
        }

        /** Each placement's per-call median of {@code loop} (null entries: no run at that placement). */
        public List<Long> perCallByPlacement(Loop loop) {
            return of(loop).perCall().nsByPlacement();
        }

        /** Each placement's batch figure (CPU time) of {@code loop}. */
        public List<Long> batchByPlacement(Loop loop) {
            return of(loop).cputime().nsPerCallByPlacement();
        }

        /**
         * Each placement's batch figure on the monotonic clock of {@code loop} (null in folders made before it was
         * measured).
         */
        public List<Long> batchMonotonicByPlacement(Loop loop) {
            return of(loop).monotonic().nsPerCallByPlacement();
        }
    }

    /**
     * One loop's figures by each timing method: per call, and a batch timed on the monotonic clock
     * ({@code batch_monotonic_}) and in CPU time ({@code batch_}).
     */
    record LoopFigures(
            @Flat PerCall perCall,
            @Flat(prefix = "batch_monotonic_") Batch monotonic,
            @Flat(prefix = "batch_") Batch cputime) {
        /** Not measured. */
        public static final LoopFigures NONE = new LoopFigures(null, null, null);

        /** Absent methods are their {@code NONE}. */
        public LoopFigures {
            perCall = perCall == null ? PerCall.NONE : perCall;
            monotonic = monotonic == null ? Batch.NONE : monotonic;
            cputime = cputime == null ? Batch.NONE : cputime;
        }
    }

    /**
     * A loop timed call by call: the per-call figure (interpolated between placements), each run's,
     * each run's placement and each placement's median, their spread, and the samples' median, p99,
     * each run's median and count.
     */
    record PerCall(
            @JsonProperty("per_call_ns") Long ns,
            @JsonProperty("run_medians_interpolated_ns") List<Long> runMediansInterpolatedNs,
            @JsonProperty("run_placements") List<Long> runPlacements,
            @JsonProperty("per_call_ns_by_placement") List<Long> nsByPlacement,
            @JsonProperty("per_call_spread") Double spread,
            @JsonProperty("per_call_noisy") Boolean noisy,
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("p99_ns") Long p99Ns,
            @JsonProperty("run_medians_ns") List<Long> runMediansNs,
            @JsonProperty("samples") Long samples) {
        /** Not measured. */
        public static final PerCall NONE = new PerCall(null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * One loop's confidence intervals, after every other key of the row: the per-call figures'
     * ({@link RowIntervals}: the median and p99 over the per-call runs by order statistics, and the
     * added cost against the configuration with no filter, the Hodges–Lehmann shift of the run medians,
     * with {@code added_ns} the figure it is about), then each batch clock's median ns per call over the
     * batch runs ({@code batch_monotonic_median_ci_}, {@code batch_median_ci_} for CPU time). Null where
     * not computed: no added cost for the configuration with no filter, no batch interval for one run.
     *
     * @param addedNs the per-call median (over all samples) minus the unfiltered configuration's
     * @param perCall the per-call median's, p99's and added cost's intervals
     * @param monotonic the interval of the batch figure on {@code CLOCK_MONOTONIC}
     * @param cputime the interval of the batch figure on {@code CLOCK_PROCESS_CPUTIME_ID}
     */
    record LoopIntervals(
            @JsonProperty("added_ns") Long addedNs,
            @Flat RowIntervals perCall,
            @Flat(prefix = "batch_monotonic_median_ci_") RowIntervals.Ci monotonic,
            @Flat(prefix = "batch_median_ci_") RowIntervals.Ci cputime) {}

    /**
     * A loop timed as a batch by one clock: ns per call, each run's, each run's placement and each
     * placement's figure, their spread, the fastest run and each run's total.
     */
    record Batch(
            @JsonProperty("ns_per_call") Long nsPerCall,
            @JsonProperty("run_ns_per_call") List<Long> runNsPerCall,
            @JsonProperty("run_placements") List<Long> runPlacements,
            @JsonProperty("ns_per_call_by_placement") List<Long> nsPerCallByPlacement,
            @JsonProperty("spread") Double spread,
            @JsonProperty("noisy") Boolean noisy,
            @JsonProperty("fastest_ns_per_call") Long fastestNsPerCall,
            @JsonProperty("totals_ns") List<Long> totalsNs) {
        /** Not measured. */
        public static final Batch NONE = new Batch(null, null, null, null, null, null, null, null);
    }

    /**
     * The runs a row's figures come from: per call and batch, asked and completed (the fewest of any
     * method's), and whether a stop cut them short. Every section has them, after its own figures.
     */
    record Runs(
            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("batch_runs_asked") Long batchRunsAsked,
            @JsonProperty("batch_runs_completed") Long batchRunsCompleted,
            @JsonProperty("interrupted") Boolean interrupted) {}

    /**
     * One part of the same shape for each of the six methods (loop × timing), in the reproduction's
     * order, each under the method's key ({@code bare_per_call_}, {@code bare_batch_monotonic_},
     * {@code bare_batch_cputime_}, the same with {@code selftest_}): {@code ByMethod<Verdicts>} writes
     * {@code bare_per_call_values}, {@code bare_per_call_2020}, ... A method a row does not compare is null
     * ({@link Flat#omit}: the selftest's method is compared with no other).
     *
     * @param <P> the part each method has
     */
    record ByMethod<P extends Record>(
            @Flat(prefix = "bare_per_call_") P barePerCall,
            @Flat(prefix = "bare_batch_monotonic_") P bareBatchMonotonic,
            @Flat(prefix = "bare_batch_cputime_") P bareBatchCputime,
            @Flat(prefix = "selftest_per_call_") P selftestPerCall,
            @Flat(prefix = "selftest_batch_monotonic_") P selftestBatchMonotonic,
            @Flat(prefix = "selftest_batch_cputime_") P selftestBatchCputime) {
        /** The six methods' parts, in the reproduction's order (null: the method has none here). */
        public static <P extends Record> ByMethod<P> of(List<P> parts) {
            if (parts.size() != 6) {
                throw new IllegalArgumentException("six methods, not " + parts.size());
            }
            return new ByMethod<>(parts.get(0), parts.get(1), parts.get(2), parts.get(3), parts.get(4), parts.get(5));
        }

        /** The parts in the reproduction's order; null entries where a method has none. */
        public List<P> all() {
            return Arrays.asList(
                    barePerCall,
                    bareBatchMonotonic,
                    bareBatchCputime,
                    selftestPerCall,
                    selftestBatchMonotonic,
                    selftestBatchCputime);
        }
    }

    /** A method's estimate, ns ({@code <method>_ns}). */
    record Figure(@JsonProperty("ns") Long ns) {}

    /**
     * A method's estimate against the selftest's method's: the relative difference (null when infinite) and
     * whether it is within 20% ({@code <method>_vs_selftests_method}, {@code <method>_within_20pct}).
     */
    record Compared(
            @JsonProperty("vs_selftests_method") Double vsSelftestsMethod,
            @JsonProperty("within_20pct") Boolean within20pct) {}

    /**
     * A method's values of an expectation and its verdicts by the 2020 and the later selftest's rules
     * ({@code <method>_values}, {@code <method>_2020}, {@code <method>_later}: pass, fail or skipped).
     */
    record Verdicts(
            @JsonProperty("values") List<Long> values,
            @JsonProperty("2020") String in2020,
            @JsonProperty("later") String later) {}

    /** Whether a method's entry and per-filter estimates are within 20% of the selftest's method's. */
    record Agrees(@JsonProperty("agree") Boolean agree) {}

    /** Whether a method's expectations fail unexpectedly by the 2020 and by the later rules. */
    record Unexpected(
            @JsonProperty("unexpected_2020") Boolean in2020,
            @JsonProperty("unexpected_later") Boolean later) {}

    /**
     * An estimate (entry cost, per-filter cost) by each method, beside the published one, and for the
     * compared estimates each method against the selftest's method; older folders have {@code harness_ns}
     * and {@code batch_ns} instead of the methods.
     */
    @JsonSerialize(using = FlatRows.Writer.class)
    public record Estimate(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("label") String label,
            @Flat ByMethod<Figure> ns,
            @JsonProperty("published_ns") Long publishedNs,
            @Flat(omit = "selftestBatchCputime") ByMethod<Compared> compared,
            @Flat Runs runs,
            @JsonProperty("harness_ns") Long harnessNs,
            @JsonProperty("batch_ns") Long batchNs,
            @JsonProperty("relative_difference") Double relativeDifference,
            @JsonProperty("agree_within_25pct") Boolean agreeWithin25pct)
            implements KernelBitmapRow {
        private static final Set<String> COMPARED_NULLS = Set.of(
                "published_ns",
                "bare_per_call_vs_selftests_method",
                "bare_batch_monotonic_vs_selftests_method",
                "bare_batch_cputime_vs_selftests_method",
                "selftest_per_call_vs_selftests_method",
                "selftest_batch_monotonic_vs_selftests_method");

        /**
         * The published figure is written even when null; a compared estimate (one with verdicts) also
         * writes each method's difference from the selftest's method, null when infinite.
         */
        @Override
        public Set<String> nullsWritten() {
            boolean judged = compared != null
                    && compared.barePerCall() != null
                    && compared.barePerCall().within20pct() != null;
            return judged ? COMPARED_NULLS : Set.of("published_ns");
        }
    }

    /** A check the published table implies, with each method's verdicts for the 2020 and later kernels. */
    @JsonSerialize(using = FlatRows.Writer.class)
    public record Expectation(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @Flat ByMethod<Verdicts> verdicts,
            @JsonProperty("published_ok") Boolean publishedOk,
            @Flat Runs runs,
            @JsonProperty("harness_values") List<Long> harnessValues,
            @JsonProperty("harness") String harness,
            @JsonProperty("batch_values") List<Long> batchValues,
            @JsonProperty("batch") String batch)
            implements KernelBitmapRow {
        /** The published verdict is written even when the printout has none. */
        @Override
        public Set<String> nullsWritten() {
            return Set.of("published_ok");
        }
    }

    /**
     * Whether the methods agree with the selftest's method: the must-hold ({@code agree}), each other
     * method's agreement, and each method's unexpected failures by both rules.
     */
    @JsonSerialize(using = FlatRows.Writer.class)
    public record Agreement(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("compared") List<String> compared,
            @JsonProperty("agree") Boolean agree,
            @Flat(omit = "selftestBatchCputime") ByMethod<Agrees> each,
            @Flat ByMethod<Unexpected> unexpected,
            @Flat Runs runs,
            @JsonProperty("harness_unexpected") Boolean harnessUnexpected,
            @JsonProperty("batch_unexpected") Boolean batchUnexpected)
            implements KernelBitmapRow {}
}
