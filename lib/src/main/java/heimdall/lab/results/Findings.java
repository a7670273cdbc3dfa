package heimdall.lab.results;

import java.util.List;

/**
 * The findings a kind puts on the first screen itself, when one headline per row name is not what its reader
 * asks first (workload-cost: the largest overhead per mechanism, each with its interval). Already text, so the
 * first screen reads no key of any kind.
 *
 * @param title the line above them, saying what they are and what their intervals are over
 * @param lines one a finding, most important first
 */
public record Findings(String title, List<String> lines) {
    public Findings {
        lines = List.copyOf(lines);
    }
}
