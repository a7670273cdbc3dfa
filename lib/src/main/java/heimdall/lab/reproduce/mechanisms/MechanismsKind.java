package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.command.Args;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.reproduce.Reproductions;
import heimdall.lab.results.Headline;
import heimdall.lab.results.MechanismsRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * {@code ./lab reproduce mechanisms}: Landlock beside the broker on the same calls, and their decisions on a
 * grid of names. Registered as a {@link ReproductionKind} service ({@code META-INF/services}).
 */
public final class MechanismsKind extends ReproductionKind<MechanismsRow, MechanismsSettings>
        implements Reproduction, KindPlots {
    /** For {@link java.util.ServiceLoader}. */
    public MechanismsKind() {
        super("mechanisms", MechanismsRow.class, MechanismsSettings.class);
    }

    @Override
    public List<ReproductionOption> options() {
        List<ReproductionOption> o = new ArrayList<>(Reproductions.countOptions(true));
        o.add(ReproductionOption.cpu("--cpu", "the child's CPU (the highest allowed)", Cpus.measuring()));
        o.add(ReproductionOption.cpu(
                "--supervisor-cpu", "the supervisor's own CPU (another allowed one)", Cpus.supervisor()));
        return o;
    }

    @Override
    public String notes() {
        return "openat of names beneath in/ and outside it at path depths, and stat, under Landlock\n"
                + "(readBeneath(in/)), the static floor, the broker (native and Java, CONTINUE and BROKER)\n"
                + "and the floor with each, against the same call with nothing; then both policies'\n"
                + "decisions on a grid of names (symlinks, .., hard links, FIFOs, directories, devices).";
    }

    @Override
    public Run prepare(Args args) {
        FloorBench.Counts counts = Reproductions.counts(this, args);
        Mechanisms.Options o = new Mechanisms.Options(
                counts,
                option("--cpu").intNumber(args),
                option("--supervisor-cpu").intNumber(args));
        return session -> Mechanisms.run(o, session);
    }

    @Override
    public String table(Recorded<MechanismsRow, MechanismsSettings> run) {
        return MechanismsTable.of(run);
    }

    /** The first screen's finding of a row: floor-cost's: its added cost, else its median. */
    @Override
    public Optional<Headline> headline(MechanismsRow row) {
        return Headline.of(row);
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return MechanismsPlots.of(r);
    }
}
