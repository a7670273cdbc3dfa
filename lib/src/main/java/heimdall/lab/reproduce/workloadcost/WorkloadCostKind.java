package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.BadInput;
import heimdall.lab.analysis.KindPlots;
import heimdall.lab.analysis.Results;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.command.Args;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.reproduce.Reproduction;
import heimdall.lab.reproduce.ReproductionOption;
import heimdall.lab.results.Findings;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.sys.Host;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.internal.chartpart.Chart;

/** workload-cost: real programs run whole under each mechanism, overhead B/A with its interval. */
public final class WorkloadCostKind extends ReproductionKind<WorkloadCostRow, WorkloadCostSettings>
        implements Reproduction, KindPlots {
    /** Past this many rounds a run count is a typo. */
    static final int MAX_RUNS = 1000;

    public WorkloadCostKind() {
        super("workload-cost", WorkloadCostRow.class, WorkloadCostSettings.class);
    }

    @Override
    public Optional<ReproductionKind.RowIdentity> identity() {
        return Optional.of(new ReproductionKind.RowIdentity(
                List.of("workload", "mechanism", "supervisor", "answer"),
                "wall_median_ns",
                "wall_added_ns",
                "published_wall_added_ns",
                "ns"));
    }

    @Override
    public Map<String, Chart<?, ?>> plots(Results r) {
        return WorkloadCostPlots.of(r);
    }

    @Override
    public List<ReproductionOption> options() {
        return List.of(
                ReproductionOption.count(
                        "--runs", "interleaved rounds: runs a workload and mechanism", 3, 10, MAX_RUNS),
                ReproductionOption.count(
                        "--probe-runs", "recorded runs (ptrace) a workload's own profile is generated from", 1, 2, 20),
                ReproductionOption.text(
                        "--profile",
                        "FILE",
                        "also run under this profile (yours: what does it cost this program?)",
                        null,
                        null),
                ReproductionOption.text(
                        "--docker-profile",
                        "FILE",
                        "Docker's default seccomp.json (Debian: golang-github-docker-docker-dev's\n"
                                + "profiles/seccomp/default.json, looked for there when not given)",
                        null,
                        null),
                ReproductionOption.flag(
                        "--workload",
                        "run the command after -- (./lab reproduce workload-cost --workload -- CMD ARGS)\n"
                                + "in this folder instead of the default suite"));
    }

    @Override
    public String notes() {
        return "The default suite: find over a generated tree (metadata), python3 importing many modules (opens),\n"
                + "gcc -c of a file including 40 headers (a compiler), xz of generated text (compute, few calls),\n"
                + "make -j2 of trivial rules (processes). Mechanisms: none, the program's own profile (probed and\n"
                + "generated here), Podman's and Docker's default profiles, the broker floor answering CONTINUE\n"
                + "(native and Java supervisors) and opening the program's inputs itself (both supervisors), the\n"
                + "kernel follower (design (a), tp_btf/sys_enter) on the program's recorded graph (refused for a\n"
                + "program that starts processes), Landlock (read and execute beneath /, write beneath the run's\n"
                + "own folders). A profile that kills the program is a refused row naming the call; a changed exit\n"
                + "status or stdout is flagged.";
    }

    @Override
    public Run prepare(Args args) {
        int runs = option("--runs").intNumber(args);
        int probeRuns = option("--probe-runs").intNumber(args);
        List<String> user = List.copyOf(args.afterDashes());
        if (option("--workload").given(args)) {
            if (user.isEmpty()) {
                throw new BadInput("option --workload: no command after -- (--workload -- CMD ARGS)");
            }
            Suite.requireProgram(user.get(0));
        } else if (!user.isEmpty()) {
            throw new BadInput("a command after -- needs --workload (--workload -- CMD ARGS)");
        } else {
            Suite.requireSuitePrograms();
        }
        Optional<Path> profile = option("--profile").text(args).map(Path::of);
        profile.ifPresent(p -> ProfileJson.load(p)); // bad input now, before a folder exists
        List<Mechanism> mechanisms = Arrays.stream(Mechanism.values())
                .filter(m -> m != Mechanism.PROFILE || profile.isPresent())
                .toList();
        WorkloadCost.Options o = new WorkloadCost.Options(
                runs,
                probeRuns,
                args.flag("--quick") ? Suite.Size.QUICK : Suite.Size.FULL,
                user,
                Path.of("").toAbsolutePath(),
                mechanisms,
                option("--docker-profile").text(args).map(Path::of).orElse(null),
                profile.orElse(null),
                args.flag("--quick") ? 3 : 5,
                args.flag("--quick") ? 5_000 : 20_000);
        return session -> WorkloadCost.run(o, session);
    }

    @Override
    public String table(Recorded<WorkloadCostRow, WorkloadCostSettings> run) {
        return table(run.rows(), run.settings(), run.host());
    }

    /** The first screen names the largest overhead per mechanism, with its interval (issue 31). */
    @Override
    public Optional<Findings> findings(List<WorkloadCostRow> rows) {
        return Optional.of(new Findings(
                "the largest overhead per mechanism (B/A of wall times, [95% CI] over the rounds):",
                largestPerMechanism(rows)));
    }

    static String table(List<WorkloadCostRow> rows, WorkloadCostSettings s, Host host) {
        StringBuilder md = new StringBuilder("# workload-cost: what a sandbox costs a whole program\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s; %d interleaved rounds (runs a cell), own profiles from %d recorded "
                        + "run(s). Overhead: B/A of run wall times against no filter in the same rounds, "
                        + "95%% interval (Hodges–Lehmann on logarithms, Mann–Whitney).%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                s.runs(),
                s.probeRuns()));
        if (s.speculation() != null) {
            md.append("SSB/STIBP on filtered tasks (forced by kernels before 5.16, unseen by any per-call figure): ")
                    .append(s.speculation().verdict())
                    .append(".\n\n");
        }
        md.append("The largest overhead per mechanism:\n\n");
        for (String line : largestPerMechanism(rows)) {
            md.append("- ").append(line).append('\n');
        }
        md.append('\n');
        MarkdownTable t = new MarkdownTable(List.of(
                "workload",
                "mechanism",
                "runs",
                "wall (median)",
                "overhead B/A",
                "95% CI",
                "verdict",
                "predicted B/A",
                "residual",
                "weighted insns (ours / libseccomp)",
                "user CPU",
                "sys CPU",
                "JVM CPU",
                "ctx sw (vol/invol)",
                "minor faults",
                "notified",
                "calls made",
                "SSB",
                "result"));
        for (WorkloadCostRow r : rows) {
            WorkloadCostRow.Cost c = r.cost();
            WorkloadCostRow.Overhead o = r.overhead();
            WorkloadCostRow.Predicted p = r.predicted();
            String mech = r.subject().mechanismLabel();
            if (r.outcome() == RowStatus.REFUSED) {
                t.row(List.of(
                        r.subject().workload(),
                        mech,
                        "0",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "—",
                        "refused: " + r.reason()));
                continue;
            }
            t.row(List.of(
                    r.subject().workload(),
                    mech,
                    r.runs().runsCompleted() + "/" + r.runs().runsAsked(),
                    ms(c.wallMedianNs()),
                    o.ratio() == null ? "baseline" : String.format(Locale.ROOT, "%.3f×", o.ratio()),
                    o.ratio() == null ? "—" : String.format(Locale.ROOT, "[%.3f, %.3f]", o.ratioLow(), o.ratioHigh()),
                    o.verdict() == null ? "—" : o.verdict(),
                    p.ratio() == null ? "—" : String.format(Locale.ROOT, "%.3f×", p.ratio()),
                    p.residualNs() == null
                            ? "—"
                            : String.format(
                                    Locale.ROOT,
                                    "%+.2f ms%s",
                                    p.residualNs() / 1e6,
                                    Boolean.TRUE.equals(p.within()) ? " (within)" : " (beyond: see below)"),
                    p.weightedInsns() == null
                            ? "—"
                            : String.format(
                                    Locale.ROOT,
                                    "%,d / %s",
                                    p.weightedInsns(),
                                    p.libseccompWeightedInsns() == null
                                            ? "—"
                                            : String.format(Locale.ROOT, "%,d", p.libseccompWeightedInsns())),
                    us(c.userUs()),
                    us(c.systemUs()),
                    us(c.supervisorUs()),
                    c.voluntarySwitches() + "/" + c.involuntarySwitches(),
                    String.valueOf(c.minorFaults()),
                    notified(c, r.enforced()),
                    String.valueOf(c.callsMade()),
                    c.ssb(),
                    r.check().flagged()
                            ? String.format(
                                    Locale.ROOT,
                                    "CHANGED: exit %d, output %d runs",
                                    r.check().exitChangedRuns(),
                                    r.check().outputChangedRuns())
                            : "same"));
        }
        md.append(t.render()).append('\n');
        rows.stream()
                .filter(r -> r.enforced().landlockRuleset() != null)
                .findFirst()
                .ifPresent(r -> md.append(String.format(
                        Locale.ROOT,
                        "Landlock: ABI %d; the ruleset (%s's): %s%n%n",
                        r.enforced().landlockAbi(),
                        r.subject().workload(),
                        r.enforced().landlockRuleset())));
        List<WorkloadCostRow> beyond =
                rows.stream().filter(r -> r.predicted().cause() != null).toList();
        if (!beyond.isEmpty()) {
            md.append("Where the prediction lies outside the measured interval, what else changed:\n\n");
            for (WorkloadCostRow r : beyond) {
                md.append(String.format(
                        Locale.ROOT,
                        "- %s under %s: %s%n",
                        r.subject().workload(),
                        r.subject().mechanismLabel(),
                        r.predicted().cause()));
            }
            md.append('\n');
        }
        md.append("Workloads (the side each stresses):\n\n");
        for (WorkloadCostSettings.WorkloadFacts w : s.workloads()) {
            md.append(String.format(
                    Locale.ROOT, "- %s: `%s` — %s%n", w.name(), String.join(" ", w.command()), w.stresses()));
        }
        md.append("\nPredicted: the recorded call mix times each call's added cost under the same filter, "
                + "measured in the same rounds by heimdall-runner (a mean a call, unpinned as the program; a harmless "
                + "call answered the same way: from the action cache, "
                + "or running the program, scaled by its instructions), plus each notified call's round trip "
                + "(broker bench, same run). Weighted insns: BPF instructions a run executes, the mix weighted "
                + "(gVisor's method, the action cache ignored), our program beside libseccomp's.\n");
        md.append("\nJVM CPU: the measuring JVM's own CPU over the run, the supervisor's for brokered rows. "
                + "Calls made: one recorded (ptrace) run, every task. SSB: the program's Speculation_Store_Bypass "
                + "state as it ended. Notified: calls that reached the supervisor (brokered: those it opened "
                + "itself); for the follower, the calls it stepped, predicted at t_follow each (a followed "
                + "getppid's added time, measured in the same run).\n");
        return md.toString();
    }

    /** Per mechanism, the workload with the largest overhead, with its interval. */
    public static List<String> largestPerMechanism(List<WorkloadCostRow> rows) {
        Map<String, WorkloadCostRow> best = new LinkedHashMap<>();
        for (WorkloadCostRow r : rows) {
            if (r.overhead().ratio() == null) {
                continue;
            }
            String mech = r.subject().mechanismLabel();
            best.merge(mech, r, (a, b) -> a.overhead().ratio() >= b.overhead().ratio() ? a : b);
        }
        return best.entrySet().stream()
                .sorted(Comparator.comparing(e -> -e.getValue().overhead().ratio()))
                .map(e -> String.format(
                        Locale.ROOT,
                        "%s: %.3f× [%.3f, %.3f] on %s (%s)",
                        e.getKey(),
                        e.getValue().overhead().ratio(),
                        e.getValue().overhead().ratioLow(),
                        e.getValue().overhead().ratioHigh(),
                        e.getValue().subject().workload(),
                        e.getValue().overhead().verdict()))
                .toList();
    }

    /** The notified column: calls notified, those the broker opened itself, or the calls the follower stepped. */
    private static String notified(WorkloadCostRow.Cost c, WorkloadCostRow.Enforced e) {
        if (e.followedCalls() != null) {
            return String.format(
                    Locale.ROOT,
                    "followed %d%s",
                    e.followedCalls(),
                    e.perCallFollowNs() == null
                            ? ""
                            : String.format(Locale.ROOT, " (t_follow %.1f ns)", e.perCallFollowNs()));
        }
        if (c.notified() == null) {
            return "—";
        }
        return e.brokered() == null ? String.valueOf(c.notified()) : c.notified() + " (brokered " + e.brokered() + ")";
    }

    private static String ms(Long ns) {
        return ns == null ? "—" : String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    }

    private static String us(Long us) {
        return us == null ? "—" : String.format(Locale.ROOT, "%.1f ms", us / 1e3);
    }
}
