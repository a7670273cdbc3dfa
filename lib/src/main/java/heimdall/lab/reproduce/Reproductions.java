package heimdall.lab.reproduce;

import heimdall.lab.BadInput;
import heimdall.lab.Io;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.results.ResultKind;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.cli.Args;
import heimdall.lab.load.Worker;
import heimdall.lab.sys.Cpus;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The reproductions of {@code ./lab reproduce}: each turns its options into a run. */
final class Reproductions {
    private Reproductions() {}

    /** floor-cost: seed 000's table. */
    static final class FloorCostRun implements Reproduction {
        @Override
        public String name() {
            return "floor-cost";
        }

        @Override
        public String help() {
            return """
                      --quick                about a minute: 3 runs, 10,000 + 50,000 calls (brokered 500 + 2,000)
                      --runs N               runs (fresh children) per row (published: 7)
                      --calls N              measured calls per run of a fast call (published: 1,000,000)
                      --broker-calls N       measured calls per run of a brokered call (published: 20,000)
                      --no-broker            rows 1-9 only (no supervisor)
                      --cpu C                the child's CPU (default: the highest allowed, here %d)
                      --supervisor-cpu C     the supervisor's own CPU (default: another allowed one, here %d)
                    """.formatted(Cpus.measuring(), Cpus.supervisor());
        }

        @Override
        public Set<String> flags() {
            return Set.of("--no-broker");
        }

        @Override
        public Set<String> valued() {
            return Set.of("--runs", "--calls", "--broker-calls", "--cpu", "--supervisor-cpu");
        }

        @Override
        public Run prepare(Args args) {
            FloorBench.Counts counts = counts(args);
            FloorCost.Options options = new FloorCost.Options(counts, cpu(args, "--cpu", Cpus.measuring()),
                    cpu(args, "--supervisor-cpu", Cpus.supervisor()), !args.flag("--no-broker"));
            return (folder, progress) -> {
                FloorCost.Result r = FloorCost.run(options, folder, progress);
                return new ReproductionResult(r.folder(), SummaryJson.typed(ResultKind.FLOOR_COST, r.summary()), r.interruption());
            };
        }
    }

    /** kernel-bitmap: seed 003, the kernel selftest's bitmap expectations. */
    static final class KernelBitmapRun implements Reproduction {
        @Override
        public String name() {
            return "kernel-bitmap";
        }

        @Override
        public String help() {
            return """
                      --quick                seconds: 16 rounds, 25,000 calls timed each and 125,000 as a whole
                      --runs N               per-call runs (fresh children) per configuration and loop (default 32;
                                             a multiple of 4 gives each code placement of the loop as many runs)
                      --calls N              calls timed one by one per run (default 250,000)
                      --batch-runs N         batch runs per configuration, loop and clock (default 32)
                      --batch-calls N        calls timed as a whole per batch run, on CLOCK_MONOTONIC and on the
                                             selftest's CLOCK_PROCESS_CPUTIME_ID (default 625,000; the selftest:
                                             100,000,000 in one run)
                    Both loops run every way: the bare syscall instruction and the selftest's (glibc syscall(),
                    the pid compared).
                      --cpu C                the child's CPU (default %d)
                    """.formatted(Cpus.measuring());
        }

        @Override
        public Set<String> flags() {
            return Set.of();
        }

        @Override
        public Set<String> valued() {
            return Set.of("--runs", "--calls", "--batch-runs", "--batch-calls", "--cpu");
        }

        @Override
        public Run prepare(Args args) {
            KernelBitmap.Options b = args.flag("--quick") ? KernelBitmap.Options.quick() : KernelBitmap.Options.full();
            long calls = positive(args, "--calls", b.perCallCount());
            KernelBitmap.Options o = new KernelBitmap.Options(runs(args, "--runs", b.runs()), Math.min(b.warmup(), calls),
                    calls, runs(args, "--batch-runs", b.batchRuns()), positive(args, "--batch-calls", b.batchCount()),
                    cpu(args, "--cpu", b.cpu()));
            return (folder, progress) -> KernelBitmap.run(o, folder, progress);
        }
    }

    /** attach-cost: seed 004, what installing a filter costs. */
    static final class AttachCostRun implements Reproduction {
        @Override
        public String name() {
            return "attach-cost";
        }

        @Override
        public String help() {
            return """
                      --quick                3 runs, up to 200 attaches and 20 + 200 forks a run, 300 + 200 compiles
                      --runs N               runs (fresh children) per floor and variant (default 7)
                      --attaches N           attaches per in-process run, at most the kernel's budget (default 1,000)
                      --forks N              forks per run (default 2,000)
                      --podman FILE          the container profile (default %s; "none" leaves it out)
                      --cpu C                the child's CPU (default %d)
                    """.formatted(AttachCost.PODMAN_PROFILE, Cpus.measuring());
        }

        @Override
        public Set<String> flags() {
            return Set.of();
        }

        @Override
        public Set<String> valued() {
            return Set.of("--runs", "--attaches", "--forks", "--podman", "--cpu");
        }

        @Override
        public Run prepare(Args args) {
            AttachCost.Options b = args.flag("--quick") ? AttachCost.Options.quick() : AttachCost.Options.full();
            AttachCost.Options o = new AttachCost.Options(runs(args, "--runs", b.runs()),
                    (int) positive(args, "--attaches", b.attaches()), b.forkWarmup(),
                    (int) positive(args, "--forks", b.forks()),
                    b.compileWarmup(), b.compiles(), cpu(args, "--cpu", b.cpu()));
            String podman = args.value("--podman").orElse(AttachCost.PODMAN_PROFILE.toString());
            // An explicit --podman must exist; only the default may be absent (no container profile row).
            Path profile = podman.equals("none") ? null
                    : args.value("--podman").isPresent() ? Io.requireReadable(Path.of(podman)) : Path.of(podman);
            return (folder, progress) -> AttachCost.run(o, folder, profile, progress);
        }
    }

    /** host-load: the floor-cost rows 1–9 idle and under a load. */
    static final class HostLoadRun implements Reproduction {
        @Override
        public String name() {
            return "host-load";
        }

        @Override
        public String help() {
            return """
                      --quick                3 runs, 10,000 + 50,000 calls, 5 s of settling
                      --runs N, --calls N    as floor-cost (defaults 7 and 1,000,000)
                      --load SPEC            load threads, kind:cpu[:nice[:intensity]] comma-separated; kind spin or
                                             syscall, cpu a number or any, nice -20..19, intensity in (0, 1]
                                             (default: spin and syscall on every allowed CPU, nice 0, intensity 1)
                      --settle SECONDS       load before measuring the loaded rows (default 60: the 1-minute average)
                      --cpu C                the child's CPU (default %d)
                    """.formatted(Cpus.measuring());
        }

        @Override
        public Set<String> flags() {
            return Set.of();
        }

        @Override
        public Set<String> valued() {
            return Set.of("--runs", "--calls", "--load", "--settle", "--cpu");
        }

        @Override
        public Run prepare(Args args) {
            FloorBench.Counts counts = counts(args);
            List<Worker> load = args.value("--load").map(Worker::parseList).orElseGet(() -> Worker.everyCpu(0));
            if (load.isEmpty()) {
                throw new BadInput("option --load: no load threads given");
            }
            long settle = args.longValue("--settle", args.flag("--quick") ? 5 : 60, 0, MAX_SETTLE_SECONDS);
            HostLoad.Options o = new HostLoad.Options(counts, cpu(args, "--cpu", Cpus.measuring()), load, settle * 1000);
            return (folder, progress) -> HostLoad.run(o, folder, progress);
        }
    }

    /** floor-cost's counts from --quick, --runs, --calls and --broker-calls. */
    static FloorBench.Counts counts(Args args) {
        FloorBench.Counts base = args.flag("--quick") ? FloorBench.Counts.quick() : FloorBench.Counts.published();
        return new FloorBench.Counts(runs(args, "--runs", base.runs()), base.warmup(), positive(args, "--calls", base.count()),
                base.brokerWarmup(), positive(args, "--broker-calls", base.brokerCount()));
    }

    /** A day: a settling time past it is a typo, not a plan. */
    static final long MAX_SETTLE_SECONDS = 86_400;

    /** Runs are fresh processes, each with its samples kept: past this many a run count is a typo. */
    static final int MAX_RUNS = 10_000;

    /** Calls a child makes: at least 1, at most what the runner's sample region holds (an int holds it too). */
    static long positive(Args args, String option, long fallback) {
        return args.count(option, fallback, ChildSpec.MAX_COUNT);
    }

    static int runs(Args args, String option, int fallback) {
        return (int) args.count(option, fallback, MAX_RUNS);
    }

    static int cpu(Args args, String option, int fallback) {
        return args.cpu(option, fallback);
    }
}
