package heimdall.lab.reproduce;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a reproduction wrote: its folder and the rows of its {@code summary.json}.
 *
 * @param folder the results folder
 * @param summary the summary rows, as written
 */
public record ReproductionResult(Path folder, List<Map<String, Object>> summary) {
    /** Rows whose measurement did not complete. */
    public List<Map<String, Object>> failed() {
        return summary.stream().filter(r -> "failed".equals(r.get("status"))).toList();
    }
}
