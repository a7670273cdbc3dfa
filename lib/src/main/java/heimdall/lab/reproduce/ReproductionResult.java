package heimdall.lab.reproduce;

import heimdall.lab.bench.Interruption;
import heimdall.lab.results.ResultRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a reproduction wrote: its folder and the rows of its {@code summary.json}, typed.
 *
 * @param folder the results folder
 * @param summary the summary rows, as written
 * @param interruption the signal that stopped the measurement, if one did
 */
public record ReproductionResult(Path folder, List<? extends ResultRow> summary, Optional<Interruption.Cause> interruption) {
    /** A run that measured everything it was asked to. */
    public ReproductionResult(Path folder, List<? extends ResultRow> summary) {
        this(folder, summary, Optional.empty());
    }

    /** Rows whose measurement did not complete ({@code status} failed). */
    public List<ResultRow> failed() {
        return summary.stream().<ResultRow>map(r -> r).filter(r -> "failed".equals(r.status())).toList();
    }

    /** Whether the folder holds a summary (an interruption before any run leaves none). */
    public boolean written() {
        return Files.isRegularFile(folder.resolve("summary.json"));
    }
}
