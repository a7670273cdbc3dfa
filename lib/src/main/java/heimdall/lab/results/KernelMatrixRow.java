package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce kernel-matrix}'s {@code summary.json}: for one {@code kernel}, a
 * feature predicted and observed ({@code section} "feature"), a quick floor-cost or follower-cost
 * figure ("floor-cost", "follower-cost": the call without and with the filter or follower, and the
 * added cost also as a ratio to the kernel's own unfiltered call), or what kernel-bitmap expects
 * there ("kernel-bitmap"). A kernel run in an emulated guest ({@code emulated}) has figures that
 * compare only as ratios within this folder. A measured row ends with its floor-cost or follower-cost
 * row's intervals ({@link RowIntervals}), absent from folders made before them.
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record KernelMatrixRow(
        @JsonProperty(value = "kernel", required = true) String kernel,

        @JsonProperty(value = "kernel_release", required = true)
        String kernelRelease,

        @JsonProperty(value = "emulated", required = true) Boolean emulated,
        @JsonProperty(value = "section", required = true) String section,
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("reason") String reason,
        @JsonProperty("since") String since,
        @JsonProperty("predicted") String predicted,
        @JsonProperty("observed") String observed,
        @JsonProperty("agrees") Boolean agrees,
        @JsonProperty("note") String note,
        @JsonProperty("median_unfiltered_ns") Long medianUnfilteredNs,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("added_ratio") Double addedRatio,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("interrupted") Boolean interrupted,
        @Flat RowIntervals intervals)
        implements ResultRow {

    /** A row without intervals (a feature, expected or refused row, or a folder made before them). */
    public KernelMatrixRow(
            String kernel,
            String kernelRelease,
            Boolean emulated,
            String section,
            String what,
            String status,
            String reason,
            String since,
            String predicted,
            String observed,
            Boolean agrees,
            String note,
            Long medianUnfilteredNs,
            Long medianNs,
            Long addedNs,
            Double addedRatio,
            Boolean noisy,
            Long runsAsked,
            Long runsCompleted,
            Boolean interrupted) {
        this(
                kernel,
                kernelRelease,
                emulated,
                section,
                what,
                status,
                reason,
                since,
                predicted,
                observed,
                agrees,
                note,
                medianUnfilteredNs,
                medianNs,
                addedNs,
                addedRatio,
                noisy,
                runsAsked,
                runsCompleted,
                interrupted,
                null);
    }

    /** This row with {@code intervals} in place of its own. */
    public KernelMatrixRow withIntervals(RowIntervals intervals) {
        return new KernelMatrixRow(
                kernel,
                kernelRelease,
                emulated,
                section,
                what,
                status,
                reason,
                since,
                predicted,
                observed,
                agrees,
                note,
                medianUnfilteredNs,
                medianNs,
                addedNs,
                addedRatio,
                noisy,
                runsAsked,
                runsCompleted,
                interrupted,
                intervals);
    }

    /** The sections, in the order the table gives them. */
    public static final List<String> SECTIONS = List.of("feature", "floor-cost", "kernel-bitmap", "follower-cost");

    /** A feature row leaves its observation null when nothing could be observed, and says so. */
    @Override
    public Set<String> nullsWritten() {
        return "feature".equals(section) ? Set.of("observed", "agrees") : Set.of();
    }

    /** Whether this row has a measured figure. */
    public boolean measured() {
        return addedNs != null;
    }

    @Override
    public List<String> labelParts() {
        return List.of(kernel, section, what);
    }

    @Override
    public String failure() {
        return "failed".equals(status) || "refused".equals(status) ? reason : null;
    }

    /** This row as seen from a kernel called {@code name} (the guest's part calls its own kernel "host"). */
    public KernelMatrixRow asKernel(String name, boolean emulatedGuest) {
        return new KernelMatrixRow(
                name,
                kernelRelease,
                emulatedGuest,
                section,
                what,
                status,
                reason,
                since,
                predicted,
                observed,
                agrees,
                note,
                medianUnfilteredNs,
                medianNs,
                addedNs,
                addedRatio,
                noisy,
                runsAsked,
                runsCompleted,
                interrupted,
                intervals);
    }
}
