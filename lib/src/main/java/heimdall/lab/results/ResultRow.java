package heimdall.lab.results;

import java.util.List;
import java.util.Set;

/**
 * One row of a results folder's {@code summary.json}, typed by the reproduction that wrote it
 * ({@link ReproductionKind} maps each reproduction's name to its row type). Rows are records whose
 * components are the JSON's fields, read and written with Jackson under their snake_case names. Not sealed: a
 * new reproduction adds its row record and registers its kind, and no list here names it.
 */
public interface ResultRow {

    /**
     * A short label's parts (what, call, supervisor, placement, ...), so a plot can drop the parts every row of a group
     * shares.
     */
    List<String> labelParts();

    /**
     * The fields this row's writer puts in summary.json as {@code null} when they are null; every
     * other null field is left out (a row kind without the field, or a figure not measured). Lets a
     * record write exactly what its reproduction always wrote: {@link SummaryJson#tree}.
     */
    default Set<String> nullsWritten() {
        return Set.of();
    }

    /**
     * The row's status as written ({@code ok}, {@code measured}, {@code failed}, {@code not measured}, ...), or null
     * for rows without one.
     */
    default String status() {
        return null;
    }

    /** Why the row failed, as written, or null (not failed, or a row kind that does not say). */
    default String failure() {
        return null;
    }

    /**
     * Whether the row's runs spread over the seeds' 25% rule, as written; null for rows that do not say.
     * A row with a {@code noisy} field answers from it (its record accessor); a row whose flags are named
     * otherwise answers from them (kernel-bitmap's configurations, from each loop's per-call flag).
     */
    default Boolean noisy() {
        return null;
    }

    /** Each run's load average, as written; null for rows that do not record it. */
    default List<Double> loadAvgRuns() {
        return null;
    }

    /** The parts of {@link #labelParts} joined with " · ". */
    default String label() {
        return String.join(" · ", labelParts());
    }
}
