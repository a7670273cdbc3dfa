package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
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
            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("batch_runs_asked") Long batchRunsAsked,
            @JsonProperty("batch_runs_completed") Long batchRunsCompleted,
            @JsonProperty("interrupted") Boolean interrupted,
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

    /** An estimate (entry cost, per-filter cost) by each method, beside the published one and the selftest's method. */
    public record Estimate(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("label") String label,
            @JsonProperty("bare_per_call_ns") Long barePerCallNs,
            @JsonProperty("bare_batch_monotonic_ns") Long bareBatchMonotonicNs,
            @JsonProperty("bare_batch_cputime_ns") Long bareBatchCputimeNs,
            @JsonProperty("selftest_per_call_ns") Long selftestPerCallNs,
            @JsonProperty("selftest_batch_monotonic_ns") Long selftestBatchMonotonicNs,
            @JsonProperty("selftest_batch_cputime_ns") Long selftestBatchCputimeNs,
            @JsonProperty("published_ns") Long publishedNs,

            @JsonProperty("bare_per_call_vs_selftests_method")
            Double barePerCallVsSelftestsMethod,

            @JsonProperty("bare_per_call_within_20pct") Boolean barePerCallWithin20pct,

            @JsonProperty("bare_batch_monotonic_vs_selftests_method")
            Double bareBatchMonotonicVsSelftestsMethod,

            @JsonProperty("bare_batch_monotonic_within_20pct")
            Boolean bareBatchMonotonicWithin20pct,

            @JsonProperty("bare_batch_cputime_vs_selftests_method")
            Double bareBatchCputimeVsSelftestsMethod,

            @JsonProperty("bare_batch_cputime_within_20pct") Boolean bareBatchCputimeWithin20pct,

            @JsonProperty("selftest_per_call_vs_selftests_method")
            Double selftestPerCallVsSelftestsMethod,

            @JsonProperty("selftest_per_call_within_20pct") Boolean selftestPerCallWithin20pct,

            @JsonProperty("selftest_batch_monotonic_vs_selftests_method")
            Double selftestBatchMonotonicVsSelftestsMethod,

            @JsonProperty("selftest_batch_monotonic_within_20pct")
            Boolean selftestBatchMonotonicWithin20pct,

            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("batch_runs_asked") Long batchRunsAsked,
            @JsonProperty("batch_runs_completed") Long batchRunsCompleted,
            @JsonProperty("interrupted") Boolean interrupted,
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
            return barePerCallWithin20pct != null ? COMPARED_NULLS : Set.of("published_ns");
        }
    }

    /** A check the published table implies, with each method's verdict for the 2020 and later kernels. */
    public record Expectation(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("bare_per_call_values") List<Long> barePerCallValues,
            @JsonProperty("bare_per_call_2020") String barePerCall2020,
            @JsonProperty("bare_per_call_later") String barePerCallLater,
            @JsonProperty("bare_batch_monotonic_values") List<Long> bareBatchMonotonicValues,
            @JsonProperty("bare_batch_monotonic_2020") String bareBatchMonotonic2020,
            @JsonProperty("bare_batch_monotonic_later") String bareBatchMonotonicLater,
            @JsonProperty("bare_batch_cputime_values") List<Long> bareBatchCputimeValues,
            @JsonProperty("bare_batch_cputime_2020") String bareBatchCputime2020,
            @JsonProperty("bare_batch_cputime_later") String bareBatchCputimeLater,
            @JsonProperty("selftest_per_call_values") List<Long> selftestPerCallValues,
            @JsonProperty("selftest_per_call_2020") String selftestPerCall2020,
            @JsonProperty("selftest_per_call_later") String selftestPerCallLater,
            @JsonProperty("selftest_batch_monotonic_values") List<Long> selftestBatchMonotonicValues,
            @JsonProperty("selftest_batch_monotonic_2020") String selftestBatchMonotonic2020,
            @JsonProperty("selftest_batch_monotonic_later") String selftestBatchMonotonicLater,
            @JsonProperty("selftest_batch_cputime_values") List<Long> selftestBatchCputimeValues,
            @JsonProperty("selftest_batch_cputime_2020") String selftestBatchCputime2020,
            @JsonProperty("selftest_batch_cputime_later") String selftestBatchCputimeLater,
            @JsonProperty("published_ok") Boolean publishedOk,
            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("batch_runs_asked") Long batchRunsAsked,
            @JsonProperty("batch_runs_completed") Long batchRunsCompleted,
            @JsonProperty("interrupted") Boolean interrupted,
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

    /** Whether the methods agree with the selftest's method. */
    public record Agreement(
            @JsonProperty(value = "section", required = true)
            String section,

            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty("compared") List<String> compared,
            @JsonProperty("agree") Boolean agree,
            @JsonProperty("bare_per_call_agree") Boolean barePerCallAgree,
            @JsonProperty("bare_batch_monotonic_agree") Boolean bareBatchMonotonicAgree,
            @JsonProperty("bare_batch_cputime_agree") Boolean bareBatchCputimeAgree,
            @JsonProperty("selftest_per_call_agree") Boolean selftestPerCallAgree,
            @JsonProperty("selftest_batch_monotonic_agree") Boolean selftestBatchMonotonicAgree,
            @JsonProperty("bare_per_call_unexpected_2020") Boolean barePerCallUnexpected2020,
            @JsonProperty("bare_per_call_unexpected_later") Boolean barePerCallUnexpectedLater,

            @JsonProperty("bare_batch_monotonic_unexpected_2020")
            Boolean bareBatchMonotonicUnexpected2020,

            @JsonProperty("bare_batch_monotonic_unexpected_later")
            Boolean bareBatchMonotonicUnexpectedLater,

            @JsonProperty("bare_batch_cputime_unexpected_2020")
            Boolean bareBatchCputimeUnexpected2020,

            @JsonProperty("bare_batch_cputime_unexpected_later")
            Boolean bareBatchCputimeUnexpectedLater,

            @JsonProperty("selftest_per_call_unexpected_2020")
            Boolean selftestPerCallUnexpected2020,

            @JsonProperty("selftest_per_call_unexpected_later")
            Boolean selftestPerCallUnexpectedLater,

            @JsonProperty("selftest_batch_monotonic_unexpected_2020")
            Boolean selftestBatchMonotonicUnexpected2020,

            @JsonProperty("selftest_batch_monotonic_unexpected_later")
            Boolean selftestBatchMonotonicUnexpectedLater,

            @JsonProperty("selftest_batch_cputime_unexpected_2020")
            Boolean selftestBatchCputimeUnexpected2020,

            @JsonProperty("selftest_batch_cputime_unexpected_later")
            Boolean selftestBatchCputimeUnexpectedLater,

            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("batch_runs_asked") Long batchRunsAsked,
            @JsonProperty("batch_runs_completed") Long batchRunsCompleted,
            @JsonProperty("interrupted") Boolean interrupted,
            @JsonProperty("harness_unexpected") Boolean harnessUnexpected,
            @JsonProperty("batch_unexpected") Boolean batchUnexpected)
            implements KernelBitmapRow {}
}
