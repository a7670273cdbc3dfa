package heimdall.lab.reproduce.attachcost;

import heimdall.lab.Io;
import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.Headline;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** attach-cost: seed 004, what installing a filter costs. */
public final class AttachCostRun extends ReproductionKind<AttachCostRow, AttachCostSettings>
        implements Reproduction, KindPlots {
    public AttachCostRun() {
        super("attach-cost", AttachCostRow.class, AttachCostSettings.class);
    }

    /**
     * The first screen's finding of a row: the attach in a fork's added cost, else the fork's (with the attach)
     * median.
     */
    @Override
    public Optional<Headline> headline(AttachCostRow row) {
        return Headline.of(
                row.intervals(),
                row.attachInForkAddedNs(),
                (row.forkAlone() ? row.fork() : row.forkAttach()).medianNs(),
                "ns",
                "runs");
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return CallPlots.callPlots(r);
    }

    @Override
    public List<ReproductionOption> options() {
        AttachCost.Options q = AttachCost.Options.quick();
        AttachCost.Options f = AttachCost.Options.full();
        return List.of(
                ReproductionOption.count(
                        "--runs",
                        "runs (fresh children) per floor and variant",
                        q.runs(),
                        f.runs(),
                        Reproductions.MAX_RUNS),
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
                Locale.ROOT,
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

    @Override
    public String table(Recorded<AttachCostRow, AttachCostSettings> run) {
        return AttachCostTable.of(run);
    }

    @Override
    public String shortfall() {
        return "fewer runs than asked (runs_completed in summary.json)";
    }
}
