package heimdall.lab.reproduce.kernelbitmap;

import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.COMPARED;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.METHODS;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.SELFTESTS_METHOD;

import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.Stats;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Configuration;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.EstimateRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.ExpectationRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Loop;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Measurement;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Method;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Options;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Runs;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Timing;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.PublishedKernelBitmap;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * kernel-bitmap's rows for {@code summary.json}, from a {@link Measurement}: a row a configuration with each
 * method's figures and intervals, then the estimates, the expectations and the agreement. Its own class because it
 * is the one place a measurement becomes rows; the table ({@link KernelBitmapTable}) is made from these rows alone.
 */
final class KernelBitmapSummary {
    private KernelBitmapSummary() {}

    /**
     * {@code summary.json}: the configurations, the estimates, the expectations and the agreement, each
     * with its runs asked and completed ({@code interrupted}: a stop cut the measurement short).
     */
    static List<KernelBitmapRow> of(Measurement m, boolean interrupted) {
        PublishedKernelBitmap pub = KernelBitmap.published();
        Options o = m.options();
        MethodEstimates est = m.estimated();
        Map<String, int[]> done = runsDone(m);
        KernelBitmapRow.Runs all = runs(o, done.get(null), interrupted);
        List<KernelBitmapRow> out = new ArrayList<>();
        Configuration unfiltered = m.configurations().stream()
                .filter(c -> c.filters() == 0)
                .findFirst()
                .orElse(null);
        for (Configuration c : m.configurations()) {
            out.add(new KernelBitmapRow.Configuration(
                    "configuration",
                    c.what(),
                    (long) c.filters(),
                    c.filters() == 0 ? "native" : c.filters() <= 2 ? "bitmap" : "full",
                    c.cachePredicted(),
                    loop(c, Loop.BARE),
                    loop(c, Loop.SELFTEST),
                    c.clockStep(),
                    c.batchCount(),
                    pub.ns(c.filters()),
                    runs(o, done.getOrDefault(c.what(), done.get(null)), interrupted),
                    null,
                    null,
                    intervals(c, unfiltered, Loop.BARE),
                    intervals(c, unfiltered, Loop.SELFTEST)));
        }
        for (EstimateRow e : est.estimateRows()) {
            // Only the compared estimates (entry, per filter) have each method's difference and verdict; the
            // selftest's method is compared with no other.
            boolean compared = !e.vsSelftest().isEmpty();
            out.add(new KernelBitmapRow.Estimate(
                    "estimate",
                    e.name(),
                    e.label(),
                    byMethod(x -> new KernelBitmapRow.Figure(e.ns().get(x))),
                    e.publishedNs(),
                    compared ? byMethod(x -> compared(e, x)) : null,
                    all,
                    null,
                    null,
                    null,
                    null));
        }
        for (ExpectationRow e : est.expectationRows()) {
            out.add(new KernelBitmapRow.Expectation(
                    "expectation",
                    e.check(),
                    byMethod(x -> verdicts(e.verdicts().get(x))),
                    e.publishedOk(),
                    all,
                    null,
                    null,
                    null,
                    null));
        }
        out.add(new KernelBitmapRow.Agreement(
                "agreement",
                "entry and per-filter estimates of the selftest loop timed per call within "
                        + "20% of the selftest's method (its loop, batch, CLOCK_PROCESS_CPUTIME_ID); <method>_agree: "
                        + "the same for each other method",
                COMPARED,
                est.methodsAgree(),
                byMethod(x ->
                        x.equals(SELFTESTS_METHOD) ? null : new KernelBitmapRow.Agrees(est.agreesWithTheSelftest(x))),
                byMethod(x -> new KernelBitmapRow.Unexpected(
                        est.estimates(x)
                                .judgedBy(BitmapEstimates.Rule.SELFTEST_2020)
                                .unexpected(),
                        est.estimates(x).judgedBy(BitmapEstimates.Rule.LATER).unexpected())),
                all,
                null,
                null));
        return out;
    }

    /** Each method's part, in {@link KernelBitmap#METHODS} order (null: none for that method). */
    private static <P extends Record> KernelBitmapRow.ByMethod<P> byMethod(Function<Method, P> part) {
        return KernelBitmapRow.ByMethod.of(METHODS.stream().map(part).toList());
    }

    /** {@code x}'s estimate against the selftest's method's (none for the selftest's method itself). */
    private static KernelBitmapRow.Compared compared(EstimateRow e, Method x) {
        if (x.equals(SELFTESTS_METHOD)) {
            return null;
        }
        Double v = e.vsSelftest().get(x);
        return new KernelBitmapRow.Compared(v == null || v.isInfinite() ? null : round3(v), e.agrees(x));
    }

    /** One method's values of an expectation and its verdicts by the 2020 and the later selftest's rules. */
    private static KernelBitmapRow.Verdicts verdicts(Map<BitmapEstimates.Rule, BitmapEstimates.Expectation> byRule) {
        BitmapEstimates.Expectation any = byRule.get(BitmapEstimates.Rule.LATER);
        return new KernelBitmapRow.Verdicts(
                List.of(any.a(), any.b()),
                verdict(byRule.get(BitmapEstimates.Rule.SELFTEST_2020)),
                verdict(byRule.get(BitmapEstimates.Rule.LATER)));
    }

    private static String verdict(BitmapEstimates.Expectation e) {
        return e.verdict().name().toLowerCase(Locale.ROOT);
    }

    /** A row's runs asked and completed ({per call, batch}), and whether a stop cut them short. */
    private static KernelBitmapRow.Runs runs(Options o, int[] done, boolean interrupted) {
        return new KernelBitmapRow.Runs(
                (long) o.runs(),
                (long) done[0],
                (long) o.batchRuns(),
                (long) done[1],
                interrupted && (done[0] < o.runs() || done[1] < o.batchRuns()));
    }

    /**
     * The runs completed ({per call, batch}) of each configuration by its name (the fewest of its
     * methods'), and under {@code null} the fewest of any configuration's: the estimate, expectation
     * and agreement rows' (they are made from every configuration).
     */
    private static Map<String, int[]> runsDone(Measurement m) {
        int[] all = {Integer.MAX_VALUE, Integer.MAX_VALUE};
        Map<String, int[]> byWhat = new LinkedHashMap<>();
        for (Configuration c : m.configurations()) {
            int[] done = {Integer.MAX_VALUE, Integer.MAX_VALUE};
            for (Method x : METHODS) {
                int i = x.timing().batch() ? 1 : 0;
                done[i] = Math.min(done[i], c.of(x).nsPerCall().size());
            }
            byWhat.put(c.what(), done);
            all[0] = Math.min(all[0], done[0]);
            all[1] = Math.min(all[1], done[1]);
        }
        byWhat.put(null, all);
        return byWhat;
    }

    private static double round3(double d) {
        return Math.round(d * 1000) / 1000.0;
    }

    /** {@code c}'s figures of {@code loop} by each timing: per call, batch monotonic, batch CPU time. */
    private static KernelBitmapRow.LoopFigures loop(Configuration c, Loop loop) {
        return new KernelBitmapRow.LoopFigures(
                perCall(c, new Method(loop, Timing.PER_CALL)),
                batch(c, new Method(loop, Timing.BATCH_MONOTONIC)),
                batch(c, new Method(loop, Timing.BATCH_CPUTIME)));
    }

    /** {@code c}'s figures of the per-call method {@code x}. */
    private static KernelBitmapRow.PerCall perCall(Configuration c, Method x) {
        Runs runs = c.of(x);
        Stats.Summary all = c.allSamples(x);
        return new KernelBitmapRow.PerCall(
                runs.figure(),
                runs.nsPerCall(),
                placements(runs),
                runs.byPlacement(),
                round3(runs.spread()),
                runs.noisy(),
                all.median(),
                all.p99(),
                boxed(Stats.runMedians(runs.samples().toArray(long[][]::new))),
                (long) all.count());
    }

    /** {@code c}'s figures of the batch method {@code x}. */
    private static KernelBitmapRow.Batch batch(Configuration c, Method x) {
        Runs runs = c.of(x);
        return new KernelBitmapRow.Batch(
                runs.figure(),
                runs.nsPerCall(),
                placements(runs),
                runs.byPlacement(),
                round3(runs.spread()),
                runs.noisy(),
                runs.fastest(),
                runs.totalsNs());
    }

    /**
     * {@code c}'s intervals of {@code loop} at {@link Intervals#LEVEL}: the per-call median and p99 over
     * its runs and the added cost against {@code unfiltered}'s runs of the same loop (none for the
     * unfiltered configuration itself), as a floor-cost row's ({@link FloorSummary#intervals}); each batch
     * clock's median run over the batch runs (none for fewer than two: one figure brackets nothing).
     */
    static KernelBitmapRow.LoopIntervals intervals(Configuration c, Configuration unfiltered, Loop loop) {
        Method perCall = new Method(loop, Timing.PER_CALL);
        List<long[]> runs = c.of(perCall).samples();
        boolean added = unfiltered != null
                && unfiltered != c
                && !unfiltered.of(perCall).samples().isEmpty();
        List<long[]> baseline = added ? unfiltered.of(perCall).samples() : List.of();
        Long addedNs = added && !runs.isEmpty()
                ? c.allSamples(perCall).median()
                        - unfiltered.allSamples(perCall).median()
                : null;
        return new KernelBitmapRow.LoopIntervals(
                addedNs,
                FloorSummary.intervals(runs, baseline),
                batchInterval(c.of(new Method(loop, Timing.BATCH_MONOTONIC))),
                batchInterval(c.of(new Method(loop, Timing.BATCH_CPUTIME))));
    }

    /** The interval of a batch method's figure (its median run's) over its runs; null for fewer than two. */
    private static RowIntervals.Ci batchInterval(Runs runs) {
        if (runs.nsPerCall().size() < 2) {
            return null;
        }
        double[] figures =
                runs.nsPerCall().stream().mapToDouble(Long::doubleValue).toArray();
        return RowIntervals.Ci.of(OrderStatistics.overRuns(runs.figure(), figures, Intervals.LEVEL), figures.length);
    }

    private static List<Long> placements(Runs runs) {
        return runs.placements().stream().map(Integer::longValue).toList();
    }

    private static List<Long> boxed(long[] values) {
        return Arrays.stream(values).boxed().toList();
    }
}
