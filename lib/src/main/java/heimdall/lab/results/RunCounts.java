package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A row's part saying how many runs were asked and completed and whether a stop cut them short,
 * written flat as {@code runs_asked}, {@code runs_completed} and {@code interrupted} (follower-cost's
 * and kernel-matrix's rows end with it, before their intervals).
 *
 * @param runsAsked the runs asked for
 * @param runsCompleted the runs completed and kept (at most those asked)
 * @param interrupted whether a stop left runs undone
 */
public record RunCounts(
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("interrupted") Boolean interrupted) {
    /** No runs recorded (a row that is not a measurement). */
    public static final RunCounts NONE = new RunCounts(null, null, null);

    /** {@code asked} runs asked, {@code completed} kept, {@code interrupted} whether a stop cut them short. */
    public static RunCounts of(long asked, long completed, boolean interrupted) {
        return new RunCounts(asked, completed, interrupted);
    }
}
