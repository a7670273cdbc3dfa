package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;

/**
 * One row of {@code ./lab reproduce host-load}'s {@code summary.json}: a floor-cost row measured idle
 * or under {@code load}, with each run's p99 ({@code run_p99_ns}) and the same row under the other
 * load ({@code twin_row}). Its fields are the floor-cost row's, flat, between {@code load} and those
 * two; host-load measures no supervisor, reference or cross-row ratio, so the row it holds has none.
 * Null where a folder or a row cut short lacks the field.
 *
 * @param load {@code "idle"} or {@code "loaded"}
 * @param measured the floor-cost row measured under that load
 * @param runP99Ns each run's p99
 * @param twinRow the same row under the other load, or null
 * @param intervals the confidence intervals, after every other key (the measured row's own are not written)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record HostLoadRow(
        @JsonProperty(value = "load", required = true) String load,
        @Flat(omit = "intervals") FloorCostRow measured,
        @JsonProperty("run_p99_ns") List<Long> runP99Ns,
        @JsonProperty("twin_row") Long twinRow,
        @Flat RowIntervals intervals)
        implements MeasuredCallRow {

    /** A host-load row holds a plain floor-cost row: no supervisor, reference, served count or ratio. */
    public HostLoadRow {
        intervals = intervals == null ? RowIntervals.NONE : intervals;
        if (measured == null) {
            throw new IllegalArgumentException("a host-load row holds the floor-cost row it measured");
        }
        if (measured.reference() != null
                || !measured.brokering().equals(FloorCostRow.Brokering.NONE)
                || measured.supervisorServed() != null
                || !measured.ratios().equals(FloorCostRow.Ratios.NONE)) {
            throw new IllegalArgumentException("host-load measures no supervisor, reference or cross-row ratio");
        }
    }

    @Override
    public List<String> labelParts() {
        return List.of(what(), call(), load);
    }
}
