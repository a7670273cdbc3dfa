package heimdall.lab.reproduce.kernelbitmap;

import heimdall.lab.bench.GroupedMedian;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.Insn;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.PublishedKernelBitmap;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

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
 *
 * <p>This class holds the model (the filters, loops, timings, methods, options, runs and configurations) and the
 * entry points; the rounds of children are {@link KernelBitmapMeasuring}'s, every method's estimates against the
 * selftest's {@link MethodEstimates}', the rows {@link KernelBitmapSummary}'s and {@code table.md}
 * {@link KernelBitmapTable}'s.
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
        /** Every method's estimates, from each configuration's runs ({@link MethodEstimates}). */
        public MethodEstimates estimated() {
            return MethodEstimates.of(
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

        /** The must-hold ({@link MethodEstimates#methodsAgree}). */
        public boolean methodsAgree() {
            return estimated().methodsAgree();
        }
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

    /** The samples file's variant for a per-call loop: {@code per-call} (bare) and {@code per-call-selftest-loop}. */
    public static String variant(Loop loop) {
        return loop == Loop.BARE ? "per-call" : "per-call-selftest-loop";
    }

    /**
     * Measures every configuration every way; per-call samples go to {@code samples} when given,
     * progress lines to the session, which stops it between runs.
     */
    public static Measurement measure(Options o, SamplesFile samples, Host.LoadSampler loads, Session session) {
        return KernelBitmapMeasuring.measure(o, samples, loads, session);
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
        Optional<Interruption.Cause> cause = KernelBitmapMeasuring.complete(m) ? Optional.empty() : session.stopCause();
        List<KernelBitmapRow> summary = KernelBitmapSummary.of(m, cause.isPresent());
        cause.ifPresent(c ->
                progress.accept("kernel-bitmap: " + c.said() + "; writing what was measured to " + folder.target()));
        return ReproductionResult.of(
                ReproductionKind.of(KernelBitmapRow.class, KernelBitmapSettings.class),
                new Recorded<>(summary, KernelBitmapSettings.of(m, loads), host, started, Instant.now()),
                cause);
    }
}
