package heimdall.lab.broker;

import com.fasterxml.jackson.annotation.JsonProperty;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Stats;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.RunningChild;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A quick look at the broker's round trip before the full reproduction: {@code openat} timed in the
 * notify-child fixture (each call alone with {@code clock_gettime(CLOCK_MONOTONIC)}), with no filter,
 * and through each requested supervisor, beside the host's floor for a round trip (a pipe ping-pong
 * between a measured child on the child's CPU and a partner thread on the supervisor's, no seccomp).
 * Runs are interleaved (baseline, floor, native, java, baseline, ...)
 * so drift on the host spreads over all rows alike. Statistics are over all samples of a row; each
 * run's median is kept too.
 */
public final class BrokerBench {
    private BrokerBench() {}

    /**
     * What to measure.
     *
     * @param calls timed calls per run
     * @param warmup untimed calls before them
     * @param runs fresh children per row
     * @param answer {@code CONTINUE} or {@code BROKER}
     * @param supervisors which supervisors, in order
     * @param syncWakeUp {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP} on the listener
     * @param childCpu the child's CPU
     * @param supCpu the supervisor's CPU, -1 unpinned
     * @param stacked null, or {@code before}/{@code after}: a second program beside the notifying one
     * @param nativePollWaitToo with the native supervisor, also a row {@code native-poll}: the same
     *     supervisor waiting in {@code poll()} before each receive ({@link SupervisorOptions#pollWait()}),
     *     interleaved with the others
     * @param asSupervisorToo with the broker answer, also a row {@code <supervisor>-as-supervisor} per
     *     supervisor: the same policy opening with the supervisor's own credentials ({@link
     *     Policy#asSupervisor()}), interleaved, so the cost of opening as the caller is one run's difference
     */
    public record Config(
            int calls,
            int warmup,
            int runs,
            Answer answer,
            List<Supervisor.Kind> supervisors,
            boolean syncWakeUp,
            int childCpu,
            int supCpu,
            String stacked,
            boolean nativePollWaitToo,
            boolean asSupervisorToo) {
        /** Without the {@code -as-supervisor} rows. */
        public Config(
                int calls,
                int warmup,
                int runs,
                Answer answer,
                List<Supervisor.Kind> supervisors,
                boolean syncWakeUp,
                int childCpu,
                int supCpu,
                String stacked,
                boolean nativePollWaitToo) {
            this(
                    calls,
                    warmup,
                    runs,
                    answer,
                    supervisors,
                    syncWakeUp,
                    childCpu,
                    supCpu,
                    stacked,
                    nativePollWaitToo,
                    false);
        }

        /** Without the {@code native-poll} and {@code -as-supervisor} rows. */
        public Config(
                int calls,
                int warmup,
                int runs,
                Answer answer,
                List<Supervisor.Kind> supervisors,
                boolean syncWakeUp,
                int childCpu,
                int supCpu,
                String stacked) {
            this(calls, warmup, runs, answer, supervisors, syncWakeUp, childCpu, supCpu, stacked, false, false);
        }

        public Config {
            if (calls < 1 || warmup < 0 || runs < 1) {
                throw new BadInput("broker bench: calls and runs must be at least 1, warm-up at least 0");
            }
            if (answer.kind() != Answer.Kind.CONTINUE && answer.kind() != Answer.Kind.BROKER) {
                throw new BadInput("broker bench: --answer must be continue or broker");
            }
            if (asSupervisorToo && answer.kind() != Answer.Kind.BROKER) {
                throw new BadInput("broker bench: --as-supervisor-too needs --answer broker (only the broker opens)");
            }
            supervisors = List.copyOf(supervisors);
        }

        /** The defaults for this machine: the child on the first allowed CPU, the supervisor on the last. */
        public static Config defaults() {
            List<Integer> cpus = Cpus.allowed();
            return new Config(
                    20_000,
                    2_000,
                    3,
                    Answer.CONTINUE,
                    List.of(Supervisor.Kind.NATIVE),
                    false,
                    cpus.get(0),
                    cpus.get(cpus.size() - 1),
                    null);
        }
    }

    /**
     * One measured row.
     *
     * @param what {@code no filter}, {@code native} or {@code java}
     * @param runMediansNs each run's median
     * @param stats the last run's supervisor counters (null for the baseline)
     */
    public record Row(
            String what,
            long medianNs,
            long p99Ns,
            long[] runMediansNs,
            long samples,
            long errors,
            SupervisorStats stats) {}

    /**
     * A bench's rows, the baseline first.
     *
     * @param floor the pipe ping-pong in the same placement: the least a two-thread round trip costs here
     */
    public record Report(
            Config config, List<Integer> cpusAvailable, long timerNs, Row baseline, Row floor, List<Row> rows) {
        /** A supervisor row's round trip (its median minus the baseline's) over the floor's median. */
        public double roundTripOverFloor(Row row) {
            return (double) (row.medianNs() - baseline.medianNs()) / floor.medianNs();
        }

        /** The Java supervisor's median over the native one's, when both were measured. */
        @JsonProperty("javaNativeMedianRatio")
        public Double javaNativeRatio() {
            Row n = row("native");
            Row j = row("java");
            return n == null || j == null ? null : (double) j.medianNs() / n.medianNs();
        }

        public Row row(String what) {
            return rows.stream().filter(r -> r.what().equals(what)).findFirst().orElse(null);
        }
    }

    /**
     * Runs the bench in a fresh job directory under {@code workDir}, which must be the caller's own
     * (a {@link heimdall.lab.sys.Scratch}): {@code in/} and its file are created exclusively there.
     */
    public static Report run(Config c, Path workDir, Consumer<String> progress) throws IOException {
        String why = Supervisor.unsupportedReason();
        if (why != null) {
            throw new Refusal(why);
        }
        Path in = Files.createDirectory(workDir.resolve("in"));
        SafeFiles.writeNew(in.resolve("file.txt"), "brokered input\n".getBytes(StandardCharsets.UTF_8));
        SupervisorOptions options = new SupervisorOptions(c.supCpu(), in, c.syncWakeUp());

        List<long[]> baseline = new ArrayList<>();
        List<long[]> floor = new ArrayList<>();
        List<Variant> variants = new ArrayList<>();
        for (Supervisor.Kind kind : c.supervisors()) {
            variants.add(new Variant(kind.label(), kind, false, false));
            if (kind == Supervisor.Kind.NATIVE && c.nativePollWaitToo()) {
                variants.add(new Variant(kind.label() + "-poll", kind, true, false));
            }
            if (c.asSupervisorToo()) {
                variants.add(new Variant(kind.label() + "-as-supervisor", kind, false, true));
            }
        }
        Map<Variant, List<long[]>> samples = new LinkedHashMap<>();
        Map<Variant, Long> errors = new LinkedHashMap<>();
        Map<Variant, SupervisorStats> stats = new LinkedHashMap<>();
        long baselineErrors = 0;
        long timer = 0;
        for (int run = 0; run < c.runs(); run++) {
            // The child's cwd is in/, so CONTINUE's real openat opens the same file the broker does.
            NotifyChildFixture.Options base = new NotifyChildFixture.Options(c.childCpu(), false, null, in);
            try (NotifyChildFixture child = NotifyChildFixture.start(base)) {
                NotifyChildFixture.BenchRun r = child.bench(c.calls(), c.warmup(), "file.txt");
                baseline.add(r.samplesNs());
                baselineErrors += r.errors();
                timer = r.timerNs();
            }
            floor.add(pingPong(c));
            for (Variant kind : variants) {
                NotifyChildFixture.Options o = new NotifyChildFixture.Options(c.childCpu(), true, c.stacked(), in);
                try (NotifyChildFixture child = NotifyChildFixture.start(o)) {
                    Policy policy = Policy.always(c.answer());
                    Supervisor sup = Supervisor.start(
                            kind.kind(),
                            child.takeListener(),
                            options.withPollWait(kind.pollWait()),
                            kind.asSupervisor() ? policy.asSupervisor() : policy);
                    NotifyChildFixture.BenchRun r;
                    try {
                        r = child.bench(c.calls(), c.warmup(), "file.txt");
                    } finally {
                        stats.put(kind, sup.stop());
                    }
                    if (r.errors() > 0) {
                        throw new Refusal(
                                "broker bench: " + r.errors() + " of " + c.calls() + " calls failed through the "
                                        + kind.label() + " supervisor (first errno " + r.firstErrno() + ")");
                    }
                    samples.computeIfAbsent(kind, k -> new ArrayList<>()).add(r.samplesNs());
                    errors.merge(kind, r.errors(), Long::sum);
                }
            }
            progress.accept("run " + (run + 1) + "/" + c.runs() + " done");
        }
        Row baseRow = row("no filter", baseline, baselineErrors, null);
        Row floorRow = row("floor", floor, 0, null);
        List<Row> rows = new ArrayList<>();
        for (Variant v : variants) {
            rows.add(row(v.label(), samples.get(v), errors.get(v), stats.get(v)));
        }
        return new Report(c, Cpus.allowed(), timer, baseRow, floorRow, rows);
    }

    /** A measured supervisor: its row label, kind, wait, and whose credentials its broker opens with. */
    private record Variant(String label, Supervisor.Kind kind, boolean pollWait, boolean asSupervisor) {}

    /** One run of the floor: the measured child's pipe ping-pong, its partner where the supervisor runs. */
    private static long[] pingPong(Config c) {
        ChildSpec spec = ChildSpec.of(Call.PINGPONG, c.warmup(), c.calls()).withCpu(c.childCpu());
        try (RunningChild child = MeasuredChild.start(spec)) {
            child.startPartner(c.supCpu(), 0);
            return child.await().requireCompleted().samples();
        }
    }

    private static Row row(String what, List<long[]> runs, long errors, SupervisorStats stats) {
        long[][] r = runs.toArray(long[][]::new);
        Stats.Summary all = Stats.ofAll(r);
        return new Row(what, all.median(), all.p99(), Stats.runMedians(r), all.count(), errors, stats);
    }

    /** The report as the command prints it. */
    public static String format(Report r) {
        Config c = r.config();
        StringBuilder b = new StringBuilder();
        b.append("broker bench: openat through the notify-child test fixture, answer ")
                .append(c.answer().label());
        if (c.stacked() != null) {
            b.append(", stacked (second program ").append(c.stacked()).append(" the notifying one)");
        }
        b.append('\n');
        b.append(String.format(
                Locale.ROOT,
                "  child on CPU %d, supervisor %s (CPUs available: %s); synchronous wake-up %s%n",
                c.childCpu(),
                c.supCpu() < 0 ? "unpinned" : "on CPU " + c.supCpu(),
                r.cpusAvailable(),
                c.syncWakeUp() ? "on" : "off"));
        b.append(String.format(
                Locale.ROOT,
                "  %,d calls (+%,d warm-up) x %d runs per row; timer (back-to-back clock_gettime) %d ns%n",
                c.calls(),
                c.warmup(),
                c.runs(),
                r.timerNs()));
        b.append(String.format(
                Locale.ROOT, "  %-10s %12s %12s %12s  %s%n", "what", "median", "p99", "added", "run medians (ns)"));
        List<Row> all = new ArrayList<>();
        all.add(r.baseline());
        all.add(r.floor());
        all.addAll(r.rows());
        for (Row row : all) {
            String added = row == r.baseline() || row == r.floor()
                    ? ""
                    : String.format(
                            Locale.ROOT,
                            "%+,d ns",
                            row.medianNs() - r.baseline().medianNs());
            b.append(String.format(
                    Locale.ROOT,
                    "  %-10s %,9d ns %,9d ns %12s  %s%n",
                    row.what(),
                    row.medianNs(),
                    row.p99Ns(),
                    added,
                    Arrays.toString(row.runMediansNs())));
        }
        b.append("  floor: a pipe ping-pong between the child and a thread where the supervisor runs, no seccomp\n");
        for (Row row : r.rows()) {
            b.append(String.format(
                    Locale.ROOT, "  %s round trip (added) / floor: %.3f%n", row.what(), r.roundTripOverFloor(row)));
        }
        Double ratio = r.javaNativeRatio();
        if (ratio != null) {
            b.append(String.format(
                    Locale.ROOT,
                    "  java/native median ratio (%s): %.3f%n",
                    c.answer().label(),
                    ratio));
        }
        return b.toString();
    }
}
