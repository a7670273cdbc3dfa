package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a reproduction wrote: its folder and the rows of its {@code summary.json}.
 *
 * @param folder the results folder
 * @param summary the summary rows, as written
 * @param interruption the signal that stopped the measurement, if one did
 * @param failures failures that are not a row's (a verification across rows), one line each
 * @param report lines printed after the table (a reproduction's headline figures)
 */
public record ReproductionResult(Path folder, List<Map<String, Object>> summary, Optional<Interruption.Cause> interruption,
        List<String> failures, List<String> report) {
    public ReproductionResult {
        failures = List.copyOf(failures);
        report = List.copyOf(report);
    }

    /** A result whose failures are all rows' ({@code status: failed}) and with no report lines. */
    public ReproductionResult(Path folder, List<Map<String, Object>> summary, Optional<Interruption.Cause> interruption) {
        this(folder, summary, interruption, List.of(), List.of());
    }

    /** A run that measured everything it was asked to. */
    public ReproductionResult(Path folder, List<Map<String, Object>> summary) {
        this(folder, summary, Optional.empty());
    }

    /** Rows whose measurement did not complete. */
    public List<Map<String, Object>> failed() {
        return summary.stream().filter(r -> "failed".equals(r.get("status"))).toList();
    }

    /** Every failure, one line each: the failed rows, then the others. */
    public List<String> failureLines() {
        return Stream.concat(failed().stream().map(f -> f.get("what") + " · " + f.get("call") + ": " + f.get("failure")),
                failures.stream()).toList();
    }

    /** Whether the folder holds a summary (an interruption before any run leaves none). */
    public boolean written() {
        return Files.isRegularFile(folder.resolve("summary.json"));
    }
}
