package heimdall.lab.bench;

import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.Intervals;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * One {@code summary.json} row of a floor-cost table, from its measurement: the figures over all
 * samples, each run's median, the spread, and the published figures beside ours. The row is a
 * {@link FloorCostRow} without the cross-row ratios (floor-cost adds those; host-load takes the
 * shared fields into its own row).
 */
public final class FloorSummary {
    private FloorSummary() {}

    /** A notify-loop row's {@code reference} ({@link FloorRow#notifyLoop()}). */
    public static final String NOTIFY_LOOP = "kernel notify loop";

    /** The summary row of {@code m}, measured in full (a failed row keeps what it measured and says why it failed). */
    public static FloorCostRow of(FloorBench.Measured m) {
        return of(m, Math.max(m.runs().size(), m.baseline().size()), false);
    }

    /**
     * The summary row of {@code m}, of which {@code runsAsked} runs were asked; {@code interrupted}
     * when a signal stopped the measurement. {@code status} is {@code "ok"} only for a row with every
     * run it asked for (filtered and baseline); a row cut short says {@code "interrupted"} and how
     * many runs it completed, one with none has no figures at all.
     */
    public static FloorCostRow of(FloorBench.Measured m, int runsAsked, boolean interrupted) {
        return without(m, runsAsked, interrupted).withIntervals(intervals(m.runs(), m.baseline()));
    }

    /**
     * The intervals of a row's median, p99 and added cost from its samples ({@link Intervals#of}, at
     * {@link Intervals#LEVEL}); the added cost's only where the row has its own baseline runs; null
     * for a row with no runs.
     */
    public static RowIntervals intervals(List<long[]> runs, List<long[]> baseline) {
        if (runs.isEmpty()) {
            return null;
        }
        return RowIntervals.of(
                Intervals.of(
                        runs.toArray(long[][]::new),
                        baseline.isEmpty() ? null : baseline.toArray(long[][]::new),
                        Intervals.LEVEL),
                runs.size(),
                baseline.size());
    }

    private static FloorCostRow without(FloorBench.Measured m, int runsAsked, boolean interrupted) {
        FloorRow row = m.row();
        // A reference row installs no filter: nothing to cache. It is the host's floor for a round
        // trip: a partner thread, not a supervisor, in the same place.
        boolean reference = row.reference();
        String referenceText = !reference
                ? null
                : row.notifyLoop()
                        ? NOTIFY_LOOP
                        : row.baselineCall() == null
                                ? "pipe ping-pong"
                                : "pipe ping-pong, then "
                                        + row.baselineCall().kind().name().toLowerCase(Locale.ROOT);
        // A reference row has no unfiltered twin: it is complete with its own runs.
        boolean complete = m.runs().size() >= runsAsked
                && (row.baselineCall() == null || m.baseline().size() >= runsAsked);
        FloorCostRow.Figures f = figures(m.runs());
        FloorCostRow.Figures none = figures(m.baseline());
        Long added = f.medianNs() != null && none.medianNs() != null ? f.medianNs() - none.medianNs() : null;
        Long publishedAdded = row.published() == null ? null : row.published().addedNs();
        return new FloorCostRow(
                new FloorCostRow.Subject(
                        row.what(),
                        row.callName(),
                        row.floor().name(),
                        (long) row.floor().programs().size(),
                        row.floor().insns(row.data()),
                        reference && !row.notifyLoop()
                                ? null
                                : row.floor().cacheable(row.data().nr())),
                referenceText,
                brokering(row),
                m.failure() != null ? RowStatus.FAILED : complete ? RowStatus.OK : RowStatus.INTERRUPTED,
                m.failure(),
                new FloorCostRow.Runs(
                        (long) runsAsked,
                        (long) m.runs().size(),
                        (long) m.baseline().size(),
                        interrupted && !complete && m.failure() == null),
                f,
                new FloorCostRow.Figures(
                        none.medianNs(), none.p99Ns(), none.runMediansNs(), none.samples(), none.spread(), null),
                added,
                m.baselineRow() >= 0 ? (long) m.baselineRow() : null,
                m.loadPerRun(),
                (long) m.cpuGranted(),
                m.supervisor().isEmpty()
                        ? null
                        : m.supervisor().stream().mapToLong(s -> s.received()).sum(),
                row.published(),
                added != null && publishedAdded != null && publishedAdded != 0
                        ? round3(added / publishedAdded.doubleValue())
                        : null,
                m.loopWallNs().isEmpty()
                        ? FloorCostRow.Ratios.NONE
                        : FloorCostRow.Ratios.loop(loopWall(m.loopWallNs()), mean(m.runs())),
                RowIntervals.NONE); // the intervals follow, from the same runs (of)
    }

    /**
     * Who answers {@code row}'s calls and where: a reference row has only its partner's placement
     * (no supervisor, answer or synchronous wake-up); a plain row, none.
     */
    private static FloorCostRow.Brokering brokering(FloorRow row) {
        if (!row.brokered()) {
            return FloorCostRow.Brokering.NONE;
        }
        FloorRow.Brokering b = row.broker();
        boolean supervised = !row.reference();
        return new FloorCostRow.Brokering(
                supervised ? FloorCostRow.Supervisor.valueOf(b.supervisor().name()) : null,
                supervised ? FloorCostRow.Answer.valueOf(b.answer().label().toUpperCase(Locale.ROOT)) : null,
                FloorCostRow.Placement.of(b.placement()),
                (long) b.supervisorCpu(),
                supervised || row.notifyLoop() ? b.syncWakeUp() : null, // the loop's wake-up is its own
                b.cpuSet());
    }

    /** The median over the runs of the notify loop's own per-call figure, in whole ns; null for none. */
    static Long loopWall(List<Double> perRun) {
        if (perRun.isEmpty()) {
            return null;
        }
        double[] v = perRun.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = v.length;
        return Math.round(n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
    }

    /** The mean of every sample of {@code runs}, in whole ns; null for none. */
    static Long mean(List<long[]> runs) {
        OptionalDouble m = runs.stream().flatMapToLong(Arrays::stream).average();
        return m.isPresent() ? Math.round(m.getAsDouble()) : null;
    }

    /** The figures over one variant's runs (filtered, or the baseline); nulls and empties where it has none. */
    private static FloorCostRow.Figures figures(List<long[]> runs) {
        if (runs.isEmpty()) {
            return new FloorCostRow.Figures(null, null, List.of(), 0L, null, null);
        }
        long[][] all = runs.toArray(long[][]::new);
        Stats.Summary s = Stats.ofAll(all);
        long[] medians = Stats.runMedians(all);
        double spread = Stats.spread(medians);
        return new FloorCostRow.Figures(
                s.median(),
                s.p99(),
                Arrays.stream(medians).boxed().toList(),
                (long) s.count(),
                round3(spread),
                spread > Stats.NOISY_SPREAD);
    }

    static double round3(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
