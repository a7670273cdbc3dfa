package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.load.Worker;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** The reproductions of {@code ./lab reproduce}: each turns its options into a run. */
final class Reproductions {
    private Reproductions() {}

    /** floor-cost: seed 000's table. */
    static final class FloorCostRun extends ReproductionKind<heimdall.lab.results.FloorCostRow>
            implements Reproduction, KindPlots {
        FloorCostRun() {
            super("floor-cost", heimdall.lab.results.FloorCostRow.class);
        }

        @Override
        public Optional<ReproductionKind.RowIdentity> identity() {
            return Optional.of(
                    new ReproductionKind.RowIdentity(FLOOR_KEYS, "median_ns", "added_ns", "published.added_ns", "ns"));
        }

        @Override
        public Optional<Record> published() {
            return Optional.of(heimdall.lab.results.PublishedFloorCost.read());
        }

        @Override
        public Map<String, Chart<?, ?>> plots(Results r) {
            return Plots.floorCostPlots(r);
        }

        @Override
        public List<ReproductionOption> options() {
            List<ReproductionOption> o = new ArrayList<>(countOptions(true));
            o.add(ReproductionOption.flag("--no-broker", "rows 1-9 only (no supervisor)"));
            o.add(ReproductionOption.cpu("--cpu", "the child's CPU (the highest allowed)", Cpus.measuring()));
            o.add(ReproductionOption.cpu(
                    "--supervisor-cpu", "the supervisor's own CPU (another allowed one)", Cpus.supervisor()));
            return o;
        }

        @Override
        public String notes() {
            return "--quick takes about a minute; the full defaults are the published method (seed 000).";
        }

        @Override
        public Run prepare(Args args) {
            FloorBench.Counts counts = counts(this, args);
            FloorCost.Options options = new FloorCost.Options(
                    counts,
                    option("--cpu").intNumber(args),
                    option("--supervisor-cpu").intNumber(args),
                    !option("--no-broker").given(args));
            return session -> {
                FloorCost.Result r = FloorCost.run(options, session);
                return new ReproductionResult(r.folder(), r.summary(), r.interruption());
            };
        }
    }

    /** kernel-bitmap: seed 003, the kernel selftest's bitmap expectations. */
    static final class KernelBitmapRun extends ReproductionKind<heimdall.lab.results.KernelBitmapRow>
            implements Reproduction, KindPlots {
        KernelBitmapRun() {
            super("kernel-bitmap", heimdall.lab.results.KernelBitmapRow.class);
        }

        @Override
        public Optional<Record> published() {
            return Optional.of(heimdall.lab.results.PublishedKernelBitmap.read());
        }

        @Override
        public Map<String, Chart<?, ?>> plots(Results r) {
            return Plots.kernelBitmapPlots(r);
        }

        @Override
        public List<ReproductionOption> options() {
            KernelBitmap.Options q = KernelBitmap.Options.quick();
            KernelBitmap.Options f = KernelBitmap.Options.full();
            return List.of(
                    ReproductionOption.count(
                            "--runs",
                            "per-call runs (fresh children) per configuration and loop\n"
                                    + "(a multiple of 4 gives each code placement of the loop as many runs)",
                            q.runs(),
                            f.runs(),
                            MAX_RUNS),
                    ReproductionOption.count(
                            "--calls",
                            "calls timed one by one per run",
                            q.perCallCount(),
                            f.perCallCount(),
                            ChildSpec.MAX_COUNT),
                    ReproductionOption.count(
                            "--batch-runs",
                            "batch runs per configuration, loop and clock",
                            q.batchRuns(),
                            f.batchRuns(),
                            MAX_RUNS),
                    ReproductionOption.count(
                            "--batch-calls",
                            "calls timed as a whole per batch run, on CLOCK_MONOTONIC and on the\n"
                                    + "selftest's CLOCK_PROCESS_CPUTIME_ID (the selftest: 100,000,000 in one run)",
                            q.batchCount(),
                            f.batchCount(),
                            ChildSpec.MAX_COUNT),
                    ReproductionOption.cpu("--cpu", "the child's CPU", f.cpu()));
        }

        @Override
        public String notes() {
            return "Both loops run every way: the bare syscall instruction and the selftest's (glibc syscall(),\n"
                    + "the pid compared). --quick takes seconds.";
        }

        @Override
        public Run prepare(Args args) {
            KernelBitmap.Options b = args.flag("--quick") ? KernelBitmap.Options.quick() : KernelBitmap.Options.full();
            long calls = option("--calls").number(args);
            KernelBitmap.Options o = new KernelBitmap.Options(
                    option("--runs").intNumber(args),
                    Math.min(b.warmup(), calls),
                    calls,
                    option("--batch-runs").intNumber(args),
                    option("--batch-calls").number(args),
                    option("--cpu").intNumber(args));
            return session -> KernelBitmap.run(o, session);
        }
    }

    /** attach-cost: seed 004, what installing a filter costs. */
    static final class AttachCostRun extends ReproductionKind<heimdall.lab.results.AttachCostRow>
            implements Reproduction, KindPlots {
        AttachCostRun() {
            super("attach-cost", heimdall.lab.results.AttachCostRow.class);
        }

        @Override
        public Map<String, Chart<?, ?>> plots(Results r) {
            return Plots.callPlots(r);
        }

        @Override
        public List<ReproductionOption> options() {
            AttachCost.Options q = AttachCost.Options.quick();
            AttachCost.Options f = AttachCost.Options.full();
            return List.of(
                    ReproductionOption.count(
                            "--runs", "runs (fresh children) per floor and variant", q.runs(), f.runs(), MAX_RUNS),
                    ReproductionOption.count(
                            "--attaches",
                            "attaches per in-process run, at most the kernel's budget",
                            q.attaches(),
                            f.attaches(),
                            ChildSpec.MAX_COUNT),
                    ReproductionOption.count("--forks", "forks per run", q.forks(), f.forks(), ChildSpec.MAX_COUNT),
                    ReproductionOption.text(
                            "--podman",
                            "FILE",
                            "the container profile (\"none\" leaves it out)",
                            AttachCost.PODMAN_PROFILE.toString(),
                            AttachCost.PODMAN_PROFILE.toString()),
                    ReproductionOption.cpu("--cpu", "the child's CPU", f.cpu()));
        }

        @Override
        public String notes() {
            AttachCost.Options q = AttachCost.Options.quick();
            AttachCost.Options f = AttachCost.Options.full();
            return String.format(
                    java.util.Locale.ROOT,
                    "Fork warm-ups %d (--quick %d); compiles %d + %d warm-up (--quick %d + %d).",
                    f.forkWarmup(),
                    q.forkWarmup(),
                    f.compiles(),
                    f.compileWarmup(),
                    q.compiles(),
                    q.compileWarmup());
        }

        @Override
        public Run prepare(Args args) {
            AttachCost.Options b = args.flag("--quick") ? AttachCost.Options.quick() : AttachCost.Options.full();
            AttachCost.Options o = new AttachCost.Options(
                    option("--runs").intNumber(args),
                    (int) option("--attaches").number(args),
                    b.forkWarmup(),
                    (int) option("--forks").number(args),
                    b.compileWarmup(),
                    b.compiles(),
                    option("--cpu").intNumber(args));
            Optional<String> given = option("--podman").text(args);
            String podman = given.orElse(AttachCost.PODMAN_PROFILE.toString());
            // An explicit --podman must exist; only the default may be absent (no container profile row).
            Path profile = podman.equals("none")
                    ? null
                    : given.isPresent() ? Io.requireReadable(Path.of(podman)) : Path.of(podman);
            return session -> AttachCost.run(o, session, profile);
        }
    }

    /** host-load: the floor-cost rows 1–9 idle and under a load. */
    static final class HostLoadRun extends ReproductionKind<heimdall.lab.results.HostLoadRow>
            implements Reproduction, KindPlots {
        HostLoadRun() {
            super("host-load", heimdall.lab.results.HostLoadRow.class);
        }

        @Override
        public Optional<ReproductionKind.RowIdentity> identity() {
            List<String> keys = new ArrayList<>(List.of("load"));
            keys.addAll(FLOOR_KEYS);
            return Optional.of(
                    new ReproductionKind.RowIdentity(keys, "median_ns", "added_ns", "published.added_ns", "ns"));
        }

        @Override
        public Map<String, Chart<?, ?>> plots(Results r) {
            return Plots.hostLoadPlots(r);
        }

        @Override
        public List<ReproductionOption> options() {
            List<ReproductionOption> o = new ArrayList<>(countOptions(false));
            String every = "spin and syscall on every allowed CPU, nice 0, intensity 1";
            o.add(ReproductionOption.text(
                    "--load",
                    "SPEC",
                    "load threads, kind:cpu[:nice[:intensity]] comma-separated; kind spin or\n"
                            + "syscall, cpu a number or any, nice -20..19, intensity in (0, 1]",
                    every,
                    every));
            o.add(ReproductionOption.number(
                    "--settle",
                    "SECONDS",
                    "load before measuring the loaded rows (60: the 1-minute average)",
                    5,
                    60,
                    0,
                    MAX_SETTLE_SECONDS));
            o.add(ReproductionOption.cpu("--cpu", "the child's CPU", Cpus.measuring()));
            return o;
        }

        @Override
        public String notes() {
            return "The floor-cost rows 1-9, idle and then under the load.";
        }

        @Override
        public Run prepare(Args args) {
            FloorBench.Counts counts = counts(this, args);
            List<Worker> load =
                    option("--load").text(args).map(Worker::parseList).orElseGet(() -> Worker.everyCpu(0));
            if (load.isEmpty()) {
                throw new BadInput("option --load: no load threads given");
            }
            long settle = option("--settle").number(args);
            HostLoad.Options o = new HostLoad.Options(counts, option("--cpu").intNumber(args), load, settle * 1000);
            return session -> HostLoad.run(o, session);
        }
    }

    /** floor-cost's and host-load's --runs and --calls (and floor-cost's --broker-calls), quick and published. */
    static List<ReproductionOption> countOptions(boolean broker) {
        FloorBench.Counts q = FloorBench.Counts.quick();
        FloorBench.Counts p = FloorBench.Counts.published();
        List<ReproductionOption> o = new ArrayList<>(List.of(
                ReproductionOption.count("--runs", "runs (fresh children) per row", q.runs(), p.runs(), MAX_RUNS),
                ReproductionOption.count(
                        "--calls",
                        "measured calls per run of a fast call",
                        q.count(),
                        p.count(),
                        ChildSpec.MAX_COUNT)));
        if (broker) {
            o.add(ReproductionOption.count(
                    "--broker-calls",
                    "measured calls per run of a brokered call",
                    q.brokerCount(),
                    p.brokerCount(),
                    ChildSpec.MAX_COUNT));
        }
        return o;
    }

    /** The counts {@link #countOptions} read: --quick's or the published ones, with what was given. */
    static FloorBench.Counts counts(Reproduction r, Args args) {
        FloorBench.Counts base = args.flag("--quick") ? FloorBench.Counts.quick() : FloorBench.Counts.published();
        long brokerCount = r.options().stream().anyMatch(o -> o.name().equals("--broker-calls"))
                ? r.option("--broker-calls").number(args)
                : base.brokerCount();
        return new FloorBench.Counts(
                r.option("--runs").intNumber(args),
                base.warmup(),
                r.option("--calls").number(args),
                base.brokerWarmup(),
                brokerCount);
    }

    /**
     * What names a floor-cost row on every host, for compare: floor, call, and for brokered rows
     * supervisor, answer, placement, wake-up; the round-trip floors their reference.
     */
    static final List<String> FLOOR_KEYS =
            List.of("what", "call", "supervisor", "answer", "placement", "sync_wakeup", "reference");

    /** A day: a settling time past it is a typo, not a plan. */
    static final long MAX_SETTLE_SECONDS = 86_400;

    /** Runs are fresh processes, each with its samples kept: past this many a run count is a typo. */
    static final int MAX_RUNS = 10_000;
}
