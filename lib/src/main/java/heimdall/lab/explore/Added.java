package heimdall.lab.explore;

import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
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
public record Added(Measurement measured, Measurement baseline) implements Displayable {
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
    public Interval ci() {
        return ci(Intervals.LEVEL);
    }

    /** {@link #ci()} at another confidence {@code level}, in (0, 1). */
    public Interval ci(double level) {
        return Intervals.added(
                measured.runs().toArray(long[][]::new), baseline.runs().toArray(long[][]::new), level);
    }

    /** One row: both medians, the added cost, both p99s. */
    public Table table() {
        return Table.create(
                "added: " + measured.label() + " over " + baseline.label(),
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

    /** The headline: the added cost with its interval ({@link #ci()}), the ratio, both medians and p99s. */
    @Override
    public Table headline() {
        return Headline.of("added: " + measured.label() + " over " + baseline.label())
                .row("added", Headline.ns(addedNs()), ci())
                .row("ratio", Headline.ratio(ratio()))
                .row("median", Headline.ns(measured.median()), measured.ci().median())
                .row(
                        "median, baseline",
                        Headline.ns(baseline.median()),
                        baseline.ci().median())
                .row("p99", Headline.ns(measured.p99()), measured.ci().p99())
                .row("p99, baseline", Headline.ns(baseline.p99()), baseline.ci().p99())
                .row(
                        "runs",
                        measured.runs().size() + " and " + baseline.runs().size()
                                + (measured.interrupted() || baseline.interrupted() ? " (interrupted)" : ""))
                .table();
    }

    /** Both distributions on one ECDF ({@link #plot()}). */
    @Override
    public XYChart chart() {
        return plot();
    }

    /** The headline, one figure a line. */
    @Override
    public String toString() {
        return text();
    }
}
