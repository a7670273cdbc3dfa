package heimdall.lab.reproduce.addedkind;

import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.Session;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.Headline;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.Intervals;
import heimdall.lab.sys.Host;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * A reproduction added from the test sources alone: {@code tiny} times {@link System#nanoTime} against an empty
 * region, in runs, with the project's intervals. Its kind, options, run, table, compare identity, plots and
 * headline are all here; it registers itself with one line of this package's own
 * {@code META-INF/services/heimdall.lab.results.ReproductionKind}, which only {@link AddedKindTest}'s JVM reads.
 */
public final class TinyKind extends ReproductionKind<TinyRow, TinySettings> implements Reproduction, KindPlots {
    /** The two regions timed: nothing, and one {@link System#nanoTime} call. */
    static final List<String> REGIONS = List.of("empty region", "System.nanoTime");

    public TinyKind() {
        super("tiny", TinyRow.class, TinySettings.class);
    }

    @Override
    public List<ReproductionOption> options() {
        return List.of(
                ReproductionOption.count("--runs", "runs of both regions", 3, 5, 100),
                ReproductionOption.count("--samples", "samples a run takes of each region", 2_000, 20_000, 1_000_000));
    }

    @Override
    public Run prepare(Args args) {
        TinySettings s = new TinySettings(
                option("--runs").intNumber(args), option("--samples").intNumber(args));
        return session -> run(s, session);
    }

    private ReproductionResult run(TinySettings s, Session session) {
        Host host = Host.capture();
        Instant started = Instant.now();
        long[][][] samples = new long[REGIONS.size()][][];
        int runs = 0;
        for (int region = 0; region < REGIONS.size(); region++) {
            samples[region] = new long[s.runs()][];
        }
        for (; runs < s.runs() && !session.stopRequested(); runs++) {
            for (int region = 0; region < REGIONS.size(); region++) {
                samples[region][runs] = time(region, s.samples());
            }
            session.progress().accept("tiny: run " + (runs + 1) + "/" + s.runs());
        }
        List<TinyRow> rows = new ArrayList<>();
        long[][] baseline = Arrays.copyOf(samples[0], runs);
        long baselineMedian = median(flat(baseline));
        for (int region = 0; region < REGIONS.size(); region++) {
            long[][] mine = Arrays.copyOf(samples[region], runs);
            long median = median(flat(mine));
            Intervals iv = Intervals.of(mine, region == 0 ? null : baseline, Intervals.LEVEL);
            rows.add(new TinyRow(
                    REGIONS.get(region),
                    runs == s.runs() ? RowStatus.MEASURED : RowStatus.INTERRUPTED,
                    (long) runs,
                    median,
                    region == 0 ? null : median - baselineMedian,
                    Arrays.stream(mine).map(TinyKind::median).toList(),
                    RowIntervals.of(iv, runs, runs)));
        }
        return ReproductionResult.of(this, new Recorded<>(rows, s, host, started, Instant.now()), session.stopCause());
    }

    /** {@code n} timings of the region, in nanoseconds. */
    private static long[] time(int region, int n) {
        long[] ns = new long[n];
        long sink = 0;
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            if (region == 1) {
                sink += System.nanoTime();
            }
            ns[i] = System.nanoTime() - t0;
        }
        if (sink == 42) {
            ns[0]++; // keeps the timed call from being removed as dead code
        }
        return ns;
    }

    private static long[] flat(long[][] runs) {
        return Arrays.stream(runs).flatMapToLong(Arrays::stream).toArray();
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(sorted.length - 1) / 2];
    }

    @Override
    public String table(Recorded<TinyRow, TinySettings> run) {
        MarkdownTable t = new MarkdownTable(List.of("what", "runs", "median", "added", RowIntervals.heading("added")));
        for (TinyRow r : run.rows()) {
            t.row(List.of(
                    r.what(),
                    String.valueOf(r.runsCompleted()),
                    String.format(Locale.ROOT, "%,d ns", r.medianNs()),
                    r.addedNs() == null ? "—" : String.format(Locale.ROOT, "%,d ns", r.addedNs()),
                    RowIntervals.cell(r.intervals().added())));
        }
        return "# tiny: what System.nanoTime costs\n\n" + t.render() + "\n";
    }

    @Override
    public Optional<RowIdentity> identity() {
        return Optional.of(new RowIdentity(List.of("what"), "median_ns", "added_ns", "published_added_ns", "ns"));
    }

    @Override
    public Optional<Headline> headline(TinyRow row) {
        return Headline.of(row.intervals(), row.addedNs(), row.medianNs(), "ns", "runs");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        List<TinyRow> rows = r.rows(TinyRow.class);
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (int run = 0; run < rows.get(0).runMediansNs().size(); run++) {
            int k = run;
            series.put(
                    "run " + (run + 1),
                    rows.stream()
                            .map(row -> row.runMediansNs().size() > k
                                    ? row.runMediansNs().get(k).doubleValue()
                                    : null)
                            .toList());
        }
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        charts.put(
                "run-medians.png",
                Charts.dots(
                        "Per-run medians (ns): tiny",
                        "region",
                        "median of a run (ns)",
                        rows.stream().map(TinyRow::what).toList(),
                        series));
        return charts;
    }
}
