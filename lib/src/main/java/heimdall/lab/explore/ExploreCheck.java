package heimdall.lab.explore;

import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.explorecheck.ExploreCheckSettings;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.results.ExploreCheckRow;
import heimdall.lab.results.FigureCi;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Intervals;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The fluent API's figure against floor-cost's own: {@code getppid} under the static abcdf floor,
 * measured in one run through {@link Lab#measure} and through floor-cost's row code
 * ({@link FloorBench} on {@link FloorCost#rows}' first row), interleaved round by round (the order
 * swapped each round) so drift on the host falls on both alike. Both time the call in the native
 * runner (no JVM in the timed loop); their medians over all samples should agree within
 * {@link #TOLERANCE}.
 */
public final class ExploreCheck {
    private ExploreCheck() {}

    /** How far apart the two medians may be: 5%. */
    public static final double TOLERANCE = 0.05;

    /**
     * What to run.
     *
     * @param rounds rounds, each a block of fluent runs and a block of floor-cost runs
     * @param runs fresh children per block (4 covers every code placement once)
     * @param warmup untimed calls a run
     * @param calls timed calls a run
     * @param cpu the child's CPU
     */
    public record Options(int rounds, int runs, long warmup, long calls, int cpu) {
        /** The default: 5 rounds of 4 runs, 20,000 + 200,000 calls. */
        public static Options standard() {
            return new Options(5, 4, 20_000, 200_000, Cpus.measuring());
        }

        /** Seconds: 3 rounds of 4 runs, 5,000 + 50,000 calls. */
        public static Options quick() {
            return new Options(3, 4, 5_000, 50_000, Cpus.measuring());
        }
    }

    /**
     * What the check found.
     *
     * @param fluentMedianNs the fluent API's median over all its samples
     * @param floorCostMedianNs floor-cost's row median over all its samples
     * @param ratio fluent / floor-cost
     */
    public record Result(Path folder, long fluentMedianNs, long floorCostMedianNs, double ratio, boolean within) {}

    /**
     * Measures and writes the session's folder. A stop keeps nothing (the comparison needs every round):
     * it throws {@link Interruption.Stopped}, and the framework ({@code reproduce.Stoppable}) clears the
     * folder; a floor-cost run that threw ({@link Session#stopOn}) ends it with that run's error.
     */
    public static Result run(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        FloorView abcdf = Lab.fixtureFloor("abcdf");
        FloorCost.Options fc = new FloorCost.Options(
                new FloorBench.Counts(o.runs(), o.warmup(), o.calls(), 1, 1), o.cpu(), o.cpu(), false);
        FloorRow row = FloorCost.rows(fc).get(0); // static floor, abcdf · getppid
        Measure fluent = Lab.measure("getppid")
                .under(abcdf)
                .cpu(o.cpu())
                .runs(o.runs())
                .warmup(o.warmup())
                .calls(o.calls());
        List<Measurement> ours = new ArrayList<>();
        List<FloorBench.Measured> theirs = new ArrayList<>();
        Host host = Host.capture();
        Instant started = Instant.now();
        Host.LoadSampler loads = new Host.LoadSampler();
        progress.accept(String.format(
                Locale.ROOT,
                "explore check: getppid under %s, %d rounds of %d runs each way, %,d + %,d calls, CPU %d",
                abcdf.name(),
                o.rounds(),
                o.runs(),
                o.warmup(),
                o.calls(),
                o.cpu()));
        Optional<Interruption.Cause> stopped = Optional.empty();
        // FloorBench writes its samples as it goes; here into a private scratch file, and then, run
        // indices counted over the rounds, into the folder's samples.arrow beside the fluent ones.
        try (Scratch scratch = Scratch.create("heimdall-lab-explore-check-");
                SamplesFile samples = folder.createSamples()) {
            for (int round = 0; round < o.rounds() && !session.stopRequested(); round++) {
                for (int half = 0; half < 2 && !session.stopRequested(); half++) {
                    boolean fluentNow = (round + half) % 2 == 0;
                    if (fluentNow) {
                        Measurement m = fluent.run();
                        if (m.interrupted()) {
                            break;
                        }
                        ours.add(m);
                        for (int r = 0; r < m.runs().size(); r++) {
                            samples.append(
                                    1,
                                    "filtered",
                                    round * o.runs() + r,
                                    m.runs().get(r));
                        }
                        progress.accept(String.format(
                                Locale.ROOT, "round %d · fluent API: median %,d ns", round + 1, m.median()));
                    } else {
                        List<FloorBench.Measured> got;
                        try (SamplesFile own =
                                SamplesFile.create(scratch.path().resolve("round-" + round + ".arrow"))) {
                            got = FloorBench.run(
                                    List.of(row), 0, fc.counts(), o.cpu(), FLOOR_COST_IN, own, loads, s -> {}, session);
                        }
                        FloorBench.Measured m = got.get(0);
                        if (m.failure() != null) {
                            throw new Refusal("floor-cost row: " + m.failure());
                        }
                        if (m.runs().size() < o.runs()) {
                            break;
                        }
                        theirs.add(m);
                        for (int r = 0; r < m.runs().size(); r++) {
                            samples.append(
                                    0,
                                    "filtered",
                                    round * o.runs() + r,
                                    m.runs().get(r));
                            samples.append(
                                    0,
                                    "none",
                                    round * o.runs() + r,
                                    m.baseline().get(r));
                        }
                        progress.accept(String.format(
                                Locale.ROOT,
                                "round %d · floor-cost row: median %,d ns",
                                round + 1,
                                Stats.ofAll(m.runs().toArray(long[][]::new)).median()));
                    }
                }
            }
            stopped = session.stopCause();
        }
        if (stopped.isPresent()) {
            stopped.get().rethrowFailure(); // a floor-cost run that threw (Session.stopOn): its error, as before
            throw new Interruption.Stopped(stopped.get()); // nothing partial to keep: the framework clears the folder
        }
        return write(o, folder, host, started, loads, abcdf, row, ours, theirs, progress);
    }

    /** The confidence of the rows' intervals. */
    private static final double LEVEL = Intervals.LEVEL;

    /** Each run's median (nearest rank), the run figures the ratio's interval is over. */
    private static double[] runMedians(List<long[]> runs) {
        return runs.stream().mapToDouble(r -> Stats.of(r).median()).toArray();
    }

    /** environment.json's own facts, after the host's: what was run and how. */
    private static ExploreCheckSettings settings(Options o, Host.LoadSampler loads) {
        return new ExploreCheckSettings(
                o.cpu(),
                new ExploreCheckSettings.Options(o.rounds(), o.runs(), o.warmup(), o.calls(), o.cpu()),
                loads.summary(),
                "rounds alternate which goes first; each block is fresh heimdall-runner children, run i at code "
                        + "placement i mod 4; samples.arrow row 0 is floor-cost's row (filtered, none), row 1 the "
                        + "fluent API's",
                ResultsFolder.javaVm());
    }

    /** floor-cost's openat directory; the row measured here makes no openat. */
    private static final Path FLOOR_COST_IN = Path.of("/dev/null/in");

    private static Result write(
            Options o,
            ResultsFolder folder,
            Host host,
            Instant started,
            Host.LoadSampler loads,
            FloorView abcdf,
            FloorRow row,
            List<Measurement> ours,
            List<FloorBench.Measured> theirs,
            Consumer<String> progress) {
        List<long[]> fluentRuns = new ArrayList<>();
        ours.forEach(m -> fluentRuns.addAll(m.runs()));
        List<long[]> rowRuns = new ArrayList<>();
        List<long[]> noneRuns = new ArrayList<>();
        theirs.forEach(m -> {
            rowRuns.addAll(m.runs());
            noneRuns.addAll(m.baseline());
        });
        FloorBench.Measured pooled =
                new FloorBench.Measured(row, rowRuns, noneRuns, 0, List.of(), null, o.cpu(), List.of());
        FloorCostRow fc = FloorSummary.of(pooled);
        Measurement fl = Measurement.of(
                "fluent API", List.of(abcdf.name()), o.cpu(), List.of(), fluentRuns, fluentRuns.size(), false);
        long ourMedian = fl.median();
        long theirMedian = fc.medianNs();
        double ratio = (double) ourMedian / theirMedian;
        boolean within = Math.abs(ratio - 1) <= TOLERANCE;
        List<Long> theirRoundMedians = theirs.stream()
                .map(m -> Stats.ofAll(m.runs().toArray(long[][]::new)).median())
                .toList();
        List<Long> ourRoundMedians = ours.stream().map(Measurement::median).toList();
        double roundedRatio = Math.round(ratio * 10000) / 10000.0;
        // the ratio's interval over the two rows' run medians, ends rounded outward to vs_floor_cost's 4 decimals
        FigureCi ratioCi = FigureCi.of(
                ChangeTest.compare(
                                runMedians(rowRuns), runMedians(fluentRuns), ratio, ChangeTest.DEFAULT_THRESHOLD, LEVEL)
                        .ratio(),
                4);
        ExploreCheckRow fcRow = new ExploreCheckRow(
                new ExploreCheckRow.Subject("floor-cost row code (FloorBench)", fc.what(), fc.call()),
                fc.outcome(),
                fc.runsCompleted(),
                new ExploreCheckRow.Figures(
                        fc.medianNs(),
                        fc.p99Ns(),
                        fc.medianNoneNs(),
                        fc.addedNs(),
                        fc.runMediansNs(),
                        fc.samples(),
                        fc.spread(),
                        theirRoundMedians),
                ExploreCheckRow.Check.NONE,
                fc.intervals(),
                null);
        List<Long> fluentRunMedians = Arrays.stream(fl.runMedians()).boxed().toList();
        ExploreCheckRow flRow = new ExploreCheckRow(
                new ExploreCheckRow.Subject("fluent API (Lab.measure)", "fluent API, " + row.what(), row.callName()),
                RowStatus.OK,
                (long) fluentRuns.size(),
                new ExploreCheckRow.Figures(
                        ourMedian,
                        fl.p99(),
                        null,
                        null,
                        fluentRunMedians,
                        (long) fl.count(),
                        Math.round(fl.spread() * 1000) / 1000.0,
                        ourRoundMedians),
                new ExploreCheckRow.Check(roundedRatio, TOLERANCE, within),
                RowIntervals.of(fl.ci(), fluentRuns.size(), 0),
                ratioCi);
        // Written and put in place by the framework, as every reproduction's (the table is the kind's; a --quick
        // run's folder is marked by ExploreCheckCommand, so its table starts with the quick line).
        Path kept = Kept.keep(
                folder,
                ReproductionResult.of(
                        ReproductionKind.of(ExploreCheckRow.class, ExploreCheckSettings.class),
                        new Recorded<>(List.of(fcRow, flRow), settings(o, loads), host, started, Instant.now()),
                        Optional.empty()),
                progress);
        return new Result(kept, ourMedian, theirMedian, ratio, within);
    }
}
