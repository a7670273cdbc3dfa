package heimdall.lab.reproduce.kernelmatrix;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.command.Args;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.Headline;
import heimdall.lab.results.KernelMatrixRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * kernel-matrix (issue 24): features, quick floor-cost and follower-cost rows and kernel-bitmap's expectations per
 * kernel.
 */
public final class KernelMatrixRun extends ReproductionKind<KernelMatrixRow, KernelMatrixSettings>
        implements Reproduction, KindPlots {
    /** The kernels without {@code --kernels}: this machine's and Debian's 6.1. */
    static final String DEFAULT_KERNELS = "host,debian:6.1";

    public KernelMatrixRun() {
        super("kernel-matrix", KernelMatrixRow.class, KernelMatrixSettings.class);
    }

    @Override
    public String table(Recorded<KernelMatrixRow, KernelMatrixSettings> run) {
        return KernelMatrixTable.of(run);
    }

    @Override
    public String shortfall() {
        return KernelMatrixTable.SHORTFALL;
    }

    @Override
    public Optional<ReproductionKind.RowIdentity> identity() {
        // a row is a kernel's section and row; its emulated kernels' rows compare by ratio only
        return Optional.of(new ReproductionKind.RowIdentity(
                List.of("kernel", "section", "what"), "median_ns", "added_ns", "published", "ns"));
    }

    /** The first screen's finding of a row: its added cost, else its median. */
    @Override
    public Optional<Headline> headline(KernelMatrixRow row) {
        return Headline.of(
                row.intervals(), row.figures().addedNs(), row.figures().medianNs(), "ns", "runs");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return KernelMatrixPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        List<ReproductionOption> o = new ArrayList<>(List.of(ReproductionOption.text(
                "--kernels",
                "K,K",
                "the kernels, in order: " + String.join(", ", KernelMatrix.KNOWN)
                        + "\n(host: this machine's, measured here; the others in a guest by ./lab vm run)",
                DEFAULT_KERNELS,
                DEFAULT_KERNELS)));
        o.addAll(Reproductions.countOptions(true));
        o.add(ReproductionOption.number(
                "--guest-minutes", "M", "a guest's part is ended and refused after this long", 40, 120, 1, 24 * 60));
        o.add(ReproductionOption.cpu("--cpu", "the measured child's CPU (the highest allowed)", Cpus.measuring()));
        return List.copyOf(o);
    }

    @Override
    public String notes() {
        return """
                Per kernel: the features (actions_avail, the action cache, ADDFD with SEND, the synchronous
                wake-up, BPF trampolines, task storage for tracing programs, SSB/STIBP of a filtered task),
                predicted from the version and observed; floor-cost's getppid, mprotect and a brokered openat;
                kernel-bitmap's expectations; follower-cost's rows (its quick counts with --quick). Needs root.
                A guest's own folder is kept beneath kernels/; figures from an emulated guest are marked and
                compared only as ratios. Writes no samples.arrow: every row is a median from its kernel's part.
                """;
    }

    @Override
    public Run prepare(Args args) {
        List<String> kernels =
                KernelMatrix.parseKernels(option("--kernels").text(args).orElse(DEFAULT_KERNELS));
        int cpu = option("--cpu").intNumber(args);
        boolean quick = args.flag("--quick");
        FollowerCost.Options follower = quick ? FollowerCost.Options.quick(cpu) : FollowerCost.Options.standard(cpu);
        KernelMatrix.Options o = new KernelMatrix.Options(
                kernels,
                quick,
                Reproductions.counts(this, args),
                follower,
                Cpus.supervisor(),
                option("--guest-minutes").number(args));
        return session -> KernelMatrix.run(o, session);
    }
}
