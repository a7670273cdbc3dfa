package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce kernel-matrix}'s {@code summary.json}: for one {@link Kernel}, a
 * feature predicted and observed ({@link Section#FEATURE}), a quick floor-cost or follower-cost figure
 * ({@link Section#FLOOR_COST}, {@link Section#FOLLOWER_COST}: the call without and with the filter or
 * follower, and the added cost also as a ratio to the kernel's own unfiltered call), what
 * kernel-bitmap expects there ({@link Section#KERNEL_BITMAP}), what a Landlock ruleset becomes there
 * ({@link Section#LANDLOCK}: refused, rights dropped, or enforced, as a real child saw it), or a kernel whose part
 * did not run
 * ({@link Section#KERNEL}). A kernel run in an emulated guest ({@code emulated}) has figures that
 * compare only as ratios within this folder. Built from parts, written flat by {@link FlatRows} in this
 * order under the keys every folder has: the kernel, the row's section, name and status, the
 * {@link Prediction} and its note, the {@link Figures}, the runs ({@link RunCounts}) and, for a measured
 * row, its floor-cost or follower-cost row's intervals ({@link RowIntervals}, absent from folders made
 * before them).
 *
 * <p>A part never reads as null: an absent one is its {@code NONE} (every field null).
 *
 * @param kernel the kernel the row is of, its release and whether it ran emulated
 * @param section which kind of row
 * @param what the row's name within its section (a feature, a floor-cost or follower-cost row, a configuration)
 * @param outcome {@code status}: ok, not observable, expected, refused, failed or not measured
 * @param reason why the row was refused or failed, or null
 * @param prediction what the version predicts and what was observed (feature and kernel-bitmap rows)
 * @param note how a feature was observed, a kernel-bitmap expectation's basis, a divergence's figure
 * @param figures the measured figures (floor-cost and follower-cost rows)
 * @param runs the runs asked and completed (measured rows)
 * @param intervals the measured row's intervals ({@link RowIntervals#NONE}: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record KernelMatrixRow(
        @Flat Kernel kernel,
        @JsonProperty(value = "section", required = true) Section section,
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("reason") String reason,
        @Flat Prediction prediction,
        @JsonProperty("note") String note,
        @Flat Figures figures,
        @Flat RunCounts runs,
        @Flat RowIntervals intervals)
        implements ResultRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part. */
    public KernelMatrixRow {
        if (kernel == null || section == null || what == null || outcome == null) {
            throw new IllegalArgumentException("a kernel-matrix row names its kernel, section, row and status");
        }
        prediction = prediction == null ? Prediction.NONE : prediction;
        figures = figures == null ? Figures.NONE : figures;
        runs = runs == null ? RunCounts.NONE : runs;
        intervals = intervals == null ? RowIntervals.NONE : intervals;
    }

    /** This row with {@code intervals} in place of its own. */
    public KernelMatrixRow withIntervals(RowIntervals intervals) {
        return new KernelMatrixRow(kernel, section, what, outcome, reason, prediction, note, figures, runs, intervals);
    }

    /** This row as seen from {@code kernel} (the guest's part calls its own kernel "host"). */
    public KernelMatrixRow withKernel(Kernel kernel) {
        return new KernelMatrixRow(kernel, section, what, outcome, reason, prediction, note, figures, runs, intervals);
    }

    /** A feature row leaves its observation null when nothing could be observed, and says so. */
    @Override
    public Set<String> nullsWritten() {
        return section == Section.FEATURE ? Set.of("observed", "agrees") : Set.of();
    }

    @Override
    public String status() {
        return outcome.label();
    }

    /** Whether this row has a measured figure. */
    public boolean measured() {
        return figures.addedNs() != null;
    }

    @Override
    public List<String> labelParts() {
        return List.of(kernel.name(), section.label(), what);
    }

    @Override
    public String failure() {
        return outcome == RowStatus.FAILED || outcome == RowStatus.REFUSED ? reason : null;
    }

    /** Whether the row's runs spread over the seeds' 25% rule, from its {@code figures} part; null when it has none. */
    @Override
    public Boolean noisy() {
        return figures == null ? null : figures.noisy();
    }

    /**
     * The kernel a row is of: its name ({@code host}, {@code debian:6.1}), its release ({@code uname -r};
     * {@code "?"} when its part did not run) and whether it ran in an emulated guest.
     */
    public record Kernel(
            @JsonProperty(value = "kernel", required = true) String name,

            @JsonProperty(value = "kernel_release", required = true)
            String release,

            @JsonProperty(value = "emulated", required = true)
            Boolean emulated) {
        /** Every field is named. */
        public Kernel {
            if (name == null || release == null || emulated == null) {
                throw new IllegalArgumentException("a kernel-matrix row names its kernel, release and emulation");
            }
        }
    }

    /** Which kind of row, as summary.json spells it ({@link #label()}), in the order the table gives them. */
    public enum Section {
        /** A feature predicted from the version and observed. */
        FEATURE("feature"),
        /** A Landlock ruleset on this kernel: refused, or dropping rights, or enforced, as a real child saw it. */
        LANDLOCK("landlock"),
        /** A quick floor-cost row. */
        FLOOR_COST("floor-cost"),
        /** What kernel-bitmap expects on this kernel. */
        KERNEL_BITMAP("kernel-bitmap"),
        /** A quick follower-cost row. */
        FOLLOWER_COST("follower-cost"),
        /** A kernel's one row when its part did not run. */
        KERNEL("kernel");

        private final String label;

        Section(String label) {
            this.label = label;
        }

        /** As written. */
        @JsonValue
        public String label() {
            return label;
        }
    }

    /**
     * What the version predicts and what was observed: the release that brought the feature, the
     * prediction (a kernel-bitmap row: what it expects), the observation (null: not observable) and
     * whether the two agree.
     */
    public record Prediction(
            @JsonProperty("since") String since,
            @JsonProperty("predicted") String predicted,
            @JsonProperty("observed") String observed,
            @JsonProperty("agrees") Boolean agrees) {
        /** Not a prediction. */
        public static final Prediction NONE = new Prediction(null, null, null, null);
    }

    /**
     * A measured row's figures: the kernel's own unfiltered call (or the call without the follower), the
     * call with the filter or follower, the added median, the added cost over the unfiltered call, and
     * whether the runs were noisy.
     */
    public record Figures(
            @JsonProperty("median_unfiltered_ns") Long medianUnfilteredNs,
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("added_ns") Long addedNs,
            @JsonProperty("added_ratio") Double addedRatio,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Figures NONE = new Figures(null, null, null, null, null);
    }
}
