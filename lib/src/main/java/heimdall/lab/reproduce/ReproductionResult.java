package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a reproduction's body hands the framework: the run it {@link Recorded} (rows, settings, host) for
 * the framework to write ({@link Kept#keep}), whether a stop cut it short, and what is printed after the
 * table. A body that measured nothing returns {@link #nothing}. A notebook's entry point, once the
 * framework has kept the run, hands back a result naming the folder.
 *
 * @param folder where the framework put the folder (a notebook entry point's result); null in a body's
 * @param summary the summary rows
 * @param interruption the signal that stopped the measurement, if one did
 * @param failures failures that are not a row's (a verification across rows), one line each
 * @param report lines printed after the table (a reproduction's headline figures)
 * @param recorded the run for the framework to write; null once kept, or when nothing was measured
 */
public record ReproductionResult(
        Path folder,
        List<? extends ResultRow> summary,
        Optional<Interruption.Cause> interruption,
        List<String> failures,
        List<String> report,
        Pending recorded) {
    public ReproductionResult {
        failures = List.copyOf(failures);
        report = List.copyOf(report);
        Objects.requireNonNull(interruption);
    }

    /** A run the framework writes: its kind and what it recorded, typed together. */
    public record Pending(Writer writer) {
        /** Writes the run's files into {@code folder}. */
        void writeInto(ResultsFolder folder) {
            writer.writeInto(folder);
        }
    }

    /** How a recorded run is written: {@link ResultsFolder#write} with its kind, typed at {@link #of}. */
    @FunctionalInterface
    interface Writer {
        void writeInto(ResultsFolder folder);
    }

    /**
     * A run that measured rows, for the framework to write: {@code summary.json}, {@code environment.json} and
     * {@code table.md} from {@code run}, the table by {@code kind}.
     */
    public static <R extends ResultRow, S> ReproductionResult of(
            ReproductionKind<R, S> kind,
            Recorded<R, S> run,
            Optional<Interruption.Cause> interruption,
            List<String> report) {
        return new ReproductionResult(
                null,
                run.rows(),
                interruption,
                run.failures(),
                report,
                new Pending(folder -> folder.write(kind, run, interruption)));
    }

    /** A run that measured rows and has no report lines. */
    public static <R extends ResultRow, S> ReproductionResult of(
            ReproductionKind<R, S> kind, Recorded<R, S> run, Optional<Interruption.Cause> interruption) {
        return of(kind, run, interruption, List.of());
    }

    /** A run stopped (or failed) before anything was measured: nothing to write. */
    public static ReproductionResult nothing(Optional<Interruption.Cause> interruption) {
        return new ReproductionResult(null, List.of(), interruption, List.of(), List.of(), null);
    }

    /** A kept run's result: failures all rows' ({@code status: failed}), no report lines. */
    public ReproductionResult(
            Path folder, List<? extends ResultRow> summary, Optional<Interruption.Cause> interruption) {
        this(folder, summary, interruption, List.of(), List.of(), null);
    }

    /** A kept run's result that measured everything it was asked to. */
    public ReproductionResult(Path folder, List<? extends ResultRow> summary) {
        this(folder, summary, Optional.empty());
    }

    /** A kept run's result, with failures beside its rows' and report lines. */
    public ReproductionResult(
            Path folder,
            List<? extends ResultRow> summary,
            Optional<Interruption.Cause> interruption,
            List<String> failures,
            List<String> report) {
        this(folder, summary, interruption, failures, report, null);
    }

    /** Rows whose measurement did not complete ({@code status} failed). */
    public List<ResultRow> failed() {
        return summary.stream()
                .<ResultRow>map(r -> r)
                .filter(r -> RowStatus.FAILED.label().equals(r.status()))
                .toList();
    }

    /** Every failure, one line each: the failed rows, then the others. */
    public List<String> failureLines() {
        return Stream.concat(failed().stream().map(f -> f.label() + ": " + f.failure()), failures.stream())
                .toList();
    }

    /** Whether anything was measured to keep: a recorded run, or a kept folder holding a summary. */
    public boolean written() {
        return recorded != null || (folder != null && Files.isRegularFile(folder.resolve("summary.json")));
    }
}
