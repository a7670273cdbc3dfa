package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One row of {@code ./lab reproduce graph-lookup}'s {@code summary.json}: a graph replayed on a trace
 * with one prepared layout, in nanoseconds per event, or the reason it was not measured. Built from
 * parts: the graph's {@link Size}, its {@link Preparation}, the {@link Digests} of its files, the
 * {@link Batches} asked and completed, the measured {@link Figures}, the {@link Speedups} over the
 * case's hash baselines, the {@link Published} twin and the median's interval ({@link RowIntervals}).
 * {@link FlatRows} writes the parts' fields flat, in this order, under the keys every folder has.
 * A figure is null where not measured or where an older folder lacks the field;
 * {@code rejections_agree} is written (false) only on the rows of a case whose layouts disagreed.
 *
 * <p>A part never reads as null but {@code intervals}: an absent one is its {@code NONE} (every
 * field null). {@code intervals} is null on rows not measured and in folders made before intervals.
 *
 * @param graph the graph's name ({@code broker}, {@code synthetic-4096}, an external graph's)
 * @param trace the trace replayed ({@code walk main}, {@code hot}, {@code broad})
 * @param layout the prepared layout, as {@code --layouts} spells it
 * @param size the graph's and the machine's size, and the trace's events
 * @param preparation what preparing the layout took, outside the timed loop
 * @param digests the imported graph's files (none for a synthetic graph)
 * @param auto whether {@code auto} picks this layout for the graph
 * @param batches the batches asked and completed
 * @param outcome {@code status}: measured, refused or not measured
 * @param reason why the row was not measured, or null
 * @param figures the measured batches' figures, ns per event
 * @param speedups the case's hash baselines' medians over this row's
 * @param rejections the events the trace's replay rejected (the same in every batch and layout)
 * @param samples the measured batches the figures are over
 * @param rejectionsAgree false when the case's layouts disagreed on rejections (null: they agreed)
 * @param published the seed's figure beside ours, where it has one
 * @param intervals the median's interval over the measured batches, after every other key (null: none).
 *     Its keys say {@code _ns} as every row's do ({@code median_ci_low_ns}), but here the unit is ns per
 *     event, the unit of {@code ns_per_event_median}; its ends are whole nanoseconds rounded outward, so
 *     for a layout of a few ns per event they are coarse (never narrower than the batches allow).
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record GraphLookupRow(
        @JsonProperty(value = "graph", required = true) String graph,
        @JsonProperty(value = "trace", required = true) String trace,
        @JsonProperty(value = "layout", required = true) String layout,
        @Flat Size size,
        @Flat Preparation preparation,
        @Flat Digests digests,
        @JsonProperty("auto") Boolean auto,
        @Flat Batches batches,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("reason") String reason,
        @Flat Figures figures,
        @Flat Speedups speedups,
        @JsonProperty("rejections") Long rejections,
        @JsonProperty("samples") Long samples,
        @JsonProperty("rejections_agree") Boolean rejectionsAgree,
        @Flat Published published,
        @Flat RowIntervals intervals)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part (but {@code intervals}). */
    public GraphLookupRow {
        if (outcome == null) {
            throw new IllegalArgumentException("a graph-lookup row has a status");
        }
        size = size == null ? Size.NONE : size;
        preparation = preparation == null ? Preparation.NONE : preparation;
        digests = digests == null ? Digests.NONE : digests;
        batches = batches == null ? Batches.NONE : batches;
        figures = figures == null ? Figures.NONE : figures;
        speedups = speedups == null ? Speedups.NONE : speedups;
        published = published == null ? Published.NONE : published;
    }

    /**
     * The graph's sites, the machine's states and transitions (null for the hash layouts, which follow
     * the graph itself; the minimized machine's for {@code dfa-min-*}) and the trace's events.
     */
    public record Size(
            @JsonProperty("sites") Long sites,
            @JsonProperty("states") Long states,
            @JsonProperty("transitions") Long transitions,
            @JsonProperty("events") Long events) {
        /** Not recorded. */
        public static final Size NONE = new Size(null, null, null, null);
    }

    /**
     * Compile (+ minimize) + building the layout, in ms; the graph's import, in ms (null: a synthetic
     * graph); the layout's tables in bytes (null: not measured, the hash layouts).
     */
    public record Preparation(
            @JsonProperty("prep_ms") Double prepMs,
            @JsonProperty("import_ms") Double importMs,
            @JsonProperty("payload_bytes") Long payloadBytes) {
        /** Not recorded. */
        public static final Preparation NONE = new Preparation(null, null, null);
    }

    /** Whether pins vouched for the imported graph's files, and their SHA-256 (all null: a synthetic graph). */
    public record Digests(
            @JsonProperty("pinned") Boolean pinned,
            @JsonProperty("nodes_sha256") String nodesSha256,
            @JsonProperty("edges_sha256") String edgesSha256) {
        /** A synthetic graph's: no files. */
        public static final Digests NONE = new Digests(null, null, null);
    }

    /** The measured batches asked and completed, and whether a stop cut them short. */
    public record Batches(
            @JsonProperty("batches_asked") Long asked,
            @JsonProperty("batches_completed") Long completed,
            @JsonProperty("interrupted") Boolean interrupted) {
        /** Not recorded (a folder made before batches were counted). */
        public static final Batches NONE = new Batches(null, null, null);
    }

    /**
     * The measured batches' figures, ns per event: their median, fastest and slowest, the spread
     * ((max − min) / median) and whether it is over the seeds' 25%.
     */
    public record Figures(
            @JsonProperty("ns_per_event_median") Double median,
            @JsonProperty("ns_per_event_min") Double min,
            @JsonProperty("ns_per_event_max") Double max,
            @JsonProperty("spread") Double spread,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Figures NONE = new Figures(null, null, null, null, null);
    }

    /**
     * The case's {@code hash} median (our own map) and {@code hash-fastutil} median over this row's,
     * from the same run; null where that baseline was not measured, never estimated.
     */
    public record Speedups(
            @JsonProperty("speedup_vs_hash") Double vsHash,
            @JsonProperty("speedup_vs_hash_fastutil") Double vsHashFastutil) {
        /** No baseline. */
        public static final Speedups NONE = new Speedups(null, null);
    }

    /**
     * The seed's published figure for this layout of the broker graph, with that graph's sites and
     * states, and whether ours is the same graph (same sites and states); all null: none published.
     */
    public record Published(
            @JsonProperty("published_ns_per_event") Double nsPerEvent,
            @JsonProperty("published_sites") Long sites,
            @JsonProperty("published_states") Long states,
            @JsonProperty("same_graph_as_published") Boolean sameGraph) {
        /** No published twin. */
        public static final Published NONE = new Published(null, null, null, null);
    }

    /**
     * Every field but {@code reason}, {@code rejections_agree} and the intervals is written, null or
     * not, as graph-lookup always wrote it.
     */
    private static final Set<String> NULLS_WRITTEN = FlatRows.keys(GraphLookupRow.class, "").stream()
            .filter(k -> !k.equals("reason") && !k.equals("rejections_agree") && !k.contains("_ci_"))
            .collect(Collectors.toUnmodifiableSet());

    private static final Set<String> NULLS_WRITTEN_NOT_MEASURED =
            NULLS_WRITTEN.stream().filter(f -> !f.equals("samples")).collect(Collectors.toUnmodifiableSet());

    /** A row not measured (refused, or a stop came first) names its figures as null but has no {@code samples}. */
    @Override
    public Set<String> nullsWritten() {
        return outcome == RowStatus.MEASURED ? NULLS_WRITTEN : NULLS_WRITTEN_NOT_MEASURED;
    }

    @Override
    public String status() {
        return outcome.label();
    }

    @Override
    public List<String> labelParts() {
        return List.of(graph + " / " + trace + " / " + layout);
    }

    /** Whether the row has figures (it was prepared and measured). */
    public boolean measured() {
        return figures.median() != null;
    }
}
