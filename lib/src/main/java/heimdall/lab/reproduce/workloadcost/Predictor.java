package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.bpf.LibseccompBaseline;
import heimdall.lab.bpf.Program;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.BrokerBench;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.sys.Cpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A run's predictions: the per-call figures measured once per filter (and the broker's round trips once per
 * run), then each row's mix times them, set beside the measured added time ({@link Prediction}).
 */
final class Predictor {
    /** The numbers of the calls that open by name: notified under the broker floor, not run by the filter. */
    private static final Set<Integer> OPENS_BY_NAME = new HashSet<>();

    static {
        SyscallTable t = SyscallTable.x86_64();
        for (String n : Floors.OPEN_BY_NAME) {
            Integer nr = t.byName().get(n);
            if (nr != null) {
                OPENS_BY_NAME.add(nr);
            }
        }
    }

    private final Supplier<Path> scratch;
    private final int runs;
    private final long calls;
    private final Consumer<String> progress;
    private final Map<Program, Prediction.PerCall> perCall = new HashMap<>();
    private final Map<Program, Program> libseccompCache = new HashMap<>();
    private Map<String, Double> roundTrips;
    /** Why the broker bench failed (then no brokered row is predicted), or null. */
    private String benchFailure;

    /**
     * @param scratch a new folder of ours for each broker bench
     * @param runs pairs of runs a per-call figure is the median of
     * @param calls timed calls a run
     */
    Predictor(Supplier<Path> scratch, int runs, long calls, Consumer<String> progress) {
        this.scratch = scratch;
        this.runs = runs;
        this.calls = calls;
        this.progress = progress;
    }

    /** The prediction of row {@code m} (its results {@code rs}) beside what was measured. */
    WorkloadCostRow.Predicted predict(
            Mechanism m,
            Filters.Compiled c,
            Map<Integer, Long> mix,
            List<OneRun.Result> rs,
            WorkloadCostRow.Cost cost,
            WorkloadCostRow.Cost none,
            WorkloadCostRow.Overhead overhead) {
        if (m == Mechanism.NONE || c == null || mix.isEmpty() || none.wallMedianNs() == null) {
            return WorkloadCostRow.Predicted.NONE;
        }
        Prediction.PerCall f = perCall.computeIfAbsent(c.program(), p -> {
            progress.accept("  per-call figures under " + m.label + " (heimdall-runner, " + runs + " pairs)");
            return Prediction.measure(p, runs, calls);
        });
        Map<Integer, Long> filtered = mix;
        Double roundTrip = null;
        double brokerNs = 0;
        boolean noRoundTrip = false;
        if (m.brokered()) {
            filtered = new HashMap<>(mix);
            filtered.keySet().removeAll(OPENS_BY_NAME);
            Double rtContinue = roundTrip(m.supervisor, Answer.CONTINUE);
            Double rtBroker = m.answer.kind() == Answer.Kind.BROKER ? roundTrip(m.supervisor, Answer.BROKER) : null;
            long brokered = WorkloadCost.median(
                    rs.stream().mapToLong(OneRun.Result::brokered).toArray());
            long notified = cost.notified() == null ? 0 : cost.notified();
            roundTrip = rtContinue;
            noRoundTrip = rtContinue == null || m.answer.kind() == Answer.Kind.BROKER && rtBroker == null;
            brokerNs = (notified - brokered) * (rtContinue == null ? 0 : rtContinue)
                    + brokered * (rtBroker == null ? (rtContinue == null ? 0 : rtContinue) : rtBroker);
        }
        Double floorNs = Prediction.floorAddedNs(filtered, c.program(), f);
        long weighted = Prediction.weightedInsns(mix, c.program());
        Long libseccomp = libseccompWeighted(c, mix);
        if (floorNs == null || noRoundTrip && benchFailure != null) {
            return new WorkloadCostRow.Predicted(
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    floorNs == null ? "no harmless call of this filter could be measured" : benchFailure,
                    f.cachedNs(),
                    f.programNs(),
                    f.programInsns(),
                    roundTrip,
                    weighted,
                    libseccomp);
        }
        long predicted = Math.round(floorNs + brokerNs);
        long noneMedian = none.wallMedianNs();
        Long low = overhead.ratioLow() == null ? null : Math.round((overhead.ratioLow() - 1) * noneMedian);
        Long high = overhead.ratioHigh() == null ? null : Math.round((overhead.ratioHigh() - 1) * noneMedian);
        Boolean within = low == null ? null : predicted >= low && predicted <= high;
        long measured = cost.wallAddedNs() == null ? 0 : cost.wallAddedNs();
        String cause = Boolean.FALSE.equals(within) ? cause(measured - predicted, low, high, cost, none) : null;
        return new WorkloadCostRow.Predicted(
                predicted,
                Math.round((1 + (double) predicted / noneMedian) * 10_000) / 10_000.0,
                measured - predicted,
                low,
                high,
                within,
                cause,
                round1(f.cachedNs()),
                round1(f.programNs()),
                f.programInsns(),
                round1(roundTrip),
                weighted,
                libseccomp);
    }

    /** What else changed against the no-filter runs, with the figures, for a residual beyond the interval. */
    static String cause(long residual, Long low, Long high, WorkloadCostRow.Cost c, WorkloadCostRow.Cost none) {
        List<String> parts = new ArrayList<>();
        parts.add(String.format(
                Locale.ROOT,
                "residual %+.2f ms beyond the measured added [%.2f, %.2f] ms",
                residual / 1e6,
                low / 1e6,
                high / 1e6));
        parts.add(delta("voluntary switches", c.voluntarySwitches(), none.voluntarySwitches()));
        parts.add(delta("involuntary switches", c.involuntarySwitches(), none.involuntarySwitches()));
        parts.add(delta("minor faults", c.minorFaults(), none.minorFaults()));
        parts.add(delta("user CPU µs", c.userUs(), none.userUs()));
        parts.add(delta("system CPU µs", c.systemUs(), none.systemUs()));
        parts.add(delta("JVM (supervisor) CPU µs", c.supervisorUs(), none.supervisorUs()));
        parts.add("SSB "
                + (String.valueOf(c.ssb()).equals(String.valueOf(none.ssb()))
                        ? "unchanged (" + c.ssb() + ")"
                        : "'" + c.ssb() + "' against '" + none.ssb() + "' unfiltered"));
        return String.join("; ", parts);
    }

    private static String delta(String what, Long v, Long base) {
        if (v == null || base == null) {
            return what + " unknown";
        }
        return String.format(Locale.ROOT, "%s %+d (%d against %d)", what, v - base, v, base);
    }

    /** A notified openat's round trip through {@code sup} answering {@code answer}: the broker bench's. */
    private Double roundTrip(Supervisor.Kind sup, Answer answer) {
        if (roundTrips == null) {
            roundTrips = new HashMap<>();
            List<Integer> cpus = Cpus.allowed();
            for (Answer a : List.of(Answer.CONTINUE, Answer.BROKER)) {
                List<Supervisor.Kind> kinds = List.of(Supervisor.Kind.NATIVE, Supervisor.Kind.JAVA);
                BrokerBench.Config cfg = new BrokerBench.Config(
                        (int) Math.min(calls, 20_000),
                        (int) Math.min(calls / 10, 2_000),
                        runs,
                        a,
                        kinds,
                        false,
                        cpus.get(0),
                        -1,
                        null);
                progress.accept("  round trips, " + a.label() + " " + kinds + " (broker bench, supervisor unpinned)");
                try {
                    BrokerBench.Report r = BrokerBench.run(cfg, scratch.get(), s -> {});
                    for (BrokerBench.Row row : r.rows()) {
                        roundTrips.put(row.what() + "/" + a.label(), (double)
                                (row.medianNs() - r.baseline().medianNs()));
                    }
                } catch (IOException | Refusal e) {
                    // the round trip is one term of a prediction: its failure leaves the brokered rows without a
                    // prediction, saying why, and every measured figure stands (as in a slow emulated guest)
                    benchFailure = "no prediction: the broker bench could not run here: " + e.getMessage();
                    progress.accept("  " + benchFailure);
                    break;
                }
            }
        }
        return roundTrips.get(sup.label() + "/" + answer.label());
    }

    /** libseccomp's program of the same profile, weighted by the mix; null where python3-seccomp is missing. */
    private Long libseccompWeighted(Filters.Compiled c, Map<Integer, Long> mix) {
        if (!LibseccompBaseline.available()) {
            return null;
        }
        Program theirs = libseccompCache.computeIfAbsent(c.program(), p -> {
            try {
                return LibseccompBaseline.compile(c.profile(), SyscallTable.x86_64())
                        .program();
            } catch (IOException | RuntimeException e) {
                return null; // a profile libseccomp cannot build: no figure beside ours
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        });
        return theirs == null ? null : Prediction.weightedInsns(mix, theirs);
    }

    private static Double round1(Double x) {
        return x == null ? null : Math.round(x * 10) / 10.0;
    }
}
