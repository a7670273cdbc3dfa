package heimdall.lab.results;

import java.util.List;

/**
 * A results folder's {@code summary.json}, typed: which reproduction wrote it, the schema it was
 * written in (1: a bare array of rows, from before the wrapper; 2: the object with
 * {@code schema_version}), whether a signal stopped the run, and its rows as {@link ResultRow}s of
 * {@link ReproductionKind#rowType()}.
 *
 * @param kind the reproduction that wrote the folder
 * @param schemaVersion 1 or {@link SummaryJson#SCHEMA}
 * @param interrupted whether a signal (or a notebook interrupt) stopped the run
 * @param interruption how it was stopped, as announced ({@code "terminated (SIGTERM)"}), or null
 * @param signal the signal's name, or null (none, or a notebook interrupt)
 * @param rows the rows, in file order (index = samples.arrow's {@code row})
 */
public record Summary(
        ReproductionKind<?, ?> kind,
        int schemaVersion,
        boolean interrupted,
        String interruption,
        String signal,
        List<ResultRow> rows) {
    public Summary {
        rows = List.copyOf(rows);
    }

    /**
     * The rows as {@code type}: every row when {@code type} is this kind's row type (or a supertype),
     * the rows of that kind when it is one of its kinds ({@code KernelBitmapRow.Configuration});
     * IllegalArgumentException for a type this folder cannot hold.
     */
    public <T extends ResultRow> List<T> rows(Class<T> type) {
        if (!type.isAssignableFrom(kind.rowType()) && !kind.rowType().isAssignableFrom(type)) {
            throw new IllegalArgumentException("a " + kind.name() + " folder holds "
                    + kind.rowType().getSimpleName() + " rows, not " + type.getSimpleName());
        }
        return rows.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
