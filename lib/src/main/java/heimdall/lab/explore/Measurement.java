package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bench.Stats;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.stats.Intervals;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A measured call: every run's samples (ns a call) and the figures floor-cost reports for a row, over
 * all samples by nearest rank: median, p99, each run's median and their spread.
 *
 * @param label the call and its floors
 * @param floors the floors' names, oldest first (empty: no filter)
 * @param cpu the CPU the children ran on
 * @param placements each run's code placement of the runner's loop
 * @param runs each run's samples, in run order
 * @param runsAsked the runs asked for ({@link #interrupted()}: more than completed)
 * @param interrupted whether a stop ended the measurement before every run
 * @param summary median, p99, min, max over all samples
 * @param runMedians each run's median
 */
public record Measurement(
        String label,
        List<String> floors,
        int cpu,
        List<Integer> placements,
        List<long[]> runs,
        int runsAsked,
        boolean interrupted,
        Stats.Summary summary,
        long[] runMedians)
        implements Displayable {

    public Measurement {
        floors = List.copyOf(floors);
        placements = List.copyOf(placements);
        runs = List.copyOf(runs);
    }

    static Measurement of(
            String label,
            List<String> floors,
            int cpu,
            List<Integer> placements,
            List<long[]> runs,
            int runsAsked,
            boolean interrupted) {
        long[][] all = runs.toArray(long[][]::new);
        return new Measurement(
                label, floors, cpu, placements, runs, runsAsked, interrupted, Stats.ofAll(all), Stats.runMedians(all));
    }

    /** Every sample, runs back to back. */
    public long[] samples() {
        return Stats.concat(runs.toArray(long[][]::new));
    }

    /** The median over all samples (nearest rank, as floor-cost's {@code median_ns}). */
    public long median() {
        return summary.median();
    }

    /** The 99th percentile over all samples (nearest rank). */
    public long p99() {
        return summary.p99();
    }

    /** Samples over all runs. */
    public int count() {
        return summary.count();
    }

    /** (max − min) / median of the run medians. */
    public double spread() {
        return Stats.spread(runMedians);
    }

    /** Whether the spread is over {@link Stats#NOISY_SPREAD}, as the published benches flag it. */
    public boolean noisy() {
        return spread() > Stats.NOISY_SPREAD;
    }

    /**
     * The 95% intervals of the median and the p99, over runs as well as samples: each run's figure is
     * one observation and the interval is the order statistics of those ({@link heimdall.lab.stats.OrderStatistics});
     * one noisy run widens it. With fewer than 6 runs it cannot reach 95% and says the coverage it has
     * ({@link heimdall.lab.stats.Interval#reached()}). {@code added} is null here: see {@link Added#ci()}.
     */
    public Intervals ci() {
        return ci(Intervals.LEVEL);
    }

    /** {@link #ci()} at another confidence {@code level}, in (0, 1). */
    public Intervals ci(double level) {
        return Intervals.of(runs.toArray(long[][]::new), null, level);
    }

    /** What this measurement adds over {@code baseline} (the same call without the floor, say). */
    public Added addedOver(Measurement baseline) {
        if (baseline == null) {
            throw BadInput.at("added over", "baseline", "no measurement given");
        }
        return new Added(this, baseline);
    }

    /**
     * Saves this measurement as an ordinary results folder of floor-cost's kind in {@code dir} (absent,
     * or an empty folder of ours): one row, beside this session's bare measurement of the same call
     * when there is one ({@link Session}); {@code ./lab compare} and {@code Results.load} read it.
     *
     * @throws heimdall.lab.BadInput when it was not measured in this session, or under no floor
     */
    public Path save(Path dir) {
        return Session.current().saveOne(this, dir);
    }

    /** One row: the figures floor-cost reports for a row. */
    public Table table() {
        return Table.create(
                label,
                StringColumn.create("what", label),
                IntColumn.create("runs", new int[] {runs.size()}),
                IntColumn.create("samples", new int[] {count()}),
                LongColumn.create("median_ns", median()),
                LongColumn.create("p99_ns", p99()),
                StringColumn.create("run_medians_ns", Arrays.toString(runMedians)),
                DoubleColumn.create("spread", Math.round(spread() * 1000) / 1000.0),
                BooleanColumn.create("noisy", noisy()),
                BooleanColumn.create("interrupted", interrupted));
    }

    /** One row a run: its code placement, median and p99. */
    public Table runsTable() {
        IntColumn run = IntColumn.create("run");
        IntColumn placement = IntColumn.create("placement");
        LongColumn median = LongColumn.create("median_ns");
        LongColumn p99 = LongColumn.create("p99_ns");
        for (int i = 0; i < runs.size(); i++) {
            Stats.Summary s = Stats.of(runs.get(i));
            run.append(i + 1);
            placement.append(placements.get(i));
            median.append(s.median());
            p99.append(s.p99());
        }
        return Table.create(label + ": runs", run, placement, median, p99);
    }

    /** The distribution of every sample (ECDF). */
    public XYChart plot() {
        return plot(this);
    }

    /** The distributions of several measurements on one ECDF. */
    public static XYChart plot(Measurement... ms) {
        Map<String, double[]> series = new LinkedHashMap<>();
        for (Measurement m : ms) {
            series.put(
                    unique(series, m.label),
                    Arrays.stream(m.samples()).asDoubleStream().toArray());
        }
        // the title says what is plotted; the x axis gives the unit (time per call, ns)
        String what = ms.length == 1 ? ms[0].label : ms.length + " measurements";
        return Plots.ecdf(what + ": time per call, ECDF (ns)", series);
    }

    private static String unique(Map<String, ?> taken, String label) {
        String l = label;
        for (int n = 2; taken.containsKey(l); n++) {
            l = label + " (" + n + ")";
        }
        return l;
    }

    /**
     * The headline figures: runs, samples, median and p99 each with its interval ({@link #ci()}), min,
     * max, the run medians and their spread.
     */
    @Override
    public Table headline() {
        return Headline.of(label)
                .row("floors", floors.isEmpty() ? "none" : String.join(" + ", floors))
                .row("runs", runs.size() + " of " + runsAsked + (interrupted ? " (interrupted)" : ""))
                .row("samples", Headline.count(count()))
                .row("median", Headline.ns(median()), ci().median())
                .row("p99", Headline.ns(p99()), ci().p99())
                .row("min .. max", Headline.ns(summary.min()) + " .. " + Headline.ns(summary.max()))
                .row("run medians", Arrays.toString(runMedians) + " ns")
                .row("spread", String.format(Locale.ROOT, "%.3f%s", spread(), noisy() ? " (noisy)" : ""))
                .row("cpu", cpu)
                .table();
    }

    /** One row a run ({@link #runsTable()}). */
    @Override
    public Table detail() {
        return runsTable();
    }

    /** The ECDF of every sample ({@link #plot()}). */
    @Override
    public XYChart chart() {
        return plot();
    }

    /** The headline, one figure a line, and one line a run. */
    @Override
    public String toString() {
        return text();
    }
}
