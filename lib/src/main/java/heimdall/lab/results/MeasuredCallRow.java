package heimdall.lab.results;

import java.util.List;
import java.util.Set;

/**
 * A row that times one call under a floor against the same call with no filter: floor-cost's rows,
 * and host-load's, which hold one ({@link #measured()}). The figures are read through this view
 * under the names summary.json gives them (nanoseconds; null where not measured), so tables, plots
 * and notebooks treat both kinds alike.
 */
public sealed interface MeasuredCallRow extends ResultRow permits FloorCostRow, HostLoadRow, MechanismsRow {
    /** The floor-cost row measured (the row itself for floor-cost). */
    FloorCostRow measured();

    /** The row's confidence intervals for its median, p99 and added cost (null: a folder made before them). */
    RowIntervals intervals();

    /** The floor's row name (its published row's {@code what}). */
    default String what() {
        return measured().subject().what();
    }

    /** The call timed. */
    default String call() {
        return measured().subject().call();
    }

    /** The floor's published name. */
    default String floor() {
        return measured().subject().floor();
    }

    /** {@code ok}, {@code interrupted}, {@code failed} or {@code not measured}. */
    @Override
    default String status() {
        return measured().outcome().label();
    }

    /** Why the row failed, or null. */
    @Override
    default String failure() {
        return measured().failure();
    }

    /** Instructions the floor runs for this call. */
    default Long insns() {
        return measured().subject().insns();
    }

    /** Whether the kernel's action cache answers this call without running the filter (null: no filter). */
    default Boolean cache() {
        return measured().subject().cache();
    }

    /** Runs asked for. */
    default Long runsAsked() {
        return measured().runs().runsAsked();
    }

    /** Filtered runs completed. */
    default Long runsCompleted() {
        return measured().runs().runsCompleted();
    }

    /** Whether a stop cut the row short. */
    default Boolean interrupted() {
        return measured().runs().interrupted();
    }

    /** Median of every filtered sample. */
    default Long medianNs() {
        return measured().filtered().medianNs();
    }

    /** p99 of every filtered sample. */
    default Long p99Ns() {
        return measured().filtered().p99Ns();
    }

    /** Median of the same call with no filter. */
    default Long medianNoneNs() {
        return measured().unfiltered().medianNs();
    }

    /** {@link #medianNs} minus {@link #medianNoneNs}. */
    default Long addedNs() {
        return measured().addedNs();
    }

    /** Each run's median, filtered. */
    default List<Long> runMediansNs() {
        return measured().filtered().runMediansNs();
    }

    /** Each run's median with no filter (empty where this row shares another row's baseline). */
    default List<Long> runMediansNoneNs() {
        return measured().unfiltered().runMediansNs();
    }

    /** The row whose {@code none} samples are this row's baseline (null: none). */
    default Long baselineRow() {
        return measured().baselineRow();
    }

    /** (max − min) / median of the per-run medians. */
    default Double spread() {
        return measured().filtered().spread();
    }

    /** Whether the spread is over the noisy threshold. */
    default Boolean noisy() {
        return measured().filtered().noisy();
    }

    /** Filtered samples. */
    default Long samples() {
        return measured().filtered().samples();
    }

    /** Each run's load average. */
    @Override
    default List<Double> loadAvgRuns() {
        return measured().loadAvgRuns();
    }

    /** The published row's figures beside ours (null: no published row). */
    default PublishedFloorRow published() {
        return measured().published();
    }

    /** {@link #addedNs} over the published added cost. */
    default Double addedVsPublished() {
        return measured().addedVsPublished();
    }

    @Override
    default Set<String> nullsWritten() {
        return FloorCostRow.MEASURED_NULLS;
    }
}
