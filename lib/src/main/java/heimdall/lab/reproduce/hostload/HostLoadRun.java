package heimdall.lab.reproduce.hostload;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.command.Args;
import heimdall.lab.load.Worker;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.Headline;
import heimdall.lab.results.HostLoadRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** host-load: the floor-cost rows 1–9 idle and under a load. */
public final class HostLoadRun extends ReproductionKind<HostLoadRow, HostLoadSettings>
        implements Reproduction, KindPlots {
    public HostLoadRun() {
        super("host-load", HostLoadRow.class, HostLoadSettings.class);
    }

    @Override
    public Optional<ReproductionKind.RowIdentity> identity() {
        List<String> keys = new ArrayList<>(List.of("load"));
        keys.addAll(Reproductions.FLOOR_KEYS);
        return Optional.of(new ReproductionKind.RowIdentity(keys, "median_ns", "added_ns", "published.added_ns", "ns"));
    }

    /** The first screen's finding of a row: floor-cost's: its added cost, else its median. */
    @Override
    public Optional<Headline> headline(HostLoadRow row) {
        return Headline.of(row);
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return HostLoadPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        List<ReproductionOption> o = new ArrayList<>(Reproductions.countOptions(false));
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
                Reproductions.MAX_SETTLE_SECONDS));
        o.add(ReproductionOption.cpu("--cpu", "the child's CPU", Cpus.measuring()));
        return o;
    }

    @Override
    public String notes() {
        return "The floor-cost rows 1-9, idle and then under the load.";
    }

    @Override
    public Run prepare(Args args) {
        FloorBench.Counts counts = Reproductions.counts(this, args);
        List<Worker> load = option("--load").text(args).map(Worker::parseList).orElseGet(() -> Worker.everyCpu(0));
        if (load.isEmpty()) {
            throw new BadInput("option --load: no load threads given");
        }
        long settle = option("--settle").number(args);
        HostLoad.Options o = new HostLoad.Options(counts, option("--cpu").intNumber(args), load, settle * 1000);
        return session -> HostLoad.run(o, session);
    }

    @Override
    public String table(Recorded<HostLoadRow, HostLoadSettings> run) {
        return HostLoad.table(run);
    }
}
