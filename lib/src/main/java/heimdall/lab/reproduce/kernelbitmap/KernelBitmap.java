package heimdall.lab.reproduce.kernelbitmap;

import heimdall.lab.bench.FloorSummary;
import heimdall.lab.bench.GroupedMedian;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Insn;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.PublishedKernelBitmap;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The kernel selftest's bitmap experiment ({@code seccomp_benchmark}, seed {@code 003}), measured six
 * ways in one invocation: two loops times three timings ({@link Method}). The loops: the selftest's
 * own ({@link Loop#SELFTEST}: glibc's {@code syscall(__NR_getpid)}, each result compared with the pid)
 * and ours ({@link Loop#BARE}: a bare {@code syscall} instruction inlined in the loop, as the floor-cost
 * table is measured). The timings: each call alone with {@code CLOCK_MONOTONIC} (per-call samples,
 * medians), and one clock pair around the whole loop, read with {@code CLOCK_MONOTONIC} or with the
 * selftest's {@code CLOCK_PROCESS_CPUTIME_ID}, total divided by the calls. The selftest's loop timed
 * as a whole on its clock is {@link #SELFTESTS_METHOD}, the selftest's method; every other method's
 * entry and per-filter estimates are compared with it.
 *
 * <p>Unlike the selftest, which stacks its filters in one process one after the other, every run here
 * is a fresh child that installs a configuration's filters and then only calls {@code getpid}. The runs
 * come in rounds: each round runs every configuration every way, in an order rotated from round to
 * round, so a drift of the host spreads over all of them. Each round also moves the timed loop to the
 * next of the runner's code placements ({@link ChildSpec#placement()}): where the loop sits in its
 * 64-byte code lines changes a per-call figure by up to 30 ns on the project's VM, as much as the
 * estimates themselves, so the figures are medians over placements, not over one accident of the link.
 * Every figure is a median: over a configuration's runs of one method (a per-call run's own figure its
 * median interpolated within the clock's step).
 *
 * <p>From a notebook: {@code KernelBitmap.measure(KernelBitmap.Options.quick(), s -> {})} returns the
 * {@link Measurement} with {@link Measurement#estimateRows()} and {@link Measurement#expectationRows()}.
 */
public final class KernelBitmap {
    private KernelBitmap() {}

    /** {@code SECCOMP_RET_ALLOW}. */
    public static final int RET_ALLOW = 0x7fff0000;

    /** A filter the action cache can answer: load {@code nr}, allow. */
    public static final Program BITMAP_FILTER =
            new Program(List.of(Insn.ldAbs(SeccompData.OFF_NR), Insn.ret(RET_ALLOW)));
    /** A filter the action cache cannot answer, because it loads an argument: load {@code args[0]}, allow. */
    public static final Program FULL_FILTER =
            new Program(List.of(Insn.ldAbs(SeccompData.OFF_ARGS), Insn.ret(RET_ALLOW)));

    /** The five configurations' programs, in installation order: none, 1 and 2 bitmap, + full, + bitmap. */
    public static List<List<Program>> configurations() {
        return List.of(
                List.of(),
                List.of(BITMAP_FILTER),
                List.of(BITMAP_FILTER, BITMAP_FILTER),
                List.of(BITMAP_FILTER, BITMAP_FILTER, FULL_FILTER),
                List.of(BITMAP_FILTER, BITMAP_FILTER, FULL_FILTER, BITMAP_FILTER));
    }

    /** The loop a run times. */
    public enum Loop {
        /** A bare {@code syscall} instruction inlined in the loop: the floor-cost table's call. */
        BARE(Call.GETPID, "bare loop", "bare syscall instruction", ""),
        /** The selftest's: glibc's {@code syscall(__NR_getpid)}, the result compared with the pid. */
        SELFTEST(Call.GETPID_SELFTEST, "selftest loop", "glibc syscall(), pid compared", "selftest_");

        private final Call call;
        private final String label;
        private final String how;
        private final String prefix;

        Loop(Call call, String label, String how, String prefix) {
            this.call = call;
            this.label = label;
            this.how = how;
            this.prefix = prefix;
        }

        public Call call() {
            return call;
        }

        /** {@code bare loop}, {@code selftest loop}. */
        public String label() {
            return label;
        }

        /** What the loop calls. */
        public String how() {
            return how;
        }
    }

    /** How a run is timed. */
    public enum Timing {
        /** Each call alone, {@code CLOCK_MONOTONIC} (vDSO) before and after. */
        PER_CALL(ChildSpec.Mode.PER_CALL, "per call", "per_call"),
        /** One {@code CLOCK_MONOTONIC} pair around the loop. */
        BATCH_MONOTONIC(ChildSpec.Mode.BATCH, "batch, CLOCK_MONOTONIC", "batch_monotonic"),
        /** One {@code CLOCK_PROCESS_CPUTIME_ID} pair around the loop: the selftest's clock. */
        BATCH_CPUTIME(ChildSpec.Mode.BATCH_CPUTIME, "batch, CLOCK_PROCESS_CPUTIME_ID", "batch");

        private final ChildSpec.Mode mode;
        private final String label;
        private final String key;

        Timing(ChildSpec.Mode mode, String label, String key) {
            this.mode = mode;
            this.label = label;
            this.key = key;
        }

        public ChildSpec.Mode mode() {
            return mode;
        }

        public String label() {
            return label;
        }

        public boolean batch() {
            return mode.batch();
        }
    }

    /**
     * A loop and a timing. Its summary fields are named by {@link #field}: the bare loop's keep the
     * names they always had ({@code per_call_ns}, {@code batch_ns_per_call} for the CPU-time batch),
     * the selftest loop's are the same with {@code selftest_} in front.
     */
    public record Method(Loop loop, Timing timing) {
        /** {@code bare loop, per call}. */
        public String label() {
            return loop.label + ", " + timing.label;
        }

        /** A short key: {@code bare_per_call}, {@code selftest_batch_cputime}. */
        public String key() {
            return loop.name().toLowerCase(Locale.ROOT) + "_" + timing.name().toLowerCase(Locale.ROOT);
        }

        /**
         * The figure's summary field: {@code per_call_ns}, {@code batch_ns_per_call}, {@code
         * selftest_batch_monotonic_ns_per_call}.
         */
        public String figureField() {
            return loop.prefix + (timing == Timing.PER_CALL ? "per_call_ns" : timing.key + "_ns_per_call");
        }

        /** Each run's figure: {@code run_medians_interpolated_ns}, {@code batch_run_ns_per_call}. */
        public String runsField() {
            return loop.prefix
                    + (timing == Timing.PER_CALL ? "run_medians_interpolated_ns" : timing.key + "_run_ns_per_call");
        }

        /** Each run's placement: {@code run_placements}, {@code batch_run_placements}. */
        public String placementsField() {
            return loop.prefix + (timing == Timing.PER_CALL ? "run_placements" : timing.key + "_run_placements");
        }

        /** The figure by placement: {@code per_call_ns_by_placement}, {@code batch_ns_per_call_by_placement}. */
        public String byPlacementField() {
            return figureField() + "_by_placement";
        }

        /** {@code <figure field>_spread} or {@code _noisy}. */
        public String field(String suffix) {
            return loop.prefix + (timing == Timing.PER_CALL ? "per_call" : timing.key) + "_" + suffix;
        }
    }

    /** Every method, the selftest's last. */
    public static final List<Method> METHODS = List.of(
            new Method(Loop.BARE, Timing.PER_CALL),
            new Method(Loop.BARE, Timing.BATCH_MONOTONIC),
            new Method(Loop.BARE, Timing.BATCH_CPUTIME),
            new Method(Loop.SELFTEST, Timing.PER_CALL),
            new Method(Loop.SELFTEST, Timing.BATCH_MONOTONIC),
            new Method(Loop.SELFTEST, Timing.BATCH_CPUTIME));

    /** The selftest's loop timed call by call: the method whose agreement with the selftest's must hold. */
    public static final Method SELFTEST_PER_CALL = new Method(Loop.SELFTEST, Timing.PER_CALL);

    /** The selftest's method: its loop, timed as a whole on its clock. The reference for {@link #AGREEMENT}. */
    public static final Method SELFTESTS_METHOD = new Method(Loop.SELFTEST, Timing.BATCH_CPUTIME);

    /**
     * What to run.
     *
     * @param runs fresh children per configuration and loop for the per-call timing (a multiple of
     *     {@value ChildSpec#PLACEMENTS} covers every placement equally)
     * @param warmup untimed calls before each run's measured ones
     * @param perCallCount calls timed one by one per run
     * @param batchRuns fresh children per configuration, loop and clock for the batch timing: many short
     *     runs rather than the selftest's one long one, so that their median is not one burst of the
     *     host's other work
     * @param batchCount calls timed as a whole per batch run (the selftest: 10^8, or 15 s worth, once)
     * @param cpu the measuring CPU
     */
    public record Options(int runs, long warmup, long perCallCount, int batchRuns, long batchCount, int cpu) {
        /**
         * 32 rounds: 20,000 warm-up + 250,000 calls timed each, and 625,000 timed as a whole; about two minutes on a
         * quiet 2-CPU VM.
         */
        public static Options full() {
            return new Options(32, 20_000, 250_000, 32, 625_000, Cpus.measuring());
        }

        /** 16 rounds of 2,500 + 25,000 timed each and 125,000 as a whole: seconds, for trying things. */
        public static Options quick() {
            return new Options(16, 2_500, 25_000, 16, 125_000, Cpus.measuring());
        }

        public Options withCpu(int cpu) {
            return new Options(runs, warmup, perCallCount, batchRuns, batchCount, cpu);
        }
    }

    /**
     * One method's runs of one configuration.
     *
     * @param nsPerCall each run's figure: a per-call run's median interpolated within the clock's step
     *     ({@link GroupedMedian}), rounded to a whole ns, taken once as the run arrives; a batch run's
     *     total divided by its calls, rounded down as the selftest divides
     * @param placements the code placement of each run
     * @param samples each per-call run's samples, ns; empty for a batch timing
     * @param totalsNs each batch run's total, ns; empty for the per-call timing
     */
    public record Runs(List<Long> nsPerCall, List<Integer> placements, List<long[]> samples, List<Long> totalsNs) {
        public Runs {
            if (placements.size() != nsPerCall.size()
                    || (!samples.isEmpty() && samples.size() != nsPerCall.size())
                    || (!totalsNs.isEmpty() && totalsNs.size() != nsPerCall.size())) {
                throw new IllegalArgumentException("one figure, placement and sample set or total per run");
            }
        }

        /** The figure: the median run's (lower middle of an even count). */
        public long figure() {
            return Stats.of(array(nsPerCall)).median();
        }

        /** The fastest run's figure. */
        public long fastest() {
            return Stats.of(array(nsPerCall)).min();
        }

        /** (max - min) / median of the runs' figures ({@link Stats#spread}). */
        public double spread() {
            return Stats.spread(array(nsPerCall));
        }

        /** Whether {@link #spread} is over {@link Stats#NOISY_SPREAD}. */
        public boolean noisy() {
            return spread() > Stats.NOISY_SPREAD;
        }

        /**
         * Per placement (index), the figure of the runs at it, null where none ran: for per-call runs
         * the interpolated median over all their samples, for batch runs the median run's.
         */
        public List<Long> byPlacement() {
            List<Long> out = new ArrayList<>();
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                List<Integer> at = new ArrayList<>();
                for (int i = 0; i < placements.size(); i++) {
                    if (placements.get(i) == p) {
                        at.add(i);
                    }
                }
                if (at.isEmpty()) {
                    out.add(null);
                } else if (!samples.isEmpty()) {
                    out.add(Math.round(
                            GroupedMedian.of(at.stream().map(samples::get).toArray(long[][]::new))
                                    .median()));
                } else {
                    out.add(Stats.of(at.stream().mapToLong(nsPerCall::get).toArray())
                            .median());
                }
            }
            return out;
        }

        private static long[] array(List<Long> l) {
            return l.stream().mapToLong(Long::longValue).toArray();
        }
    }

    /**
     * One configuration, measured every way.
     *
     * @param filters how many filters are installed (0 to 4)
     * @param what the selftest's name for it
     * @param cachePredicted whether our predictor says the kernel answers {@code getpid} from its action cache
     * @param runs each method's runs
     * @param batchCount the calls in each batch run
     */
    public record Configuration(
            int filters, String what, boolean cachePredicted, Map<Method, Runs> runs, long batchCount) {
        public Configuration {
            runs = Map.copyOf(runs);
        }

        /** A per-call run's interpolated median, as {@link Runs#nsPerCall} holds it. */
        static long interpolatedMedian(long[] run) {
            return Math.round(GroupedMedian.of(run).median());
        }

        public Runs of(Method m) {
            Runs r = runs.get(m);
            if (r == null) {
                throw new IllegalArgumentException(what + " has no runs of " + m.label());
            }
            return r;
        }

        /** The clock's step seen in the bare loop's per-call samples, ns (1 when they show none). */
        public long clockStep() {
            return GroupedMedian.of(of(METHODS.get(0)).samples().toArray(long[][]::new))
                    .step();
        }

        /** Plain order statistics over all of a per-call method's samples (the median moves in whole clock steps). */
        public Stats.Summary allSamples(Method m) {
            return Stats.ofAll(of(m).samples().toArray(long[][]::new));
        }
    }

    /**
     * An estimate by every method, with the published figure.
     *
     * @param ns by method
     * @param vsSelftest for the entry and per-filter estimates: by method, its relative difference from
     *     {@link #SELFTESTS_METHOD}'s; empty for the totals, which are not compared
     */
    public record EstimateRow(
            String name, String label, Map<Method, Long> ns, Long publishedNs, Map<Method, Double> vsSelftest) {
        /**
         * Whether {@code m}'s estimate is within {@link #AGREEMENT} of the selftest's method's; null when not compared.
         */
        public Boolean agrees(Method m) {
            Double d = vsSelftest.get(m);
            return d == null ? null : d <= AGREEMENT;
        }
    }

    /** An expectation by every method under both rules, with the published verdict (the 2020 rules). */
    public record ExpectationRow(
            String check,
            Map<Method, Map<BitmapEstimates.Rule, BitmapEstimates.Expectation>> verdicts,
            Boolean publishedOk) {}

    /** Which estimates are compared across the methods, and the bound. */
    public static final List<String> COMPARED = List.of("entry", "per_filter_last_2_diff", "per_filter_filters_div_4");
    /** The selftest loop's estimates must be within 20% of the selftest's method's. */
    public static final double AGREEMENT = 0.20;

    /** Everything one invocation measured. */
    public record Measurement(
            Options options, List<Configuration> configurations, long timerNs, List<Double> loadPerRound) {
        /** Every method's estimates, from each configuration's runs ({@link Estimated}). */
        public Estimated estimated() {
            return Estimated.of(
                    x -> configurations.stream().map(c -> c.of(x).nsPerCall()).toList());
        }

        /**
         * A method's estimates (judged by the later selftest's rules): round by round from each run's
         * figure, then the median over the rounds ({@link BitmapEstimates#ofRounds}).
         */
        public BitmapEstimates estimates(Method m) {
            return estimated().estimates(m);
        }

        /** The seven estimates, every method side by side. */
        public List<EstimateRow> estimateRows() {
            return estimated().estimateRows();
        }

        /** The seven expectations, every method under both rules. */
        public List<ExpectationRow> expectationRows() {
            return estimated().expectationRows();
        }

        /** Whether {@code m}'s entry and per-filter estimates are within 20% of the selftest's method's. */
        public boolean agreesWithTheSelftest(Method m) {
            return estimated().agreesWithTheSelftest(m);
        }

        /** The must-hold ({@link Estimated#methodsAgree}). */
        public boolean methodsAgree() {
            return estimated().methodsAgree();
        }
    }

    /**
     * Every method's estimates, from each configuration's runs' figures of that method: round by round,
     * then the median over the rounds. Made from a measurement ({@link Measurement#estimated}) or from the
     * figures its summary rows hold (the table's: each run's figure is in them).
     *
     * @param byMethod each method's estimates, in {@link #METHODS} order
     */
    public record Estimated(Map<Method, BitmapEstimates> byMethod) {
        /** From each method's run figures, a list per configuration (0 to 4 filters), run by run. */
        static Estimated of(Function<Method, List<List<Long>>> runFigures) {
            Map<Method, BitmapEstimates> by = new LinkedHashMap<>();
            for (Method m : METHODS) {
                by.put(m, BitmapEstimates.ofRounds(rounds(runFigures.apply(m))));
            }
            return new Estimated(Collections.unmodifiableMap(by));
        }

        /** A method's estimates (judged by the later selftest's rules). */
        public BitmapEstimates estimates(Method m) {
            return byMethod.get(m);
        }

        /** The seven estimates, every method side by side. */
        public List<EstimateRow> estimateRows() {
            PublishedKernelBitmap pub = published();
            Map<Method, Map<String, Long>> by = new LinkedHashMap<>();
            for (Method m : METHODS) {
                by.put(m, estimates(m).byName());
            }
            Map<String, Long> ref = by.get(SELFTESTS_METHOD);
            List<EstimateRow> rows = new ArrayList<>();
            for (String k : ref.keySet()) {
                Long p = pub.estimate(k);
                Map<Method, Long> ns = new LinkedHashMap<>();
                Map<Method, Double> vs = new LinkedHashMap<>();
                for (Method m : METHODS) {
                    ns.put(m, by.get(m).get(k));
                    if (COMPARED.contains(k) && !m.equals(SELFTESTS_METHOD)) {
                        vs.put(m, relativeDifference(by.get(m).get(k), ref.get(k)));
                    }
                }
                rows.add(new EstimateRow(k, BitmapEstimates.LABELS.get(k), ns, p, vs));
            }
            return rows;
        }

        /** The seven expectations, every method under both rules. */
        public List<ExpectationRow> expectationRows() {
            PublishedKernelBitmap pub = published();
            Map<Method, Map<BitmapEstimates.Rule, List<BitmapEstimates.Expectation>>> all = new LinkedHashMap<>();
            for (Method m : METHODS) {
                BitmapEstimates e = estimates(m);
                Map<BitmapEstimates.Rule, List<BitmapEstimates.Expectation>> byRule = new LinkedHashMap<>();
                for (BitmapEstimates.Rule r : BitmapEstimates.Rule.values()) {
                    byRule.put(r, e.judgedBy(r).expectations());
                }
                all.put(m, byRule);
            }
            List<ExpectationRow> rows = new ArrayList<>();
            int n = all.get(SELFTESTS_METHOD).get(BitmapEstimates.Rule.LATER).size();
            for (int i = 0; i < n; i++) {
                Boolean ok = pub.ok(i);
                Map<Method, Map<BitmapEstimates.Rule, BitmapEstimates.Expectation>> v = new LinkedHashMap<>();
                for (Method m : METHODS) {
                    Map<BitmapEstimates.Rule, BitmapEstimates.Expectation> r = new LinkedHashMap<>();
                    int at = i;
                    all.get(m).forEach((rule, l) -> r.put(rule, l.get(at)));
                    v.put(m, r);
                }
                rows.add(new ExpectationRow(
                        all.get(SELFTESTS_METHOD)
                                .get(BitmapEstimates.Rule.LATER)
                                .get(i)
                                .check(),
                        v,
                        ok));
            }
            return rows;
        }

        /** Whether {@code m}'s entry and per-filter estimates are within 20% of the selftest's method's. */
        public boolean agreesWithTheSelftest(Method m) {
            return estimateRows().stream()
                    .filter(r -> r.vsSelftest().containsKey(m))
                    .allMatch(r -> r.agrees(m));
        }

        /**
         * The must-hold: the selftest loop timed call by call (our harness's timing, the selftest's
         * loop) gives entry and per-filter estimates within 20% of the selftest's method's. The other
         * methods' agreement is reported beside it ({@link #agreesWithTheSelftest}).
         */
        public boolean methodsAgree() {
            return agreesWithTheSelftest(SELFTEST_PER_CALL);
        }
    }

    static BitmapEstimates.Figures figures(List<Long> f) {
        return new BitmapEstimates.Figures(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4));
    }

    /**
     * Round {@code i}'s figures from each configuration's {@code i}-th run: every round runs each
     * configuration once per method, so a method's {@code i}-th runs are one round's.
     */
    static List<BitmapEstimates.Figures> rounds(List<List<Long>> perConfiguration) {
        int n = perConfiguration.stream().mapToInt(List::size).min().orElse(0);
        List<BitmapEstimates.Figures> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int r = i;
            out.add(figures(perConfiguration.stream().map(c -> c.get(r)).toList()));
        }
        return out;
    }

    /** {@code |ours - reference| / |reference|}; infinite when the reference is 0 and ours is not. */
    public static double relativeDifference(long ours, long reference) {
        if (ours == reference) {
            return 0.0;
        }
        return reference == 0
                ? Double.POSITIVE_INFINITY
                : Math.abs((double) ours - reference) / Math.abs((double) reference);
    }

    /** Whether {@code ours} is within {@link #AGREEMENT} (20%) of {@code reference}. */
    public static boolean agrees(long ours, long reference) {
        return relativeDifference(ours, reference) <= AGREEMENT;
    }

    /** The published selftest output as data. */
    public static PublishedKernelBitmap published() {
        return PublishedKernelBitmap.read();
    }

    /** A method's runs of one configuration as they arrive. */
    private static final class Collecting {
        final List<Long> nsPerCall = new ArrayList<>();
        final List<Integer> placements = new ArrayList<>();
        final List<long[]> samples = new ArrayList<>();
        final List<Long> totals = new ArrayList<>();

        Runs done() {
            return new Runs(List.copyOf(nsPerCall), List.copyOf(placements), List.copyOf(samples), List.copyOf(totals));
        }
    }

    /** The samples file's variant for a per-call loop: {@code per-call} (bare) and {@code per-call-selftest-loop}. */
    public static String variant(Loop loop) {
        return loop == Loop.BARE ? "per-call" : "per-call-selftest-loop";
    }

    /**
     * Measures every configuration every way; per-call samples go to {@code samples} when given,
     * progress lines to the session, which stops it between runs.
     */
    public static Measurement measure(Options o, SamplesFile samples, Host.LoadSampler loads, Session session) {
        Consumer<String> progress = session.progress();
        List<List<Program>> configs = configurations();
        int n = configs.size();
        List<Map<Method, Collecting>> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<Method, Collecting> m = new LinkedHashMap<>();
            METHODS.forEach(x -> m.put(x, new Collecting()));
            got.add(m);
        }
        long timer =
                Stats.of(MeasuredChild.timerCost(o.cpu(), 200_000).samples()).median();
        List<Double> loadPerRound = new ArrayList<>();
        // Rounds interleave every configuration and every method, the order rotated each round; the
        // batch runs are spread over the rounds as evenly as their count allows. A round's runs share
        // one code placement, the next round the next one.
        int rounds = Math.max(o.runs(), o.batchRuns());
        int batchDone = 0;
        int slots = METHODS.size() * n;
        // A stop (Stoppable, the session) ends the running child and leaves off before the next run;
        // the runs completed so far are kept.
        for (int round = 0; round < rounds && !session.stopRequested(); round++) {
            double before = loads.sample().one();
            int placement = ChildSpec.placementForRun(Call.GETPID, round);
            boolean perCallRound = round < o.runs();
            int batchTarget = (int) ((long) o.batchRuns() * (round + 1) / rounds);
            boolean batchRound = batchTarget > batchDone;
            batchDone = batchTarget;
            for (int k = 0; k < slots && !session.stopRequested(); k++) {
                int v = (k + round) % slots;
                int c = v % n;
                Method m = METHODS.get(v / n);
                boolean isBatch = m.timing().batch();
                if (isBatch ? !batchRound : !perCallRound) {
                    continue;
                }
                List<byte[]> progs =
                        configs.get(c).stream().map(Program::toBytes).toList();
                ChildSpec spec = ChildSpec.of(m.loop().call(), o.warmup(), isBatch ? o.batchCount() : o.perCallCount())
                        .withCpu(o.cpu())
                        .withPrograms(progs)
                        .withPlacement(placement)
                        .withMode(m.timing().mode());
                ChildResult r;
                try {
                    r = MeasuredChild.run(spec).requireCompleted();
                } catch (RuntimeException e) {
                    if (session.stopRequested() || session.stopOn(e)) {
                        break; // the stop ended this child, or its failure is the stop: its run is not kept
                    }
                    throw e;
                }
                Collecting into = got.get(c).get(m);
                long figure;
                if (isBatch) {
                    figure = r.batchTotalNs() / o.batchCount();
                    into.totals.add(r.batchTotalNs());
                } else {
                    long[] s = r.samples();
                    if (samples != null) {
                        samples.append(c, variant(m.loop()), into.samples.size(), s);
                    }
                    figure = Configuration.interpolatedMedian(s);
                    into.samples.add(s);
                }
                into.nsPerCall.add(figure);
                into.placements.add(placement);
                progress.accept(String.format(
                        Locale.ROOT,
                        "round %d · placement %d · %s · %s: %d ns/call",
                        round + 1,
                        placement,
                        BitmapEstimates.CONFIGURATIONS.get(c),
                        m.label(),
                        figure));
            }
            loadPerRound.add((before + loads.sample().one()) / 2);
        }
        if (got.stream().flatMap(x -> x.values().stream()).anyMatch(x -> x.nsPerCall.isEmpty())) {
            // Stopped before every configuration had a run every way: no figure for some, keep nothing.
            session.checkpoint();
        }
        List<Configuration> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            boolean cached = c > 0 && CachePredictor.cacheable(configs.get(c), Call.GETPID.nr());
            Map<Method, Runs> runs = new LinkedHashMap<>();
            got.get(c).forEach((m, x) -> runs.put(m, x.done()));
            out.add(new Configuration(c, BitmapEstimates.CONFIGURATIONS.get(c), cached, runs, o.batchCount()));
        }
        return new Measurement(o, List.copyOf(out), timer, List.copyOf(loadPerRound));
    }

    /** Measures without writing anything (for notebooks and jshell). */
    public static Measurement measure(Options o, Consumer<String> progress) {
        return measure(o, null, new Host.LoadSampler(), Session.join(progress));
    }

    /**
     * Measures and writes the results folder, in a session of its own (a notebook's call): Ctrl-C, SIGTERM
     * or a notebook interrupt while it runs stops it, see {@link #run(Options, Session)}. The result names
     * the folder written.
     */
    public static ReproductionResult run(Options o, ResultsFolder folder, Consumer<String> progress) {
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = run(o, session);
        }
        if (!r.written()) {
            folder.abandon(); // nothing measured: nothing left
            return new ReproductionResult(folder.target(), r.summary(), r.interruption());
        }
        return new ReproductionResult(Kept.keep(folder, r, progress), r.summary(), r.interruption());
    }

    /**
     * Measures, leaving off when the session is asked to stop, and returns what was measured for the
     * framework to write ({@link Kept}): the rows, the settings the table is made from, and whether a stop
     * cut the runs short.
     */
    public static ReproductionResult run(Options o, Session session) {
        ResultsFolder folder = session.folder();
        Consumer<String> progress = session.progress();
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        Instant started = Instant.now();
        progress.accept(String.format(
                Locale.ROOT,
                "kernel-bitmap: 5 configurations, 2 loops; per call %d runs of %,d + %,d calls; "
                        + "batch %d runs of %,d calls on each of 2 clocks; CPU %d",
                o.runs(),
                o.warmup(),
                o.perCallCount(),
                o.batchRuns(),
                o.batchCount(),
                o.cpu()));
        Measurement m;
        try (SamplesFile samples = folder.createSamples()) {
            m = measure(o, samples, loads, session);
        }
        Optional<Interruption.Cause> cause = complete(m) ? Optional.empty() : session.stopCause();
        List<KernelBitmapRow> summary = summary(m, cause.isPresent());
        cause.ifPresent(c ->
                progress.accept("kernel-bitmap: " + c.said() + "; writing what was measured to " + folder.target()));
        return ReproductionResult.of(
                ReproductionKind.of(KernelBitmapRow.class, KernelBitmapSettings.class),
                new Recorded<>(summary, KernelBitmapSettings.of(m, loads), host, started, Instant.now()),
                cause);
    }

    /** Whether every configuration has every run it asked for, every way. */
    static boolean complete(Measurement m) {
        return m.configurations().stream()
                .allMatch(c -> METHODS.stream()
                        .allMatch(x -> c.of(x).nsPerCall().size()
                                >= (x.timing().batch()
                                        ? m.options().batchRuns()
                                        : m.options().runs())));
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

    /**
     * One method's figures of one configuration, as a configuration row writes them: the per-call
     * fields ({@code median}..{@code samples}) for a per-call method, the batch ones
     * ({@code fastest}, {@code totals}) for a batch method, null otherwise.
     */
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

    /**
     * {@code summary.json}: the configurations, the estimates, the expectations and the agreement, each
     * with its runs asked and completed ({@code interrupted}: a stop cut the measurement short).
     */
    static List<KernelBitmapRow> summary(Measurement m, boolean interrupted) {
        PublishedKernelBitmap pub = published();
        Options o = m.options();
        Estimated est = m.estimated();
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

    /** Each method's part, in {@link #METHODS} order (null: none for that method). */
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

    /** {@code table.md}: every method side by side, the published figures beside them, and the selftest's printout. */
    static String table(Recorded<KernelBitmapRow, KernelBitmapSettings> run) {
        List<KernelBitmapRow> summary = run.rows();
        Host host = run.host();
        Options o = run.settings().options();
        List<KernelBitmapRow.Configuration> configurations = summary.stream()
                .filter(r -> r instanceof KernelBitmapRow.Configuration)
                .map(r -> (KernelBitmapRow.Configuration) r)
                .toList();
        Estimated m = estimated(configurations);
        StringBuilder md = new StringBuilder("# kernel-bitmap: the selftest's bitmap vs filter overhead\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, clocksource %s, BPF JIT %s; CPU %d; load average %s. "
                        + "Two loops: the bare loop (a syscall instruction inlined in the loop) and the selftest "
                        + "loop (glibc's "
                        + "syscall(__NR_getpid), each result compared with the pid). Per call: %d runs a "
                        + "configuration and loop, "
                        + "%,d warm-up + %,d calls each timed alone with CLOCK_MONOTONIC (timer cost %d ns, in every "
                        + "per-call figure); "
                        + "batch: %d runs a configuration, loop and clock, %,d calls each timed as a whole with "
                        + "CLOCK_MONOTONIC or "
                        + "CLOCK_PROCESS_CPUTIME_ID. The selftest's method is its loop, batch, "
                        + "CLOCK_PROCESS_CPUTIME_ID. "
                        + "Every run is a fresh child; rounds interleave all configurations and methods and rotate "
                        + "the timed loop's "
                        + "code placement. Published: `sudo ./seccomp_benchmark 100000000`, x86, 2020-09-24.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.clocksource(),
                host.bpfJit().get("net.core.bpf_jit_enable"),
                o.cpu(),
                loadRange(run.settings().loadPerRound()),
                o.runs(),
                o.warmup(),
                o.perCallCount(),
                run.settings().timerCostNs(),
                o.batchRuns(),
                o.batchCount()));
        md.append("Each cell: the median run's ns per call; in brackets the spread of the runs ((max − min) / median), "
                + "marked NOISY over 25%.\n\n");
        List<String> head = new ArrayList<>(List.of("configuration", "cache"));
        METHODS.forEach(x -> head.add(x.label()));
        head.add("published");
        MarkdownTable t = new MarkdownTable(head);
        for (KernelBitmapRow.Configuration c : configurations) {
            List<String> row = new ArrayList<>(
                    List.of(c.what(), c.filters() == 0 ? "—" : Boolean.TRUE.equals(c.cache()) ? "yes" : "no"));
            for (Method x : METHODS) {
                Runs r = runsOf(c, x);
                row.add(String.format(
                        Locale.ROOT, "%d ns (%.0f%%%s)", r.figure(), r.spread() * 100, r.noisy() ? " NOISY" : ""));
            }
            row.add(c.publishedNs() + " ns");
            t.row(row);
        }
        md.append(t.render()).append('\n');
        md.append(intervalTable(summary));
        List<String> eh = new ArrayList<>(List.of("estimate"));
        METHODS.forEach(x -> eh.add(x.label()));
        eh.add("published");
        MarkdownTable e = new MarkdownTable(eh);
        for (EstimateRow r : m.estimateRows()) {
            List<String> row = new ArrayList<>(List.of(r.label()));
            for (Method x : METHODS) {
                Double d = r.vsSelftest().get(x);
                String cmp = d == null
                        ? ""
                        : " (" + (d.isInfinite() ? "∞" : String.format(Locale.ROOT, "%.0f%%", d * 100))
                                + (d <= AGREEMENT ? " ✔" : " ✘") + ")";
                row.add(r.ns().get(x) + " ns" + cmp);
            }
            row.add(r.publishedNs() == null ? "—" : r.publishedNs() + " ns");
            e.row(row);
        }
        md.append("Estimates, the median over the rounds. In brackets for the entry and per-filter estimates: the "
                + "difference "
                + "from the selftest's method (last column but one), ✔ within 20%.\n\n");
        md.append(e.render()).append('\n');
        md.append(String.format(
                Locale.ROOT,
                "The selftest loop timed per call, entry and per-filter estimates vs the selftest's method: %s.",
                m.methodsAgree() ? "within 20%" : "NOT all within 20%"));
        for (Method mm : METHODS) {
            if (!mm.equals(SELFTESTS_METHOD) && !mm.equals(SELFTEST_PER_CALL)) {
                md.append(String.format(
                        Locale.ROOT,
                        " %s: %s.",
                        mm.label(),
                        m.agreesWithTheSelftest(mm) ? "within 20%" : "NOT all within 20%"));
            }
        }
        md.append(" A wall-clock batch (CLOCK_MONOTONIC) counts the time the runner waits for its CPU; on a busy host "
                + "it is the "
                + "noisiest method (see its spread).\n\n");
        List<String> xh = new ArrayList<>(List.of("expectation"));
        METHODS.forEach(x -> xh.add(x.label()));
        xh.add("published");
        MarkdownTable x = new MarkdownTable(xh);
        for (ExpectationRow r : m.expectationRows()) {
            List<String> row = new ArrayList<>(List.of(r.check()));
            for (Method mm : METHODS) {
                row.add(cell(r.verdicts().get(mm)));
            }
            row.add(r.publishedOk() == null ? "—" : r.publishedOk() ? "✔" : "✘");
            x.row(row);
        }
        md.append("Expectations: each cell gives the values, then the verdict by the 2020 selftest's rules (≈ within "
                + "1% or 2 ns, "
                + "the version that printed the published output) and by the later selftest's (≈ within 10% "
                + "or 2 ns).\n\n");
        md.append(x.render()).append('\n');
        for (Loop loop : Loop.values()) {
            md.append("By code placement of the timed loop (16-byte steps within a 64-byte line), ")
                    .append(loop.label())
                    .append(" (")
                    .append(loop.how())
                    .append("): per call | batch, CLOCK_MONOTONIC | batch, CLOCK_PROCESS_CPUTIME_ID:\n\n");
            List<String> ph = new ArrayList<>(List.of("configuration"));
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                ph.add("placement " + p);
            }
            MarkdownTable pt = new MarkdownTable(ph);
            for (KernelBitmapRow.Configuration c : configurations) {
                List<String> row = new ArrayList<>(List.of(c.what()));
                List<List<Long>> by = METHODS.stream()
                        .filter(mm -> mm.loop() == loop)
                        .map(mm -> byPlacement(c, mm))
                        .toList();
                for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                    int at = p;
                    row.add(String.join(
                            " | ",
                            by.stream()
                                    .map(l -> l.get(at) == null ? "—" : l.get(at) + " ns")
                                    .toList()));
                }
                pt.row(row);
            }
            md.append(pt.render()).append('\n');
        }
        md.append(String.format(
                Locale.ROOT,
                "Every figure is a median. A configuration's figure is its median run's (per call, "
                        + "each run's median interpolated within the clock's step: %d ns here, and a plain median "
                        + "moves in whole steps, which is "
                        + "most of a 20 ns estimate). Each estimate is taken round by round, from runs measured "
                        + "moments apart, and the median "
                        + "over the rounds is given: the host's slow spells then lift both sides of a difference "
                        + "instead of one. Where the "
                        + "timed loop sits in its code lines moves a per-call figure by up to tens of ns (the tables "
                        + "above), so the rounds "
                        + "rotate it through four placements. Every run is in summary.json.%n%n",
                configurations.get(0).clockStepNs()));
        for (Method mm : List.of(METHODS.get(0), SELFTESTS_METHOD)) {
            md.append("As the selftest prints them, ")
                    .append(mm.label())
                    .append(". The configuration lines are not measured runs: "
                            + "native is the median over the rounds, each filtered line the native median plus that "
                            + "configuration's median "
                            + "overhead over the rounds (so that the lines' differences are the totals); estimates "
                            + "are medians over the "
                            + "rounds; expectations by the later selftest's rules (≈ within 10% or 2 ns):\n\n```\n");
            m.estimates(mm).lines().forEach(l -> md.append(l).append('\n'));
            md.append("```\n\n");
        }
        md.append("Verdicts describe this host; a per-call median includes the timer's two reads, which cancel in "
                + "every difference.\n");
        return md.toString();
    }

    /**
     * The configurations' intervals, a line a configuration and loop: the per-call median, p99 and added
     * cost (over all samples) with theirs, and each batch clock's interval, as summary.json has them.
     */
    /** The estimates as the run made them, from the run figures its configuration rows hold. */
    static Estimated estimated(List<KernelBitmapRow.Configuration> configurations) {
        return Estimated.of(
                x -> configurations.stream().map(c -> runsOf(c, x).nsPerCall()).toList());
    }

    /** {@code c}'s runs of {@code x} as its row holds them: each run's figure and placement (no samples). */
    static Runs runsOf(KernelBitmapRow.Configuration c, Method x) {
        KernelBitmapRow.LoopFigures f =
                c.of(KernelBitmapRow.Loop.valueOf(x.loop().name()));
        List<Long> figures;
        List<Long> placements;
        switch (x.timing()) {
            case PER_CALL -> {
                figures = f.perCall().runMediansInterpolatedNs();
                placements = f.perCall().runPlacements();
            }
            case BATCH_MONOTONIC -> {
                figures = f.monotonic().runNsPerCall();
                placements = f.monotonic().runPlacements();
            }
            default -> {
                figures = f.cputime().runNsPerCall();
                placements = f.cputime().runPlacements();
            }
        }
        return new Runs(figures, placements.stream().map(Long::intValue).toList(), List.of(), List.of());
    }

    /** {@code c}'s figure of {@code x} at each code placement, as its row holds them. */
    private static List<Long> byPlacement(KernelBitmapRow.Configuration c, Method x) {
        KernelBitmapRow.LoopFigures f =
                c.of(KernelBitmapRow.Loop.valueOf(x.loop().name()));
        return switch (x.timing()) {
            case PER_CALL -> f.perCall().nsByPlacement();
            case BATCH_MONOTONIC -> f.monotonic().nsPerCallByPlacement();
            case BATCH_CPUTIME -> f.cputime().nsPerCallByPlacement();
        };
    }

    static String intervalTable(List<KernelBitmapRow> summary) {
        MarkdownTable t = new MarkdownTable(List.of(
                "configuration",
                "loop",
                "median",
                RowIntervals.heading("median"),
                "p99",
                RowIntervals.heading("p99"),
                "added",
                RowIntervals.heading("added"),
                RowIntervals.heading("batch, CLOCK_MONOTONIC"),
                RowIntervals.heading("batch, CLOCK_PROCESS_CPUTIME_ID")));
        for (KernelBitmapRow row : summary) {
            if (!(row instanceof KernelBitmapRow.Configuration c)) {
                continue;
            }
            for (KernelBitmapRow.Loop loop : KernelBitmapRow.Loop.values()) {
                KernelBitmapRow.PerCall f = c.of(loop).perCall();
                KernelBitmapRow.LoopIntervals i = c.intervals(loop);
                RowIntervals pc = i == null ? null : i.perCall();
                t.row(List.of(
                        c.what(),
                        Loop.valueOf(loop.name()).label(),
                        f.medianNs() == null ? "—" : MarkdownTable.ns(f.medianNs()),
                        pc == null ? "—" : RowIntervals.cell(pc.median()),
                        f.p99Ns() == null ? "—" : MarkdownTable.tail(f.p99Ns()),
                        pc == null ? "—" : RowIntervals.cell(pc.p99()),
                        i == null || i.addedNs() == null ? "—" : MarkdownTable.added(i.addedNs()),
                        pc == null ? "—" : RowIntervals.cell(pc.added()),
                        i == null ? "—" : RowIntervals.cell(i.monotonic()),
                        i == null ? "—" : RowIntervals.cell(i.cputime())));
            }
        }
        return "Intervals (ns, 95%), distribution-free: for the per-call median and p99 (over all samples), "
                + "order statistics over the runs' medians and p99s; for `added` (the median minus that of the "
                + "configuration with no filter, same loop), the Hodges–Lehmann shift of the two configurations' "
                + "run medians with its Mann–Whitney interval; for a batch clock, order statistics over the batch "
                + "runs' ns per call about the median run's. Where the runs are too few for 95% the coverage they "
                + "reach is given.\n\n"
                + t.render()
                + '\n';
    }

    private static String loadRange(List<Double> l) {
        if (l.isEmpty()) {
            return "—";
        }
        return String.format(
                Locale.ROOT,
                "%.2f to %.2f",
                l.stream().mapToDouble(Double::doubleValue).min().getAsDouble(),
                l.stream().mapToDouble(Double::doubleValue).max().getAsDouble());
    }

    /** {@code 26 ≈ 30: ✘ 2020 · ✔ later}, or {@code skipped} under both rules. */
    private static String cell(Map<BitmapEstimates.Rule, BitmapEstimates.Expectation> byRule) {
        BitmapEstimates.Expectation any = byRule.get(BitmapEstimates.Rule.LATER);
        StringBuilder b = new StringBuilder(any.a() + " " + any.op() + " " + any.b() + ":");
        byRule.forEach((rule, v) ->
                b.append(' ').append(v.verdict().mark()).append(' ').append(rule.key()));
        return b.toString();
    }
}
