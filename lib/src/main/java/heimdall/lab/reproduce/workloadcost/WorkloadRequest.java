package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.BadInput;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.results.WorkloadCostRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code Lab.workload(cmd, args...)}: one program measured under every mechanism from jshell or a notebook, into
 * a results folder of its own, as {@code ./lab reproduce workload-cost --workload -- CMD ARGS} writes it.
 *
 * <pre>{@code
 * Path folder = Lab.workload("gcc", "-c", "hello.c").runs(10).profile(Path.of("my.json")).run();
 * }</pre>
 */
public final class WorkloadRequest {
    private final List<String> command;
    private int runs = 10;
    private int probeRuns = 2;
    private List<String> only = List.of();
    private Path profile;
    private Path out;
    private Consumer<String> progress = System.err::println;

    private WorkloadRequest(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** The command, run in this process's working folder; bad input when it names no program. */
    public static WorkloadRequest of(List<String> command) {
        if (command.isEmpty()) {
            throw new BadInput("workload: no command");
        }
        Suite.requireProgram(command.get(0));
        return new WorkloadRequest(command);
    }

    /** Interleaved rounds (runs a mechanism), 1..1000; 10 by default. */
    public WorkloadRequest runs(int n) {
        if (n < 1 || n > WorkloadCostKind.MAX_RUNS) {
            throw new BadInput("workload: runs must be 1.." + WorkloadCostKind.MAX_RUNS + ", got " + n);
        }
        this.runs = n;
        return this;
    }

    /** Recorded runs (ptrace) its call mix and own profile come from, 1..20; 2 by default. */
    public WorkloadRequest probeRuns(int n) {
        if (n < 1 || n > 20) {
            throw new BadInput("workload: probe runs must be 1..20, got " + n);
        }
        this.probeRuns = n;
        return this;
    }

    /**
     * Only these mechanisms beside none (the baseline, always run): a row's name ({@code "profile"},
     * {@code "broker-continue native"}) or a label naming all its rows ({@code "broker-continue"}); every
     * mechanism by default. What a notebook asks of one profile need not wait for the brokers.
     */
    public WorkloadRequest only(String... mechanisms) {
        for (String m : mechanisms) {
            if (Arrays.stream(Mechanism.values()).noneMatch(x -> matches(x, m))) {
                throw new BadInput("workload: no mechanism '" + m + "'; the mechanisms: "
                        + Arrays.stream(Mechanism.values())
                                .map(Mechanism::rowName)
                                .toList());
            }
        }
        this.only = List.of(mechanisms);
        return this;
    }

    private static boolean matches(Mechanism m, String name) {
        return m.label.equals(name) || m.rowName().equals(name);
    }

    /** Also run it under this profile: what does my tuned profile cost this program? */
    public WorkloadRequest profile(Path file) {
        this.profile = file;
        return this;
    }

    /** The results folder to write (absent or empty); a dated one under {@code results/} by default. */
    public WorkloadRequest out(Path dir) {
        this.out = dir;
        return this;
    }

    /** Where the progress lines go (stderr by default). */
    public WorkloadRequest progress(Consumer<String> lines) {
        this.progress = lines;
        return this;
    }

    /** Measures and writes the folder; returns its path. */
    public Path run() {
        if (profile == null && only.stream().anyMatch(n -> matches(Mechanism.PROFILE, n))) {
            throw new BadInput("workload: mechanism 'profile' needs a profile (.profile(file))");
        }
        List<Mechanism> mechanisms = new ArrayList<>(Arrays.stream(Mechanism.values())
                .filter(m -> m != Mechanism.PROFILE || profile != null)
                .filter(m ->
                        m == Mechanism.NONE || only.isEmpty() || only.stream().anyMatch(n -> matches(m, n)))
                .toList());
        WorkloadCost.Options o = new WorkloadCost.Options(
                runs,
                probeRuns,
                Suite.Size.FULL,
                command,
                Path.of("").toAbsolutePath(),
                mechanisms,
                null,
                profile,
                5,
                20_000);
        ResultsFolder folder = out == null ? ResultsFolder.defaultFolder("workload-cost") : ResultsFolder.chosen(out);
        ReproductionResult r;
        try (Session session = Session.open(folder, progress)) {
            r = WorkloadCost.run(o, session);
        }
        if (!r.written()) {
            folder.abandon();
            return null;
        }
        return Kept.keep(folder, r, progress);
    }

    /** The rows of a workload-cost folder. */
    public static List<WorkloadCostRow> rows(Path folder) {
        return ReproductionKind.of(WorkloadCostRow.class)
                .cast(SummaryJson.read(folder).rows());
    }
}
