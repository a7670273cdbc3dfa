package heimdall.lab.reproduce;

import heimdall.lab.bench.GroupedMedian;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Insn;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.sys.Host;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The kernel selftest's bitmap experiment ({@code seccomp_benchmark}, seed {@code 003}), measured two
 * ways in one invocation: per-call samples from our harness (a fresh child per run, each call timed
 * alone, medians) and the selftest's own method (one clock pair around the whole loop, read with
 * {@code CLOCK_PROCESS_CPUTIME_ID}, total divided by the calls). Both feed the same
 * {@link BitmapEstimates}; the entry and per-filter estimates of the two methods are compared.
 *
 * <p>Unlike the selftest, which stacks its filters in one process one after the other, every run here
 * is a fresh child that installs a configuration's filters and then only calls {@code getpid}. The runs
 * come in rounds: each round runs every configuration both ways, in an order rotated from round to
 * round, so a drift of the host spreads over all of them. Each round also moves the timed loop to the
 * next of the runner's code placements ({@link ChildSpec#placement()}): where the loop sits in its
 * 64-byte code lines changes a per-call figure by up to 30 ns on the project's VM, as much as the
 * estimates themselves, so the figures are medians over placements, not over one accident of the link.
 * Every figure is a median: over all per-call samples of a configuration (interpolated within the
 * clock's step), and over a configuration's batch runs.
 *
 * <p>From a notebook: {@code KernelBitmap.measure(KernelBitmap.Options.quick(), s -> {})} returns the
 * {@link Measurement} with {@link Measurement#estimateRows()} and {@link Measurement#expectationRows()}.
 */
public final class KernelBitmap {
    private KernelBitmap() {}

    /** {@code SECCOMP_RET_ALLOW}. */
    static final int RET_ALLOW = 0x7fff0000;

    /** A filter the action cache can answer: load {@code nr}, allow. */
    public static final Program BITMAP_FILTER = new Program(List.of(Insn.ldAbs(SeccompData.OFF_NR), Insn.ret(RET_ALLOW)));
    /** A filter the action cache cannot answer, because it loads an argument: load {@code args[0]}, allow. */
    public static final Program FULL_FILTER = new Program(List.of(Insn.ldAbs(SeccompData.OFF_ARGS), Insn.ret(RET_ALLOW)));

    /** The five configurations' programs, in installation order: none, 1 and 2 bitmap, + full, + bitmap. */
    public static List<List<Program>> configurations() {
        return List.of(List.of(), List.of(BITMAP_FILTER), List.of(BITMAP_FILTER, BITMAP_FILTER),
                List.of(BITMAP_FILTER, BITMAP_FILTER, FULL_FILTER),
                List.of(BITMAP_FILTER, BITMAP_FILTER, FULL_FILTER, BITMAP_FILTER));
    }

    /**
     * What to run.
     *
     * @param runs fresh children per configuration for the per-call method (a multiple of
     *     {@value ChildSpec#PLACEMENTS} covers every placement equally)
     * @param warmup untimed calls before each run's measured ones
     * @param perCallCount calls timed one by one per run
     * @param batchRuns fresh children per configuration for the batch method: many short runs rather
     *     than the selftest's one long one, so that their median is not one burst of the host's other work
     * @param batchCount calls timed as a whole per batch run (the selftest: 10^8, or 15 s worth, once)
     * @param cpu the measuring CPU
     */
    public record Options(int runs, long warmup, long perCallCount, int batchRuns, long batchCount, int cpu) {
        /** 32 rounds: 20,000 warm-up + 250,000 calls timed each, and 1,250,000 timed as a whole; about a minute and a half. */
        public static Options full() {
            return new Options(32, 20_000, 250_000, 32, 1_250_000, heimdall.lab.sys.Cpus.measuring());
        }

        /** 16 rounds of 2,500 + 25,000 timed each and 125,000 as a whole: seconds, for trying things. */
        public static Options quick() {
            return new Options(16, 2_500, 25_000, 16, 125_000, heimdall.lab.sys.Cpus.measuring());
        }

        public Options withCpu(int cpu) {
            return new Options(runs, warmup, perCallCount, batchRuns, batchCount, cpu);
        }
    }

    /**
     * One configuration, measured both ways.
     *
     * @param filters how many filters are installed (0 to 4)
     * @param what the selftest's name for it
     * @param cachePredicted whether our predictor says the kernel answers {@code getpid} from its action cache
     * @param perCallRuns each run's per-call samples, ns
     * @param runInterpolatedMedians each per-call run's median, interpolated within the clock's step
     *     ({@link GroupedMedian}), rounded to a whole ns: taken once as each run arrives, since every
     *     estimate is made from these
     * @param perCallPlacements the code placement of each per-call run
     * @param batchTotalsNs each batch run's total, ns of process CPU time
     * @param batchPlacements the code placement of each batch run
     * @param batchCount the calls in each batch run
     */
    public record Configuration(int filters, String what, boolean cachePredicted, List<long[]> perCallRuns,
            List<Long> runInterpolatedMedians, List<Integer> perCallPlacements, List<Long> batchTotalsNs,
            List<Integer> batchPlacements, long batchCount) {
        public Configuration {
            if (runInterpolatedMedians.size() != perCallRuns.size() || perCallPlacements.size() != perCallRuns.size()
                    || batchPlacements.size() != batchTotalsNs.size()) {
                throw new IllegalArgumentException("one median and one placement per run");
            }
        }

        /** A run's interpolated median, as {@link #runInterpolatedMedians} holds it. */
        static long interpolatedMedian(long[] run) {
            return Math.round(GroupedMedian.of(run).median());
        }

        /**
         * The per-call figure: the median run's median (lower middle of an even count), each run's
         * interpolated within the clock's step; a plain median moves in whole steps (10 ns on the
         * project's VM), which is most of a 20 ns estimate.
         */
        public long perCallNs() {
            long[] runs = runInterpolatedMedians().stream().mapToLong(Long::longValue).sorted().toArray();
            return runs[(runs.length - 1) / 2];
        }

        /** Per placement (index), the interpolated median over the per-call runs at it; null where none ran. */
        public List<Long> perCallNsByPlacement() {
            List<Long> out = new ArrayList<>();
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                List<long[]> at = new ArrayList<>();
                for (int i = 0; i < perCallRuns.size(); i++) {
                    if (perCallPlacements.get(i) == p) {
                        at.add(perCallRuns.get(i));
                    }
                }
                out.add(at.isEmpty() ? null : Math.round(GroupedMedian.of(at.toArray(long[][]::new)).median()));
            }
            return out;
        }

        /** Per placement (index), the median batch run's ns per call at it; null where none ran. */
        public List<Long> batchNsPerCallByPlacement() {
            List<Long> perRun = batchNsPerCallRuns();
            List<Long> out = new ArrayList<>();
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                int pl = p;
                long[] at = java.util.stream.IntStream.range(0, perRun.size()).filter(i -> batchPlacements.get(i) == pl)
                        .mapToLong(perRun::get).toArray();
                out.add(at.length == 0 ? null : Stats.of(at).median());
            }
            return out;
        }

        /** The clock's step seen in all per-call samples, ns (1 when they show none). */
        public long clockStep() {
            return GroupedMedian.of(perCallRuns.toArray(long[][]::new)).step();
        }

        /** Plain order statistics over all per-call samples (the median moves in whole clock steps). */
        public Stats.Summary allSamples() {
            return Stats.ofAll(perCallRuns.toArray(long[][]::new));
        }

        /** Each batch run's ns per call, rounded down as the selftest divides. */
        public List<Long> batchNsPerCallRuns() {
            return batchTotalsNs.stream().map(t -> t / batchCount).toList();
        }

        /** The figure the batch estimates use: the median batch run's ns per call. */
        public long batchNsPerCall() {
            return Stats.of(batchNsPerCallRuns().stream().mapToLong(Long::longValue).toArray()).median();
        }

        /** The fastest batch run's ns per call (shown beside the median, not used). */
        public long batchFastestNsPerCall() {
            return Stats.of(batchNsPerCallRuns().stream().mapToLong(Long::longValue).toArray()).min();
        }
    }

    /**
     * An estimate by both methods, with the published figure.
     *
     * @param agree for the entry and per-filter estimates: whether ours is within 25% of the batch
     *     method's; null for the totals, which are not compared
     */
    public record EstimateRow(String name, String label, long harnessNs, long batchNs, Long publishedNs,
            Double relativeDifference, Boolean agree) {}

    /** An expectation by both methods, with the published verdict. */
    public record ExpectationRow(String check, BitmapEstimates.Expectation harness, BitmapEstimates.Expectation batch,
            Boolean publishedOk) {}

    /** Which estimates are compared across the methods, and the bound. */
    public static final List<String> COMPARED = List.of("entry", "per_filter_last_2_diff", "per_filter_filters_div_4");
    public static final double AGREEMENT = 0.25;

    /** Everything one invocation measured. */
    public record Measurement(Options options, List<Configuration> configurations, long timerNs, List<Double> loadPerRound) {
        /**
         * The estimates from the per-call runs: round by round from each run's interpolated median,
         * then the median over the rounds ({@link BitmapEstimates#ofRounds}).
         */
        public BitmapEstimates harness() {
            return BitmapEstimates.ofRounds(rounds(configurations.stream().map(Configuration::runInterpolatedMedians).toList()));
        }

        /** The estimates from the batch runs (the selftest's method), round by round, then the median over the rounds. */
        public BitmapEstimates batch() {
            return BitmapEstimates.ofRounds(rounds(configurations.stream().map(Configuration::batchNsPerCallRuns).toList()));
        }

        /** The seven estimates side by side. */
        @SuppressWarnings("unchecked")
        public List<EstimateRow> estimateRows() {
            Map<String, Object> pub = (Map<String, Object>) published().get("estimates_ns");
            Map<String, Long> h = harness().byName();
            Map<String, Long> b = batch().byName();
            List<EstimateRow> rows = new ArrayList<>();
            for (String k : h.keySet()) {
                Long p = pub != null && pub.get(k) instanceof Number n ? n.longValue() : null;
                Double rel = null;
                Boolean agree = null;
                if (COMPARED.contains(k)) {
                    rel = relativeDifference(h.get(k), b.get(k));
                    agree = agrees(h.get(k), b.get(k));
                }
                rows.add(new EstimateRow(k, BitmapEstimates.LABELS.get(k), h.get(k), b.get(k), p, rel, agree));
            }
            return rows;
        }

        /** The seven expectations side by side. */
        @SuppressWarnings("unchecked")
        public List<ExpectationRow> expectationRows() {
            List<Map<String, Object>> pub = (List<Map<String, Object>>) published().get("expectations");
            List<ExpectationRow> rows = new ArrayList<>();
            List<BitmapEstimates.Expectation> h = harness().expectations();
            List<BitmapEstimates.Expectation> b = batch().expectations();
            for (int i = 0; i < h.size(); i++) {
                Boolean ok = pub != null && i < pub.size() && pub.get(i).get("ok") instanceof Boolean x ? x : null;
                rows.add(new ExpectationRow(h.get(i).check(), h.get(i), b.get(i), ok));
            }
            return rows;
        }

        /** Whether every compared estimate agrees within 25%. */
        public boolean methodsAgree() {
            return estimateRows().stream().filter(r -> r.agree() != null).allMatch(EstimateRow::agree);
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

    /** {@code |harness - batch| / |batch|}; infinite when the batch figure is 0 and ours is not. */
    public static double relativeDifference(long harness, long batch) {
        if (harness == batch) {
            return 0.0;
        }
        return batch == 0 ? Double.POSITIVE_INFINITY : Math.abs((double) harness - batch) / Math.abs((double) batch);
    }

    /** Whether our estimate is within 25% of the batch method's. */
    public static boolean agrees(long harness, long batch) {
        return relativeDifference(harness, batch) <= AGREEMENT;
    }

    /** The published selftest output as data. */
    public static Map<String, Object> published() {
        return Fixtures.published("kernel-bitmap");
    }

    /** Measures every configuration both ways; per-call samples go to {@code samples} when given. */
    public static Measurement measure(Options o, SamplesFile samples, Host.LoadSampler loads, Consumer<String> progress) {
        List<List<Program>> configs = configurations();
        int n = configs.size();
        List<List<long[]>> perCall = new ArrayList<>();
        List<List<Long>> perCallMedians = new ArrayList<>();
        List<List<Integer>> perCallPlaced = new ArrayList<>();
        List<List<Long>> batch = new ArrayList<>();
        List<List<Integer>> batchPlaced = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            perCall.add(new ArrayList<>());
            perCallMedians.add(new ArrayList<>());
            perCallPlaced.add(new ArrayList<>());
            batch.add(new ArrayList<>());
            batchPlaced.add(new ArrayList<>());
        }
        long timer = Stats.of(MeasuredChild.timerCost(o.cpu(), 200_000).samples()).median();
        List<Double> loadPerRound = new ArrayList<>();
        // Rounds interleave every configuration and both methods, the order rotated each round; the
        // batch runs are spread over the rounds as evenly as their count allows. A round's runs share
        // one code placement, the next round the next one.
        int rounds = Math.max(o.runs(), o.batchRuns());
        int batchDone = 0;
        for (int round = 0; round < rounds; round++) {
            double before = loads.sample().one();
            int placement = ChildSpec.placementForRun(Call.GETPID, round);
            boolean perCallRound = round < o.runs();
            int batchTarget = (int) ((long) o.batchRuns() * (round + 1) / rounds);
            boolean batchRound = batchTarget > batchDone;
            batchDone = batchTarget;
            for (int k = 0; k < 2 * n; k++) {
                int v = (k + round) % (2 * n);
                int c = v % n;
                boolean isBatch = v >= n;
                if (isBatch ? !batchRound : !perCallRound) {
                    continue;
                }
                List<byte[]> progs = configs.get(c).stream().map(Program::toBytes).toList();
                ChildSpec spec = ChildSpec.of(Call.GETPID, o.warmup(), isBatch ? o.batchCount() : o.perCallCount())
                        .withCpu(o.cpu()).withPrograms(progs).withPlacement(placement);
                if (isBatch) {
                    ChildResult r = MeasuredChild.run(spec.withMode(ChildSpec.Mode.BATCH_CPUTIME)).requireCompleted();
                    batch.get(c).add(r.batchTotalNs());
                    batchPlaced.get(c).add(placement);
                    progress.accept(String.format(Locale.ROOT, "round %d · placement %d · %s · batch (CPUTIME): %d ns/call", round + 1,
                            placement, BitmapEstimates.CONFIGURATIONS.get(c), r.batchTotalNs() / o.batchCount()));
                } else {
                    long[] s = MeasuredChild.run(spec).requireCompleted().samples();
                    if (samples != null) {
                        samples.append(c, "per-call", perCall.get(c).size(), s);
                    }
                    long median = Configuration.interpolatedMedian(s);
                    perCall.get(c).add(s);
                    perCallMedians.get(c).add(median);
                    perCallPlaced.get(c).add(placement);
                    progress.accept(String.format(Locale.ROOT, "round %d · placement %d · %s · per call: median %d ns", round + 1,
                            placement, BitmapEstimates.CONFIGURATIONS.get(c), median));
                }
            }
            loadPerRound.add((before + loads.sample().one()) / 2);
        }
        List<Configuration> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            boolean cached = c > 0 && CachePredictor.cacheable(configs.get(c), Call.GETPID.nr());
            out.add(new Configuration(c, BitmapEstimates.CONFIGURATIONS.get(c), cached, List.copyOf(perCall.get(c)),
                    List.copyOf(perCallMedians.get(c)), List.copyOf(perCallPlaced.get(c)), List.copyOf(batch.get(c)), List.copyOf(batchPlaced.get(c)), o.batchCount()));
        }
        return new Measurement(o, List.copyOf(out), timer, List.copyOf(loadPerRound));
    }

    /** Measures without writing anything (for notebooks and jshell). */
    public static Measurement measure(Options o, Consumer<String> progress) {
        return measure(o, null, new Host.LoadSampler(), progress);
    }

    /** Measures and writes the results folder. */
    public static ReproductionResult run(Options o, ResultsFolder folder, Consumer<String> progress) {
        Host host = Host.capture();
        Host.LoadSampler loads = new Host.LoadSampler();
        Instant started = Instant.now();
        progress.accept(String.format(Locale.ROOT, "kernel-bitmap: 5 configurations; per call %d runs of %,d + %,d calls; batch %d runs of %,d calls; CPU %d",
                o.runs(), o.warmup(), o.perCallCount(), o.batchRuns(), o.batchCount(), o.cpu()));
        Measurement m;
        try (SamplesFile samples = SamplesFile.create(folder.path().resolve("samples.arrow"))) {
            m = measure(o, samples, loads, progress);
        }
        List<Map<String, Object>> summary = summary(m);
        folder.writeSummary("kernel-bitmap", java.util.Optional.empty(), summary);
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("reproduction", "kernel-bitmap");
        env.put("started", started.toString());
        env.put("finished", Instant.now().toString());
        env.putAll(host.toMap());
        env.put("cpu", o.cpu());
        env.put("options", o);
        env.put("timer_cost_ns", m.timerNs());
        env.put("load_samples", loads.toMap());
        env.put("methods", Map.of(
                "per_call", "a fresh runner per run pins itself, installs the configuration and times each getpid alone "
                        + "with clock_gettime(CLOCK_MONOTONIC) (vDSO); each run's median is interpolated within the clock's step; "
                        + "per_call_ns is the median run's (also given: each run's, each placement's, and median_ns, the plain median over all samples)",
                "batch", "a fresh runner per run, one clock_gettime(CLOCK_PROCESS_CPUTIME_ID) pair around all calls "
                        + "(the selftest's clock); ns per call = total / calls rounded down; batch_ns_per_call is the median run "
                        + "(batch_fastest_ns_per_call: the fastest)",
                "estimates", "for each method, the selftest's estimates are taken round by round from that round's runs, and each "
                        + "estimate is the median over the rounds; expectations are judged on those and on the median figures",
                "rounds", "each round runs every configuration both ways in a rotated order, all at one code placement of "
                        + "the timed loop (0..3: 16-byte steps within a 64-byte line), the next round at the next placement"));
        env.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        folder.writeJson("environment.json", env);
        folder.writeText("table.md", table(m, host));
        return new ReproductionResult(folder.path(), summary);
    }

    /** {@code summary.json}: the configurations, the estimates and the expectations, one object each. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> summary(Measurement m) {
        List<Map<String, Object>> pubRows = (List<Map<String, Object>>) published().get("rows");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Configuration c : m.configurations()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("section", "configuration");
            r.put("what", c.what());
            r.put("filters", c.filters());
            r.put("mode", c.filters() == 0 ? "native" : c.filters() <= 2 ? "bitmap" : "full");
            r.put("cache", c.cachePredicted());
            r.put("per_call_ns", c.perCallNs());
            r.put("run_medians_interpolated_ns", c.runInterpolatedMedians());
            r.put("run_placements", c.perCallPlacements());
            r.put("per_call_ns_by_placement", c.perCallNsByPlacement());
            Stats.Summary all = c.allSamples();
            r.put("median_ns", all.median());
            r.put("clock_step_ns", c.clockStep());
            r.put("p99_ns", all.p99());
            r.put("run_medians_ns", Stats.runMedians(c.perCallRuns().toArray(long[][]::new)));
            r.put("samples", all.count());
            r.put("batch_ns_per_call", c.batchNsPerCall());
            r.put("batch_fastest_ns_per_call", c.batchFastestNsPerCall());
            r.put("batch_run_ns_per_call", c.batchNsPerCallRuns());
            r.put("batch_run_placements", c.batchPlacements());
            r.put("batch_ns_per_call_by_placement", c.batchNsPerCallByPlacement());
            r.put("batch_totals_ns", c.batchTotalsNs());
            r.put("batch_calls", c.batchCount());
            r.put("published_ns", pubRows.get(c.filters()).get("ns"));
            out.add(r);
        }
        for (EstimateRow e : m.estimateRows()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("section", "estimate");
            r.put("what", e.name());
            r.put("label", e.label());
            r.put("harness_ns", e.harnessNs());
            r.put("batch_ns", e.batchNs());
            r.put("published_ns", e.publishedNs());
            r.put("relative_difference", e.relativeDifference() == null || e.relativeDifference().isInfinite() ? null
                    : Math.round(e.relativeDifference() * 1000) / 1000.0);
            r.put("agree_within_25pct", e.agree());
            out.add(r);
        }
        for (ExpectationRow e : m.expectationRows()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("section", "expectation");
            r.put("what", e.check());
            r.put("harness_values", List.of(e.harness().a(), e.harness().b()));
            r.put("harness", e.harness().verdict().name().toLowerCase(Locale.ROOT));
            r.put("batch_values", List.of(e.batch().a(), e.batch().b()));
            r.put("batch", e.batch().verdict().name().toLowerCase(Locale.ROOT));
            r.put("published_ok", e.publishedOk());
            out.add(r);
        }
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("section", "agreement");
        a.put("what", "entry and per-filter estimates: harness within 25% of the batch method");
        a.put("compared", COMPARED);
        a.put("agree", m.methodsAgree());
        a.put("harness_unexpected", m.harness().unexpected());
        a.put("batch_unexpected", m.batch().unexpected());
        out.add(a);
        return out;
    }

    /** {@code table.md}: both methods side by side, the published figures beside them, and the selftest's printout. */
    static String table(Measurement m, Host host) {
        Options o = m.options();
        StringBuilder md = new StringBuilder("# kernel-bitmap: the selftest's bitmap vs filter overhead\n\n");
        md.append(String.format(Locale.ROOT, "Host: %s (%d CPUs), kernel %s, clocksource %s, BPF JIT %s; CPU %d; load average %s. "
                        + "Per call: %d runs a configuration, %,d warm-up + %,d timed calls each (timer cost %d ns, in every per-call figure); "
                        + "batch: %d runs a configuration, %,d calls each timed as a whole with CLOCK_PROCESS_CPUTIME_ID. "
                        + "Every run is a fresh child; rounds interleave all configurations and both methods and rotate the timed loop's "
                        + "code placement. Published: `sudo ./seccomp_benchmark 100000000`, x86, 2020-09-24.%n%n",
                host.cpuModel(), host.onlineCpus(), host.kernelRelease(), host.clocksource(),
                host.bpfJit().get("net.core.bpf_jit_enable"), o.cpu(), loadRange(m.loadPerRound()), o.runs(), o.warmup(), o.perCallCount(),
                m.timerNs(), o.batchRuns(), o.batchCount()));
        MarkdownTable t = new MarkdownTable(List.of("configuration", "cache", "per call: median run", "plain median", "p99",
                "run medians (min–max)", "batch (CPUTIME): median run", "fastest run", "published"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> pubRows = (List<Map<String, Object>>) published().get("rows");
        for (Configuration c : m.configurations()) {
            List<Long> runs = c.runInterpolatedMedians();
            Stats.Summary all = c.allSamples();
            t.row(List.of(c.what(), c.filters() == 0 ? "—" : c.cachePredicted() ? "yes" : "no", c.perCallNs() + " ns",
                    all.median() + " ns", all.p99() + " ns",
                    runs.stream().mapToLong(Long::longValue).min().orElse(0) + "–" + runs.stream().mapToLong(Long::longValue).max().orElse(0) + " ns",
                    c.batchNsPerCall() + " ns", c.batchFastestNsPerCall() + " ns", pubRows.get(c.filters()).get("ns") + " ns"));
        }
        md.append(t.render()).append('\n');
        MarkdownTable e = new MarkdownTable(List.of("estimate", "per call", "batch", "published", "per call vs batch"));
        for (EstimateRow r : m.estimateRows()) {
            String cmp = r.agree() == null ? "—" : String.format(Locale.ROOT, "%s %s", r.relativeDifference().isInfinite() ? "∞"
                    : String.format(Locale.ROOT, "%.0f%%", r.relativeDifference() * 100), r.agree() ? "✔ within 25%" : "✘ beyond 25%");
            e.row(List.of(r.label(), r.harnessNs() + " ns", r.batchNs() + " ns", r.publishedNs() == null ? "—" : r.publishedNs() + " ns", cmp));
        }
        md.append(e.render()).append('\n');
        MarkdownTable x = new MarkdownTable(List.of("expectation", "per call", "batch", "published"));
        for (ExpectationRow r : m.expectationRows()) {
            x.row(List.of(r.check(), cell(r.harness()), cell(r.batch()), r.publishedOk() == null ? "—" : r.publishedOk() ? "✔" : "✘"));
        }
        md.append(x.render()).append('\n');
        md.append(String.format("Entry and per-filter estimates, per call vs batch: %s.%n%n",
                m.methodsAgree() ? "agree within 25%" : "do NOT all agree within 25%"));
        md.append("By code placement of the timed loop (16-byte steps within a 64-byte line), per call | batch:\n\n");
        List<String> head = new ArrayList<>(List.of("configuration"));
        for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
            head.add("placement " + p);
        }
        MarkdownTable pt = new MarkdownTable(head);
        for (Configuration c : m.configurations()) {
            List<String> row = new ArrayList<>(List.of(c.what()));
            List<Long> pc = c.perCallNsByPlacement();
            List<Long> bt = c.batchNsPerCallByPlacement();
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                row.add((pc.get(p) == null ? "—" : pc.get(p) + " ns") + " | " + (bt.get(p) == null ? "—" : bt.get(p) + " ns"));
            }
            pt.row(row);
        }
        md.append(pt.render()).append('\n');
        md.append(String.format(Locale.ROOT, "Every figure is a median. A configuration's figure is its median run's (per call, "
                + "each run's median interpolated within the clock's step: %d ns here, and a plain median moves in whole steps, which is "
                + "most of a 20 ns estimate). Each estimate is taken round by round, from runs measured moments apart, and the median "
                + "over the rounds is given: the host's slow spells then lift both sides of a difference instead of one. Where the "
                + "timed loop sits in its code lines moves a per-call figure by up to tens of ns (the table above), so the rounds "
                + "rotate it through four placements. Every run is in summary.json.%n%n",
                m.configurations().get(0).clockStep()));
        md.append("As the selftest prints them, per call (median runs, estimates the median over rounds):\n\n```\n");
        m.harness().lines().forEach(l -> md.append(l).append('\n'));
        md.append("```\n\nBatch (CLOCK_PROCESS_CPUTIME_ID around the loop; median runs, estimates the median over rounds):\n\n```\n");
        m.batch().lines().forEach(l -> md.append(l).append('\n'));
        md.append("```\n\n≈: equal, or within 10% (of the smaller) or 2 ns, the selftest's rule. Verdicts describe this host; "
                + "a per-call median includes the timer's two reads, which cancel in every difference.\n");
        return md.toString();
    }

    private static String loadRange(List<Double> l) {
        if (l.isEmpty()) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f to %.2f", l.stream().mapToDouble(Double::doubleValue).min().getAsDouble(),
                l.stream().mapToDouble(Double::doubleValue).max().getAsDouble());
    }

    private static String cell(BitmapEstimates.Expectation e) {
        return e.verdict() == BitmapEstimates.Verdict.SKIPPED ? "skipped" : e.a() + " " + e.op() + " " + e.b() + " " + e.verdict().mark();
    }
}
