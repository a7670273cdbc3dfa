package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.follower.Divergence;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.RunCounts;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Scratch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The rounds of workload-cost: per workload, one check run without a filter (a program that fails there is
 * refused before anything is measured), its recorded runs and own profile, then {@code runs} rounds each
 * running it once under every mechanism still standing, the order rotated a step each round (A B C, B C A,
 * ...), so a drift of the host falls on every mechanism alike. A mechanism that kills the program leaves
 * the rounds as a refused row naming the call; one that changes its exit status or stdout is flagged.
 */
public final class WorkloadCost {
    private WorkloadCost() {}

    /**
     * What to run.
     *
     * @param runs interleaved rounds (runs a cell)
     * @param probeRuns recorded runs a workload's own profile is generated from
     * @param size the default suite's input size
     * @param user a user's command (empty: the default suite)
     * @param userDir the user's command's working folder
     * @param mechanisms the mechanisms, in row order ({@link Mechanism#NONE} first)
     * @param dockerProfile a file of Docker's default profile, or null (looked for where Debian puts it)
     * @param userProfile a profile of the user's ({@link Mechanism#PROFILE}), or null
     * @param figureRuns pairs of runs a per-call figure of the prediction is the median of
     * @param figureCalls timed calls a run of a per-call figure
     */
    record Options(
            int runs,
            int probeRuns,
            Suite.Size size,
            List<String> user,
            Path userDir,
            List<Mechanism> mechanisms,
            Path dockerProfile,
            Path userProfile,
            int figureRuns,
            long figureCalls) {
        Options {
            user = List.copyOf(user);
            mechanisms = List.copyOf(mechanisms);
            if (mechanisms.isEmpty() || mechanisms.get(0) != Mechanism.NONE) {
                throw new IllegalArgumentException("the baseline (none) comes first");
            }
        }
    }

    /** Measures every workload under every mechanism, for the framework to write. */
    static ReproductionResult run(Options o, Session session) {
        try (Scratch scratch = Scratch.create("heimdall-workload-")) {
            Path in = scratch.newDirectory("in");
            Path bpfDir = scratch.newDirectory("bpf");
            Path tmp = scratch.newDirectory("tmp");
            List<Workload> workloads = o.user().isEmpty()
                    ? Suite.write(in, o.size())
                    : List.of(new Workload("user", "the user's own program", o.user(), o.userDir()));
            int[] benches = {0};
            Predictor predictor = new Predictor(
                    () -> scratch.newDirectory("bench-" + benches[0]++),
                    o.figureRuns(),
                    o.figureCalls(),
                    session.progress());
            Parts parts = new Parts(
                    new Filters(bpfDir, o.dockerProfile(), o.userProfile()),
                    new Enforcers(bpfDir, tmp),
                    predictor,
                    new FollowPrediction(o.figureRuns(), o.figureCalls(), session.progress()),
                    new OneRun.Extra(tmp, null, null));
            return run(o, session, workloads, parts);
        }
    }

    /** What a run's workloads share: the filters, the other mechanisms' set-ups, the predictions, the base run. */
    private record Parts(
            Filters filters, Enforcers enforcers, Predictor predictor, FollowPrediction follow, OneRun.Extra base) {}

    private static ReproductionResult run(Options o, Session session, List<Workload> workloads, Parts parts) {
        Host host = Host.capture();
        Instant started = Instant.now();
        List<WorkloadCostRow> rows = new ArrayList<>();
        Optional<Interruption.Cause> cause = Optional.empty();
        Speculation.Seen seen = new Speculation.Seen();
        try (SamplesFile samples = session.folder().createSamples()) {
            for (Workload w : workloads) {
                if (session.stopRequested()) {
                    break;
                }
                String missing = o.user().isEmpty() ? Suite.missing(w) : null;
                if (missing != null) {
                    session.progress().accept("workload-cost: " + w.name() + ": " + missing);
                    o.mechanisms().forEach(m -> rows.add(WorkloadCostRow.refused(subject(w, m), missing)));
                    continue;
                }
                rows.addAll(measure(w, o, session, parts, samples, rows.size(), seen));
            }
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new Refusal("workload-cost: " + e.getMessage());
        }
        if (session.stopRequested()) {
            cause = session.stopCause();
        }
        if (rows.isEmpty()) {
            return ReproductionResult.nothing(cause);
        }
        return ReproductionResult.of(
                ReproductionKind.of(WorkloadCostRow.class, WorkloadCostSettings.class),
                new Recorded<>(
                        rows,
                        WorkloadCostSettings.of(o, workloads, Speculation.of(seen)),
                        host,
                        started,
                        Instant.now()),
                cause);
    }

    /** One workload's rows, one a mechanism, in the options' order. */
    private static List<WorkloadCostRow> measure(
            Workload w,
            Options o,
            Session session,
            Parts parts,
            SamplesFile samples,
            int firstRow,
            Speculation.Seen seen)
            throws IOException, InterruptedException {
        Filters filters = parts.filters();
        session.progress().accept("workload-cost: " + w.name() + ": " + w.commandLine());
        OneRun.Result check = OneRun.run(w, Mechanism.NONE, null, parts.base());
        if (check.execErrno() != null || check.exit() == null || check.exit() != 0) {
            throw new Refusal(String.format(
                    Locale.ROOT,
                    "workload %s (%s) fails with no filter: %s%s; nothing measured",
                    w.name(),
                    w.commandLine(),
                    check.said(),
                    check.stderr().isBlank()
                            ? ""
                            : "; its stderr: " + check.stderr().strip()));
        }
        Filters.Recorded recorded = filters.record(w, o.probeRuns());
        Map<Mechanism, Filters.Compiled> programs = new EnumMap<>(Mechanism.class);
        Map<Mechanism, OneRun.Extra> extras = new EnumMap<>(Mechanism.class);
        Enforcers.LandlockSetup landlock = null;
        Map<Mechanism, String> refused = new LinkedHashMap<>();
        for (Mechanism m : o.mechanisms()) {
            try {
                switch (m) {
                    case LANDLOCK -> {
                        landlock = parts.enforcers().landlock(w);
                        extras.put(m, parts.base().with(landlock.file(), null));
                    }
                    case FOLLOWER -> {
                        Enforcers.FollowSetup f = parts.enforcers().follower(w);
                        session.progress()
                                .accept(String.format(
                                        Locale.ROOT,
                                        "  follower: graph recorded, %d sites, %d calls",
                                        f.sites(),
                                        f.recordedCalls()));
                        extras.put(m, parts.base().with(null, f.tables()));
                    }
                    default -> {
                        Filters.Compiled c = filters.program(m, w, recorded);
                        if (c != null) {
                            programs.put(m, c);
                        }
                    }
                }
            } catch (Refusal e) {
                refused.put(m, e.getMessage());
            }
        }
        Map<Mechanism, List<OneRun.Result>> results = new EnumMap<>(Mechanism.class);
        List<Mechanism> standing = new ArrayList<>(o.mechanisms().stream()
                .filter(m -> m == Mechanism.NONE || programs.containsKey(m) || extras.containsKey(m))
                .toList());
        standing.forEach(m -> results.put(m, new ArrayList<>()));
        Map<Mechanism, String> killed = new EnumMap<>(Mechanism.class);
        for (int round = 0; round < o.runs() && !session.stopRequested(); round++) {
            List<Mechanism> order = new ArrayList<>(standing);
            Collections.rotate(order, -(round % Math.max(1, order.size())));
            for (Mechanism m : order) {
                if (session.stopRequested()) {
                    break;
                }
                if (killed.containsKey(m)) {
                    continue;
                }
                Filters.Compiled c = programs.get(m);
                OneRun.Result r;
                try {
                    r = OneRun.run(w, m, c == null ? null : c.file(), extras.getOrDefault(m, parts.base()));
                } catch (Refusal e) {
                    if (m != Mechanism.FOLLOWER && m != Mechanism.LANDLOCK) {
                        throw e;
                    }
                    killed.put(m, String.format(Locale.ROOT, "run %d: %s", round + 1, e.getMessage()));
                    continue;
                }
                if (r.divergence() != null) {
                    List<String> there = new ArrayList<>();
                    for (int nr : Enforcers.allowedIn(
                            extras.get(m).follow(), r.divergence().state())) {
                        there.add(filters.callName(nr));
                    }
                    killed.put(
                            m,
                            String.format(
                                    Locale.ROOT,
                                    "killed by the follower at %s (%s; run %d): its recorded graph lacks that "
                                            + "call there (it allows there: %s; the program took another path than "
                                            + "its recorded run), 0 of %d runs completed",
                                    r.divergence(),
                                    r.divergence().kind() == Divergence.Kind.CALL
                                            ? filters.callName(r.divergence().what())
                                            : "a handled signal",
                                    round + 1,
                                    there.isEmpty() ? "no call" : String.join(", ", there),
                                    o.runs()));
                    continue;
                }
                if (r.signal() != null && r.signal() == OneRun.SIGSYS) {
                    String call = r.killedByNr() == null
                            ? "a call the audit log did not name"
                            : filters.callName(r.killedByNr());
                    killed.put(
                            m,
                            String.format(
                                    Locale.ROOT,
                                    "killed by SIGSYS at %s (run %d; the kernel's audit record), 0 of %d runs completed",
                                    call,
                                    round + 1,
                                    o.runs()));
                    continue;
                }
                results.get(m).add(r);
                seen.saw(w.name(), m, r);
            }
            if (!session.stopRequested()) {
                parts.predictor()
                        .sampleRound(w.name(), programs.values()); // the per-call figures beside this round's runs
            }
            session.progress()
                    .accept(String.format(Locale.ROOT, "  %s: round %d of %d", w.name(), round + 1, o.runs()));
        }
        killed.forEach((m, why) -> {
            refused.put(m, why);
            results.remove(m);
        });
        List<OneRun.Result> none = results.getOrDefault(Mechanism.NONE, List.of());
        boolean interrupted = session.stopRequested();
        List<WorkloadCostRow> rows = new ArrayList<>();
        WorkloadCostRow.Cost noneCost = null;
        for (Mechanism m : o.mechanisms()) {
            WorkloadCostRow.Subject subject = subject(w, m);
            if (refused.containsKey(m)) {
                rows.add(WorkloadCostRow.refused(subject, refused.get(m)));
                continue;
            }
            List<OneRun.Result> rs = results.get(m);
            int rowIndex = firstRow + rows.size();
            for (int i = 0; i < rs.size(); i++) {
                samples.append(rowIndex, "wall", i, new long[] {rs.get(i).wallNs()});
            }
            WorkloadCostRow row = row(subject, m, rs, none, recorded.callsMade(), o.runs(), interrupted);
            if (m == Mechanism.NONE) {
                noneCost = row.cost();
            } else if (noneCost != null && !rs.isEmpty() && !session.stopRequested()) {
                row = row.withPredicted(
                        m == Mechanism.FOLLOWER
                                ? parts.follow()
                                        .predict(
                                                med(rs, r -> r.followed() == null ? 0 : r.followed()),
                                                row.cost(),
                                                noneCost,
                                                row.overhead())
                                : parts.predictor()
                                        .predict(
                                                m,
                                                programs.get(m),
                                                recorded.mix(),
                                                rs,
                                                row.cost(),
                                                noneCost,
                                                row.overhead()));
            }
            rows.add(row.withEnforced(enforced(m, rs, landlock, parts.follow())));
        }
        return rows;
    }

    private static WorkloadCostRow.Subject subject(Workload w, Mechanism m) {
        return new WorkloadCostRow.Subject(
                w.name(),
                w.stresses(),
                w.commandLine(),
                m.label,
                m.brokered() ? m.supervisor.label() : null,
                m.answerLabel(),
                m.brokered() ? Mechanism.PLACEMENT : null);
    }

    private static WorkloadCostRow row(
            WorkloadCostRow.Subject subject,
            Mechanism m,
            List<OneRun.Result> rs,
            List<OneRun.Result> none,
            long callsMade,
            int asked,
            boolean interrupted) {
        if (rs.isEmpty()) {
            return new WorkloadCostRow(
                    subject,
                    RowStatus.NOT_MEASURED,
                    "no run completed",
                    null,
                    null,
                    null,
                    null,
                    RunCounts.of(asked, 0, true));
        }
        long[] wall = rs.stream().mapToLong(OneRun.Result::wallNs).toArray();
        long wallMedian = median(wall);
        long noneMedian = none.isEmpty()
                ? 0
                : median(none.stream().mapToLong(OneRun.Result::wallNs).toArray());
        String reference = none.isEmpty() ? null : none.get(0).outcome();
        long exitChanged = rs.stream()
                .filter(r -> !none.isEmpty()
                        && !String.valueOf(r.exit())
                                .equals(String.valueOf(none.get(0).exit())))
                .count();
        long outChanged = rs.stream()
                .filter(r -> reference != null && !r.outcome().equals(reference))
                .count();
        WorkloadCostRow.Cost cost = new WorkloadCostRow.Cost(
                wallMedian,
                none.isEmpty() ? null : wallMedian - noneMedian,
                rs.stream().map(OneRun.Result::wallNs).toList(),
                med(rs, OneRun.Result::userUs),
                med(rs, OneRun.Result::systemUs),
                med(rs, OneRun.Result::supervisorUs),
                med(rs, OneRun.Result::nvcsw),
                med(rs, OneRun.Result::nivcsw),
                med(rs, OneRun.Result::minflt),
                med(rs, OneRun.Result::majflt),
                callsMade,
                m.brokered() ? med(rs, r -> r.notified() == null ? 0 : r.notified()) : null,
                rs.get(rs.size() - 1).ssb(),
                Stats.spread(wall) > Stats.NOISY_SPREAD);
        WorkloadCostRow.Overhead overhead = WorkloadCostRow.Overhead.NONE;
        if (m != Mechanism.NONE && !none.isEmpty()) {
            double[] a = none.stream().mapToDouble(OneRun.Result::wallNs).toArray();
            double[] b = rs.stream().mapToDouble(OneRun.Result::wallNs).toArray();
            ChangeTest.Change c = ChangeTest.compare(a, b, ChangeTest.DEFAULT_THRESHOLD, ChangeTest.DEFAULT_LEVEL);
            overhead = new WorkloadCostRow.Overhead(
                    round4(c.ratio().estimate()),
                    round4(c.ratio().low()),
                    round4(c.ratio().high()),
                    c.ratio().level(),
                    round4(c.ratio().confidence()),
                    round4(c.p()),
                    c.verdict().text(),
                    c.warning());
        }
        boolean cut = rs.size() < asked;
        return new WorkloadCostRow(
                subject,
                cut && interrupted ? RowStatus.INTERRUPTED : RowStatus.OK,
                null,
                cost,
                overhead,
                null,
                new WorkloadCostRow.Check(exitChanged, outChanged, null),
                RunCounts.of(asked, rs.size(), cut && interrupted));
    }

    /** What a row's mechanism did beyond a filter, from its runs. */
    private static WorkloadCostRow.Enforced enforced(
            Mechanism m, List<OneRun.Result> rs, Enforcers.LandlockSetup landlock, FollowPrediction follow) {
        if (rs == null || rs.isEmpty()) {
            return WorkloadCostRow.Enforced.NONE; // no run completed (a stop before the first)
        }
        return switch (m) {
            case BROKER_BROKER_JAVA, BROKER_BROKER_NATIVE ->
                new WorkloadCostRow.Enforced(med(rs, OneRun.Result::brokered), null, null, null, null, null);
            case FOLLOWER ->
                new WorkloadCostRow.Enforced(
                        null,
                        med(rs, r -> r.followed() == null ? 0 : r.followed()),
                        Enforcers.HOOK.wire(),
                        follow.measuredNs(),
                        null,
                        null);
            case LANDLOCK ->
                landlock == null
                        ? WorkloadCostRow.Enforced.NONE
                        : new WorkloadCostRow.Enforced(
                                null,
                                null,
                                null,
                                null,
                                (long) landlock.abi(),
                                landlock.ruleset().toString());
            default -> WorkloadCostRow.Enforced.NONE;
        };
    }

    private static Long med(List<OneRun.Result> rs, ToLongFunction<OneRun.Result> f) {
        return median(rs.stream().mapToLong(f).toArray());
    }

    static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : (s[h - 1] + s[h]) / 2;
    }

    private static double round4(double x) {
        return Math.round(x * 10_000) / 10_000.0;
    }
}
