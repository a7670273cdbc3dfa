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
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
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

    /** A CPU of -1: not pinned. */
    private static final int UNPINNED = -1;

    private final Supplier<Path> scratch;
    private final int runs;
    private final long calls;
    private final Consumer<String> progress;
    private final Map<Program, Prediction.PerCall> perCall = new HashMap<>();
    private final Map<Program, Rounds> rounds = new HashMap<>();
    private String roundsOf;
    private final Map<Program, Program> libseccompCache = new HashMap<>();
    private final Map<String, Double> roundTrips = new HashMap<>();
    /** Why a round trip's bench could not run (then a row needing it goes unpredicted, saying so), by key. */
    private final Map<String, String> benchFailures = new HashMap<>();

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

    /** A filter's per-call pairs measured in a workload's rounds: its probes, and each round's added ns. */
    private record Rounds(Prediction.Probes probes, List<Long> cached, List<Long> running) {}

    /**
     * One pair of per-call figures (under the filter, none) of each distinct filter of {@code filters}, measured in
     * a round of workload {@code workload} right after its runs: the figures a row's prediction uses are then the
     * medians over the same rounds as its measured runs, so a host whose load drifts during the rounds moves both
     * alike (a figure measured once after the rounds was 12% below the CPU the floor added in the same test).
     * A new workload starts its own rounds.
     */
    void sampleRound(String workload, Collection<Filters.Compiled> filters) {
        if (!workload.equals(roundsOf)) {
            rounds.clear();
            roundsOf = workload;
        }
        Set<Program> done = new HashSet<>();
        for (Filters.Compiled c : filters) {
            Program p = c.program();
            if (!done.add(p)) {
                continue;
            }
            Rounds r = rounds.computeIfAbsent(
                    p, q -> new Rounds(Prediction.probes(q), new ArrayList<>(), new ArrayList<>()));
            int run = r.cached().size() + r.running().size();
            if (r.probes().cached() != null) {
                r.cached().add(Prediction.addedOnce(p, r.probes().cached(), run, calls));
            }
            if (r.probes().running() != null) {
                r.running().add(Prediction.addedOnce(p, r.probes().running(), run, calls));
            }
        }
    }

    /** {@code p}'s per-call figures: the medians of its rounds' pairs, or else {@code runs} pairs measured now. */
    private Prediction.PerCall perCall(Mechanism m, Program p) {
        Rounds r = rounds.get(p);
        if (r != null && (!r.cached().isEmpty() || !r.running().isEmpty())) {
            return new Prediction.PerCall(
                    r.cached().isEmpty() ? null : (double) medianOf(r.cached()),
                    r.running().isEmpty() ? null : (double) medianOf(r.running()),
                    r.probes().runningInsns());
        }
        return perCall.computeIfAbsent(p, q -> {
            progress.accept("  per-call figures under " + m.label + " (heimdall-runner, " + runs + " pairs)");
            return Prediction.measure(q, runs, calls);
        });
    }

    private static long medianOf(List<Long> xs) {
        return WorkloadCost.median(xs.stream().mapToLong(Long::longValue).toArray());
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
        Prediction.PerCall f = perCall(m, c.program());
        Map<Integer, Long> filtered = mix;
        Double roundTrip = null;
        double brokerNs = 0;
        String noRoundTrip = null;
        if (m.brokered()) {
            filtered = new HashMap<>(mix);
            filtered.keySet().removeAll(OPENS_BY_NAME);
            Double rtContinue = roundTrip(m.supervisor, Answer.CONTINUE);
            Double rtBroker = m.answer.kind() == Answer.Kind.BROKER ? roundTrip(m.supervisor, Answer.BROKER) : null;
            long brokered = WorkloadCost.median(
                    rs.stream().mapToLong(OneRun.Result::brokered).toArray());
            long notified = cost.notified() == null ? 0 : cost.notified();
            roundTrip = rtContinue;
            noRoundTrip = benchFailures.get(m.supervisor.label() + "/" + Answer.CONTINUE.label());
            if (noRoundTrip == null && m.answer.kind() == Answer.Kind.BROKER) {
                noRoundTrip = benchFailures.get(m.supervisor.label() + "/" + Answer.BROKER.label());
            }
            brokerNs = (notified - brokered) * (rtContinue == null ? 0 : rtContinue)
                    + brokered * (rtBroker == null ? (rtContinue == null ? 0 : rtContinue) : rtBroker);
        }
        Double floorNs = Prediction.floorAddedNs(filtered, c.program(), f);
        long weighted = Prediction.weightedInsns(mix, c.program());
        Long libseccomp = libseccompWeighted(c, mix);
        Long cpuNs = addedCpuNs(m, cost, none);
        if (floorNs == null || noRoundTrip != null) {
            return new WorkloadCostRow.Predicted(
                    null,
                    null,
                    null,
                    null,
                    null,
                    cpuNs,
                    null,
                    floorNs == null ? "no harmless call of this filter could be measured" : noRoundTrip,
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
        String cause = Boolean.FALSE.equals(within)
                ? cause(measured - predicted, low, high, predicted, cpuNs, cost, none)
                : null;
        return new WorkloadCostRow.Predicted(
                predicted,
                Math.round((1 + (double) predicted / noneMedian) * 10_000) / 10_000.0,
                measured - predicted,
                low,
                high,
                cpuNs,
                within,
                cause,
                round1(f.cachedNs()),
                round1(f.programNs()),
                f.programInsns(),
                round1(roundTrip),
                weighted,
                libseccomp);
    }

    /**
     * The CPU time {@code m} added a run: the program's user and system time (medians) less the no-filter
     * runs', plus the supervisor's on a brokered row (on a floor's row the JVM's CPU over the run is its own
     * housekeeping, longer as the run is longer, none of it the filter's); null where a figure is missing.
     */
    static Long addedCpuNs(Mechanism m, WorkloadCostRow.Cost cost, WorkloadCostRow.Cost none) {
        return addedCpuNs(m.brokered(), cost, none);
    }

    /** The same, the supervisor's CPU counted when {@code supervised}. */
    static Long addedCpuNs(boolean supervised, WorkloadCostRow.Cost cost, WorkloadCostRow.Cost none) {
        if (cost.userUs() == null || cost.systemUs() == null || none.userUs() == null || none.systemUs() == null) {
            return null;
        }
        long us = cost.userUs() + cost.systemUs() - none.userUs() - none.systemUs();
        if (supervised) {
            if (cost.supervisorUs() == null || none.supervisorUs() == null) {
                return null;
            }
            us += cost.supervisorUs() - none.supervisorUs();
        }
        return us * 1000;
    }

    /** What else changed against the no-filter runs, with the figures, for a residual beyond the interval. */
    static String cause(
            long residual,
            Long low,
            Long high,
            long predicted,
            Long cpuNs,
            WorkloadCostRow.Cost c,
            WorkloadCostRow.Cost none) {
        List<String> parts = new ArrayList<>();
        parts.add(String.format(
                Locale.ROOT,
                "residual %+.2f ms beyond the measured added [%.2f, %.2f] ms",
                residual / 1e6,
                low / 1e6,
                high / 1e6));
        Double share = cpuShare(none);
        if (share != null && cpuNs != null) {
            // The per-call figures are means of calls on their CPU: they predict CPU time. On a loaded
            // host a run waits for a CPU, and the longer run waits longer: the wall residual is that wait.
            parts.add(String.format(
                    Locale.ROOT,
                    "added CPU %+.2f ms against %+.2f ms predicted (%+.0f%%); the unfiltered runs had %.0f%% of a CPU"
                            + " (user + system over wall)%s",
                    cpuNs / 1e6,
                    predicted / 1e6,
                    cpuNs == 0 ? 0.0 : 100.0 * (predicted - cpuNs) / Math.abs(cpuNs),
                    100 * share,
                    share < LOADED_SHARE ? ": a loaded host, the wall times stretched by waits for a CPU" : ""));
        }
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

    /** Below this share of a CPU the unfiltered runs waited for one: the host was loaded. */
    static final double LOADED_SHARE = 0.8;

    /** The unfiltered runs' CPU (user + system, medians) over their wall time (median), or null. */
    static Double cpuShare(WorkloadCostRow.Cost none) {
        if (none.userUs() == null
                || none.systemUs() == null
                || none.wallMedianNs() == null
                || none.wallMedianNs() <= 0) {
            return null;
        }
        return (none.userUs() + none.systemUs()) * 1000.0 / none.wallMedianNs();
    }

    private static String delta(String what, Long v, Long base) {
        if (v == null || base == null) {
            return what + " unknown";
        }
        return String.format(Locale.ROOT, "%s %+d (%d against %d)", what, v - base, v, base);
    }

    /**
     * A notified openat's added cost through {@code sup} answering {@code answer}: the broker bench's median less
     * its unfiltered openat's, measured once a run when a row first needs it, in the workload's placement (the
     * child and the supervisor unpinned, as {@link OneRun} runs them).
     */
    private Double roundTrip(Supervisor.Kind sup, Answer answer) {
        String key = sup.label() + "/" + answer.label();
        if (!roundTrips.containsKey(key)) {
            BrokerBench.Config cfg = new BrokerBench.Config(
                    (int) Math.min(calls, 20_000),
                    (int) Math.min(calls / 10, 2_000),
                    runs,
                    answer,
                    List.of(sup),
                    false,
                    UNPINNED,
                    UNPINNED,
                    null);
            progress.accept("  round trips, " + answer.label() + " " + sup.label()
                    + " (broker bench, child and supervisor unpinned)");
            try {
                BrokerBench.Report r = BrokerBench.run(cfg, scratch.get(), s -> {});
                BrokerBench.Row row = r.row(sup.label());
                roundTrips.put(
                        key,
                        row == null
                                ? null
                                : (double) (row.medianNs() - r.baseline().medianNs()));
            } catch (IOException | Refusal e) {
                // one term of a prediction: its failure leaves the rows needing it unpredicted, saying why, and
                // every measured figure stands (on 5.10 the BROKER answer's bench: no ADDFD with SEND)
                roundTrips.put(key, null);
                benchFailures.put(key, "no prediction: the broker bench could not run here: " + e.getMessage());
                progress.accept("  " + benchFailures.get(key));
            }
        }
        return roundTrips.get(key);
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
