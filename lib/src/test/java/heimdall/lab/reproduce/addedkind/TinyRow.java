package heimdall.lab.reproduce.addedkind;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import heimdall.lab.results.Flat;
import heimdall.lab.results.FlatRows;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import java.util.List;

/**
 * The added kind's row: one timed region ({@code what}), its median and added cost over the empty region, each
 * run's median and the intervals. A row record of a kind the main code has never heard of.
 *
 * @param what the region timed
 * @param outcome measured, or cut short
 * @param runsCompleted the runs measured
 * @param medianNs the median of every sample
 * @param addedNs the median minus the empty region's (null for the empty region itself)
 * @param runMediansNs each run's median
 * @param intervals the median's and added cost's intervals over the runs
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record TinyRow(
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("run_medians_ns") List<Long> runMediansNs,
        @Flat RowIntervals intervals)
        implements ResultRow {
    public TinyRow {
        intervals = intervals == null ? RowIntervals.NONE : intervals;
    }

    @Override
    public String status() {
        return outcome.label();
    }

    @Override
    public List<String> labelParts() {
        return List.of(what);
    }
}
