package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce lanes}'s {@code summary.json}: wall time of a batch with
 * {@code workers} worker threads and one collector, per {@link Variant} of checking. Built from parts:
 * the row's {@link Subject} (threads, variant, iterations), its {@link Wall} figures over the batches,
 * the ratio to the unchecked row of the same thread count, the {@link Calls} each batch made, the
 * verification, the {@link Batches} asked and completed, and the {@link Intervals} of the median and
 * of the ratio after every other key. {@link FlatRows} writes the parts' fields flat, in this order,
 * under the keys every folder has. Null where not measured; older folders lack {@code status}, the
 * batch counts and the intervals.
 *
 * <p>Written as lanes writes it: a field is left out when null, except the figures a row not
 * measured still names as null (wall times, spread, noisy, vs_unchecked, verified, failure):
 * {@link #nullsWritten}. A part never reads as null: an absent one is its {@code NONE}.
 *
 * @param subject the threads, the variant and the iterations a thread
 * @param wall the batches' wall-time figures
 * @param vsUnchecked the median over the unchecked row's median, same thread count (1 for unchecked)
 * @param calls the calls each batch made, as verified
 * @param verified whether every batch's counts and checksums were exact
 * @param failure the first batch that was not, and why (null: none)
 * @param samples the measured batches the figures are over
 * @param outcome {@code status}: measured or not measured (null in folders made before it)
 * @param batches the batches asked and completed
 * @param intervals the median's and the ratio's confidence intervals, after every other key (null: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record LanesRow(
        @Flat Subject subject,
        @Flat Wall wall,
        @JsonProperty("vs_unchecked") Double vsUnchecked,
        @Flat Calls calls,
        @JsonProperty("verified") Boolean verified,
        @JsonProperty("failure") String failure,
        @JsonProperty("samples") Long samples,
        @JsonProperty("status") RowStatus outcome,
        @Flat Batches batches,
        @Flat Intervals intervals)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part (the intervals may be null). */
    public LanesRow {
        if (subject == null) {
            throw new IllegalArgumentException("a lanes row names its threads and variant");
        }
        wall = wall == null ? Wall.NONE : wall;
        calls = calls == null ? Calls.NONE : calls;
        batches = batches == null ? Batches.NONE : batches;
    }

    private static final Set<String> NULLS_WRITTEN = Set.of(
            "wall_ms_median", "wall_ms_min", "wall_ms_max", "spread", "noisy", "vs_unchecked", "verified", "failure");

    @Override
    public Set<String> nullsWritten() {
        return NULLS_WRITTEN;
    }

    @Override
    public List<String> labelParts() {
        return List.of(
                subject.workers() + " + " + subject.collectors() + " threads",
                subject.variant().label());
    }

    /** {@code measured} or {@code not measured}; null in folders made before rows had a status. */
    @Override
    public String status() {
        return outcome == null ? null : outcome.label();
    }

    /** Whether the row has figures (a row a stop came before has none). */
    public boolean measured() {
        return outcome == RowStatus.MEASURED || (outcome == null && wall.medianMs() != null);
    }

    /** The foreground workers (tables and plots read it by this name). */
    public Long workers() {
        return subject.workers();
    }

    /** The collectors (one). */
    public Long collectors() {
        return subject.collectors();
    }

    /** The variant of checking. */
    public Variant variant() {
        return subject.variant();
    }

    /** The median wall time of a batch, ms ({@code wall_ms_median}; plots read it by this name). */
    public Double wallMsMedian() {
        return wall.medianMs();
    }

    /** This row with {@code intervals} in place of its own. */
    public LanesRow withIntervals(Intervals intervals) {
        return new LanesRow(subject, wall, vsUnchecked, calls, verified, failure, samples, outcome, batches, intervals);
    }

    /** Whether the row's runs spread over the seeds' 25% rule, from its {@code wall} part; null when it has none. */
    @Override
    public Boolean noisy() {
        return wall == null ? null : wall.noisy();
    }

    /**
     * What a row measures: {@code workers} worker threads and {@code collectors} collectors, each
     * making {@code iterations} iterations, under {@code variant}.
     */
    public record Subject(
            @JsonProperty(value = "workers", required = true)
            Long workers,

            @JsonProperty(value = "collectors", required = true)
            Long collectors,

            @JsonProperty(value = "variant", required = true)
            Variant variant,

            @JsonProperty("iterations") Long iterations) {}

    /**
     * The wall-time figures over the measured batches (warm-up excluded), ms: median, fastest,
     * slowest, spread ((max − min) / median) and whether that is over the seeds' 25%.
     */
    public record Wall(
            @JsonProperty("wall_ms_median") Double medianMs,
            @JsonProperty("wall_ms_min") Double minMs,
            @JsonProperty("wall_ms_max") Double maxMs,
            @JsonProperty("spread") Double spread,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Wall NONE = new Wall(null, null, null, null, null);
    }

    /**
     * The calls a batch made, as its verification counted them: each worker's reads, writes and bytes,
     * the collector's getrusage and sched_yield calls, and the checks every thread made together.
     */
    public record Calls(
            @JsonProperty("reads_per_worker") Long readsPerWorker,
            @JsonProperty("writes_per_worker") Long writesPerWorker,
            @JsonProperty("bytes_per_worker") Long bytesPerWorker,
            @JsonProperty("collector_getrusage") Long collectorGetrusage,
            @JsonProperty("collector_sched_yield") Long collectorSchedYield,
            @JsonProperty("checks_per_batch") Long checksPerBatch) {
        /** Not measured. */
        public static final Calls NONE = new Calls(null, null, null, null, null, null);
    }

    /** The measured batches asked and completed, and whether a stop cut them short. */
    public record Batches(
            @JsonProperty("batches_asked") Long asked,
            @JsonProperty("batches_completed") Long completed,
            @JsonProperty("interrupted") Boolean interrupted) {
        /** Not recorded (folders made before them). */
        public static final Batches NONE = new Batches(null, null, null);
    }

    /**
     * A row's confidence intervals, after all its other keys: of its median wall time over its
     * batches ({@code wall_ms_ci_*}: order statistics over the batches' wall times, distribution-free,
     * {@code heimdall.lab.stats.OrderStatistics}), and of its ratio to the unchecked row of the same
     * thread count ({@code vs_unchecked_ci_*}: the Hodges–Lehmann shift of the logarithms of the two
     * rows' batch wall times with its Mann–Whitney interval, taken back out of logarithms, so the
     * interval of the ratio under a model where a variant scales the wall time; null for the
     * unchecked row itself). Folders made before them have none of these keys.
     *
     * @param wallMs the median wall time's interval, ms, ends to 3 decimals
     * @param vsUnchecked the ratio's interval, ends to 3 decimals (as {@code vs_unchecked}), or null
     */
    public record Intervals(
            @Flat(prefix = "wall_ms_ci_") FigureCi wallMs,
            @Flat(prefix = "vs_unchecked_ci_") FigureCi vsUnchecked) {}

    /**
     * How a row's calls are checked: not at all ({@code unchecked}), or before every call with a
     * cursor over one prepared layout's tables, by the layout's name ({@code dfa-offsets}); every
     * layout of {@code graph.prepared.Layout} has its variant, by the same name.
     */
    public enum Variant {
        UNCHECKED,
        HASH,
        HASH_FASTUTIL,
        DFA_WORDS,
        DFA_OFFSETS,
        DFA_COMPACT,
        DFA_MIN_WORDS,
        DFA_MIN_OFFSETS,
        DFA_MIN_COMPACT,
        DFA_MIN_NARROW;

        /** As written: the name in lower case, words joined by {@code -} ({@code dfa-min-offsets}). */
        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Whether the calls are checked (every variant but {@link #UNCHECKED}). */
        public boolean checked() {
            return this != UNCHECKED;
        }

        /** The variant {@code label} names; IllegalArgumentException for another. */
        public static Variant of(String label) {
            return Arrays.stream(values())
                    .filter(v -> v.label().equals(label))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown lanes variant \"" + label + "\""));
        }

        /** The label, so a plot's series and a table's cell read as summary.json does. */
        @Override
        public String toString() {
            return label();
        }
    }
}
