package heimdall.lab.results;

import java.util.List;

/**
 * A row that times one call under a floor against the same call with no filter: floor-cost's and
 * host-load's rows share these figures (nanoseconds; null where not measured), so tables and plots
 * treat them alike.
 */
public sealed interface MeasuredCallRow extends ResultRow permits FloorCostRow, HostLoadRow {
    /** The floor's row name (its published row's {@code what}). */
    String what();

    /** The call timed. */
    String call();

    /** {@code ok}, {@code interrupted}, {@code failed} or {@code not measured}. */
    String status();

    /** Instructions the floor runs for this call. */
    Long insns();

    /** Whether the kernel's action cache answers this call without running the filter (null: no filter). */
    Boolean cache();

    /** Median of every filtered sample. */
    Long medianNs();

    /** p99 of every filtered sample. */
    Long p99Ns();

    /** Median of the same call with no filter. */
    Long medianNoneNs();

    /** {@link #medianNs} minus {@link #medianNoneNs}. */
    Long addedNs();

    /** Each run's median, filtered. */
    List<Long> runMediansNs();

    /** Each run's median with no filter (empty where this row shares another row's baseline). */
    List<Long> runMediansNoneNs();

    /** The row whose {@code none} samples are this row's baseline (null: none). */
    Long baselineRow();

    /** (max − min) / median of the per-run medians. */
    Double spread();

    /** Whether the spread is over the noisy threshold. */
    Boolean noisy();

    /** Filtered samples. */
    Long samples();

    /** Each run's load average. */
    List<Double> loadAvgRuns();

    /** The published row's figures beside ours (null: no published row). */
    PublishedFloorRow published();

    /** {@link #addedNs} over the published added cost. */
    Double addedVsPublished();
}
