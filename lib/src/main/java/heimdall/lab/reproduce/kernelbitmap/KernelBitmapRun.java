package heimdall.lab.reproduce.kernelbitmap;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.Headline;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.PublishedKernelBitmap;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** kernel-bitmap: seed 003, the kernel selftest's bitmap expectations. */
public final class KernelBitmapRun extends ReproductionKind<KernelBitmapRow, KernelBitmapSettings>
        implements Reproduction, KindPlots {
    public KernelBitmapRun() {
        super("kernel-bitmap", KernelBitmapRow.class, KernelBitmapSettings.class);
    }

    @Override
    public Optional<Record> published() {
        return Optional.of(PublishedKernelBitmap.read());
    }

    /** The first screen's finding of a row: a configuration's bare loop, per call: its added cost, else its median. */
    @Override
    public Optional<Headline> headline(KernelBitmapRow row) {
        return row instanceof KernelBitmapRow.Configuration c && c.bareIntervals() != null
                ? Headline.of(
                        c.bareIntervals().perCall(),
                        c.bareIntervals().addedNs(),
                        c.bare().perCall().medianNs(),
                        "ns",
                        "runs")
                : Optional.empty();
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return KernelBitmapPlots.of(r);
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
                        Reproductions.MAX_RUNS),
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
                        Reproductions.MAX_RUNS),
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

    @Override
    public String table(Recorded<KernelBitmapRow, KernelBitmapSettings> run) {
        return KernelBitmapTable.of(run);
    }

    @Override
    public String shortfall() {
        return "fewer runs than asked (runs_completed, batch_runs_completed in summary.json)";
    }
}
