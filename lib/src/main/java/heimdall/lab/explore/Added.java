package heimdall.lab.explore;

import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What one measurement adds over another: floor-cost's {@code added} (median minus the baseline's
 * median), the ratio of the medians and the p99s side by side.
 *
 * @param measured the call under its floor (or brokered)
 * @param baseline the call it is compared with
 */
public record Added(Measurement measured, Measurement baseline) {
    /** Median minus the baseline's median, ns. */
    public long addedNs() {
        return measured.median() - baseline.median();
    }

    /** Median over the baseline's median. */
    public double ratio() {
        return baseline.median() == 0 ? Double.NaN : (double) measured.median() / baseline.median();
    }

    /**
     * The 95% interval of {@link #addedNs()}: the Hodges–Lehmann shift of the run medians with its
     * Mann–Whitney interval ({@link heimdall.lab.stats.MannWhitney#shift}), distribution-free, about the
     * added figure itself.
     */
    public heimdall.lab.stats.Interval ci() {
        return ci(heimdall.lab.stats.Intervals.LEVEL);
    }

    /** {@link #ci()} at another confidence {@code level}, in (0, 1). */
    public heimdall.lab.stats.Interval ci(double level) {
        return heimdall.lab.stats.Intervals.added(measured.runs().toArray(long[][]::new),
                baseline.runs().toArray(long[][]::new), level);
    }

    /** One row: both medians, the added cost, both p99s. */
    public Table table() {
        return Table.create("added: " + measured.label() + " over " + baseline.label(),
                StringColumn.create("what", measured.label()),
                StringColumn.create("over", baseline.label()),
                LongColumn.create("median_ns", measured.median()),
                LongColumn.create("median_base_ns", baseline.median()),
                LongColumn.create("added_ns", addedNs()),
                DoubleColumn.create("ratio", Math.round(ratio() * 1000) / 1000.0),
                LongColumn.create("p99_ns", measured.p99()),
                LongColumn.create("p99_base_ns", baseline.p99()));
    }

    /** Both distributions on one ECDF. */
    public XYChart plot() {
        return Measurement.plot(measured, baseline);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s adds %,d ns over %s (%.3f×)", measured.label(), addedNs(),
                baseline.label(), ratio());
    }
}
