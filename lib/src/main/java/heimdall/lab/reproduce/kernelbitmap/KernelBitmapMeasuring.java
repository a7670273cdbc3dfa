package heimdall.lab.reproduce.kernelbitmap;

import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.METHODS;

import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Program;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Configuration;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Measurement;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Method;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Options;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Runs;
import heimdall.lab.sys.Host;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * kernel-bitmap's measuring loop: rounds of fresh children, every configuration every way in each round at one
 * code placement of the timed loop, gathered into a {@link Measurement}. Its own class because it is the one part
 * of the kind that runs children; the model ({@link KernelBitmap}), the rows ({@link KernelBitmapSummary}) and the
 * table ({@link KernelBitmapTable}) only read what it gathered.
 */
final class KernelBitmapMeasuring {
    private KernelBitmapMeasuring() {}

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

    /**
     * Measures every configuration every way; per-call samples go to {@code samples} when given,
     * progress lines to the session, which stops it between runs.
     */
    static Measurement measure(Options o, SamplesFile samples, Host.LoadSampler loads, Session session) {
        Consumer<String> progress = session.progress();
        List<List<Program>> configs = KernelBitmap.configurations();
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
                        samples.append(c, KernelBitmap.variant(m.loop()), into.samples.size(), s);
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

    /** Whether every configuration has every run it asked for, every way. */
    static boolean complete(Measurement m) {
        return m.configurations().stream()
                .allMatch(c -> METHODS.stream()
                        .allMatch(x -> c.of(x).nsPerCall().size()
                                >= (x.timing().batch()
                                        ? m.options().batchRuns()
                                        : m.options().runs())));
    }
}
