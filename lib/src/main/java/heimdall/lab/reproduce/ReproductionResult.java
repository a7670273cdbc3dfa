package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.results.ResultRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a reproduction wrote: its folder and the rows of its {@code summary.json}, typed.
 *
 * @param folder the results folder
 * @param summary the summary rows, as written
 * @param interruption the signal that stopped the measurement, if one did
 * @param failures failures that are not a row's (a verification across rows), one line each
 * @param report lines printed after the table (a reproduction's headline figures)
 */
public record ReproductionResult(
        Path folder,
        List<? extends ResultRow> summary,
        Optional<Interruption.Cause> interruption,
        List<String> failures,
        List<String> report) {
    public ReproductionResult {
        failures = List.copyOf(failures);
        report = List.copyOf(report);
    }

    /** A result whose failures are all rows' ({@code status: failed}) and with no report lines. */
    public ReproductionResult(
            Path folder, List<? extends ResultRow> summary, Optional<Interruption.Cause> interruption) {
        this(folder, summary, interruption, List.of(), List.of());
    }

    /** A run that measured everything it was asked to. */
    public ReproductionResult(Path folder, List<? extends ResultRow> summary) {
        this(folder, summary, Optional.empty());
    }

    /** Rows whose measurement did not complete ({@code status} failed). */
    public List<ResultRow> failed() {
        return summary.stream()
                .<ResultRow>map(r -> r)
                .filter(r -> "failed".equals(r.status()))
                .toList();
    }

    /** Every failure, one line each: the failed rows, then the others. */
    public List<String> failureLines() {
        return Stream.concat(failed().stream().map(f -> f.label() + ": " + f.failure()), failures.stream())
                .toList();
    }

    /** Whether the folder holds a summary (an interruption before any run leaves none). */
    public boolean written() {
        return Files.isRegularFile(folder.resolve("summary.json"));
    }
}
