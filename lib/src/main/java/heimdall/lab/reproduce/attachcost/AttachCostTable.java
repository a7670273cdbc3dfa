package heimdall.lab.reproduce.attachcost;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.reproduce.LoadLine;
import heimdall.lab.reproduce.attachcost.AttachCost.Options;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.PublishedAttachCost;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.RowStatus;
import heimdall.lab.sys.Host;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * attach-cost's {@code table.md}: a line per measured floor and the fork-alone baseline with their intervals, the
 * floors that failed or a stop cut short, and the seed's published figures. Its own class because the table is
 * made from a run's rows, options and host alone (nothing is measured here), so a committed folder redraws it.
 */
final class AttachCostTable {
    private AttachCostTable() {}

    /**
     * {@code table.md}'s body for a recorded run: {@link #of(List, Options, Host)} of its rows, options and
     * host.
     */
    static String of(Recorded<AttachCostRow, AttachCostSettings> run) {
        return of(run.rows(), run.settings().options(), run.host());
    }

    /**
     * table.md's body, from the summary rows alone ({@link AttachCost#summary}), the options and the host: a line
     * per measured floor, the fork-alone baseline, then the floors that failed or a stop cut short.
     */
    static String of(List<AttachCostRow> rows, Options o, Host host) {
        StringBuilder md = new StringBuilder("# attach-cost: what installing a filter costs\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, BPF JIT %s; CPU %d. %d runs per floor and variant; "
                        + "in-process: up to %,d attaches a run (the kernel's budget: 32772 / (E + 4) copies per "
                        + "process of a filter that is E instructions "
                        + "once the kernel has converted it to eBPF); "
                        + "fork: %,d warm-up + %,d forks a run. Compile: %,d warm-up + %,d timed compiles in this "
                        + "JVM. ",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.bpfJit().get("net.core.bpf_jit_enable"),
                o.cpu(),
                o.runs(),
                o.attaches(),
                o.forkWarmup(),
                o.forks(),
                o.compileWarmup(),
                o.compiles()));
        // this host's load beside the published host's (the seed does not give it)
        md.append(LoadLine.of(host, List.of()))
                .append(" The published host's load is not recorded (seed 004: a qemu-kvm guest).\n\n");
        MarkdownTable t = new MarkdownTable(List.of(
                "floor",
                "insns",
                "compile (Java)",
                "attaches a run (budget)",
                "attach: inside, median",
                RowIntervals.heading("attach median"),
                "p99",
                RowIntervals.heading("attach p99"),
                "first",
                "attach: outside",
                "fork+attach: inside",
                RowIntervals.heading("fork+attach median"),
                "p99",
                RowIntervals.heading("fork+attach p99"),
                "fork+attach: outside",
                "attach within fork (− fork alone)",
                RowIntervals.heading("added")));
        List<AttachCostRow> measured = rows.stream()
                .filter(r -> !r.forkAlone() && r.outcome() == RowStatus.OK)
                .toList();
        for (AttachCostRow r : measured) {
            AttachCostRow.Subject s = r.subject();
            t.row(List.of(
                    s.what(),
                    s.insns() + (Boolean.TRUE.equals(s.loopAddsSeccomp()) ? " (loop: " + s.loopInsns() + ")" : ""),
                    r.compile().medianNs() == null
                            ? "—"
                            : MarkdownTable.tail(r.compile().medianNs()),
                    r.loop().attachesPerRun() + " (" + r.loop().budget() + ")",
                    MarkdownTable.tail(r.attach().medianNs()),
                    ci(r.attachIntervals(), RowIntervals::median),
                    MarkdownTable.tail(r.attach().p99Ns()),
                    ci(r.attachIntervals(), RowIntervals::p99),
                    MarkdownTable.tail(r.attach().firstNs()),
                    MarkdownTable.tail(r.attach().outsideNsPerCall()),
                    MarkdownTable.tail(r.forkAttach().medianNs()),
                    ci(r.intervals(), RowIntervals::median),
                    MarkdownTable.tail(r.forkAttach().p99Ns()),
                    ci(r.intervals(), RowIntervals::p99),
                    MarkdownTable.tail(r.forkAttach().outsideNsPerCall()),
                    r.attachInForkAddedNs() == null ? "—" : MarkdownTable.added(r.attachInForkAddedNs()),
                    ci(r.intervals(), RowIntervals::added)));
        }
        AttachCostRow forkAlone =
                rows.stream().filter(AttachCostRow::forkAlone).findFirst().orElse(null);
        if (forkAlone != null && forkAlone.outcome() == RowStatus.OK) {
            AttachCostRow.Timing fork = forkAlone.fork();
            t.row(List.of(
                    "fork alone (baseline)",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    "—",
                    MarkdownTable.tail(fork.medianNs()),
                    ci(forkAlone.intervals(), RowIntervals::median),
                    MarkdownTable.tail(fork.p99Ns()),
                    ci(forkAlone.intervals(), RowIntervals::p99),
                    MarkdownTable.tail(fork.outsideNsPerCall()),
                    "—",
                    "—"));
        }
        md.append(t.render()).append('\n');
        for (AttachCostRow r : rows) {
            AttachCostRow.Runs runs = r.runs();
            String done = runs.runsCompleted() + " of " + runs.runsAsked() + " runs";
            if (r.outcome() == RowStatus.FAILED) {
                md.append("- FAILED: ")
                        .append(r.what())
                        .append(" (")
                        .append(r.subject().insns())
                        .append(" insns): ")
                        .append(r.failure())
                        .append('\n');
            } else if (r.forkAlone() && Boolean.TRUE.equals(runs.interrupted())) {
                md.append("- interrupted: fork alone (baseline): ")
                        .append(
                                r.outcome() == RowStatus.OK
                                        ? done
                                        : "not measured (no attach within fork − fork alone)")
                        .append('\n');
            } else if (Boolean.TRUE.equals(runs.interrupted())) {
                md.append("- interrupted: ")
                        .append(r.what())
                        .append(": ")
                        .append(r.outcome() == RowStatus.OK ? done : "not measured")
                        .append('\n');
            }
        }
        PublishedAttachCost pub = AttachCost.published();
        if (pub != null) {
            md.append("Published (seed 004, ").append(pub.sourceShort()).append("):\n\n");
            for (PublishedAttachCost.Row r : pub.rows()) {
                md.append(String.format(Locale.ROOT, "- %s: %,d ns (%s)%n", r.what(), r.ns(), r.printed()));
            }
            md.append('\n');
        }
        md.append("A floor that does not allow seccomp(2) would kill the in-process loop at its second attach: the "
                + "loop attaches it "
                + "compiled with one more rule allowing seccomp in front (`loop:` gives its length); the "
                + "fork variant attaches the floor as it is. ");
        md.append("`inside`: each attach (or fork, attach in the child, wait) timed alone; `outside`: the loop timed "
                + "as a whole with no "
                + "clock read in it, divided by its calls. The in-process loop attaches the same program "
                + "again and again, so a run's later "
                + "attaches happen under more filters (samples.arrow keeps the order). `first`: the median "
                + "over runs of each process's "
                + "first attach. ");
        md.append(
                "Intervals (ns) are distribution-free, over the runs: order statistics over the runs' medians and p99s "
                        + "(the in-process attach's, and the fork+attach's or the fork alone's), and for the attach "
                        + "within "
                        + "fork the Hodges–Lehmann shift of the fork+attach run medians from the fork-alone ones, "
                        + "with its "
                        + "Mann–Whitney interval; where the runs are too few for 95% the coverage they reach is "
                        + "given.\n");
        return md.toString();
    }

    /** A row's interval cell, in ns ({@link RowIntervals#cell}); {@code "—"} for a row without. */
    private static String ci(RowIntervals intervals, Function<RowIntervals, RowIntervals.Ci> which) {
        return intervals == null ? "—" : RowIntervals.cell(which.apply(intervals));
    }
}
