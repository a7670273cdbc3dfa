package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.results.MechanismsRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.sys.Host;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** mechanisms' {@code table.md}: the added cost by depth, every row, the decision grid, and what to keep in mind. */
final class MechanismsTable {
    private MechanismsTable() {}

    static String of(Recorded<MechanismsRow, MechanismsSettings> run) {
        List<MechanismsRow> rows = run.rows();
        MechanismsSettings s = run.settings();
        Host host = run.host();
        StringBuilder md = new StringBuilder("# mechanisms: Landlock beside the broker, the same calls, one run\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s; Landlock ABI %d (predicted from the version: %s); %s. Child on CPU %d,"
                        + " supervisor on CPU %d; %d runs a row; %,d + %,d calls a run (brokered %,d + %,d). The "
                        + "policy: %s. Every name is given from in/ as the child's working directory.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                s.landlockAbi(),
                s.landlockAbiPredicted() == null
                        ? "unknown"
                        : s.landlockAbiPredicted().toString(),
                s.landlockPlan(),
                s.cpu(),
                s.supervisorCpu(),
                s.counts().runs(),
                s.counts().warmup(),
                s.counts().count(),
                s.counts().brokerWarmup(),
                s.counts().brokerCount(),
                s.landlock()));
        md.append("## Added cost of an openat, by depth\n\n");
        md.append("Median minus the same call's median with nothing installed, in ns, with its confidence "
                + "interval over runs (each cell says its level and runs). Admitted names are `d/…/data.txt` beneath in/; refused ones "
                + "`../out/d/…/secret.txt` (from in/ a name outside has at least 3 components). A CONTINUE row "
                + "decides nothing (the kernel then opens as the child would); BROKER rows are the broker's "
                + "policy.\n\n");
        md.append(byDepth(rows, "openat")).append('\n');
        md.append("## stat\n\n");
        md.append(byDepth(rows, "fstatat")).append('\n');
        md.append("Landlock has no right for reading attributes: `stat` of a name outside in/ succeeds under "
                + "it (result `ok` above), and costs what the lookup costs. The broker never sees `stat` "
                + "(the broker floor allows it unnotified): its policy does not cover attributes either.\n\n");
        md.append("## Every row\n\n");
        md.append(every(rows)).append('\n');
        md.append("## What each decides: a grid of names\n\n");
        md.append(grid(s.grid())).append('\n');
        md.append(caveats());
        return md.toString();
    }

    /** Mechanism (and broker) by row, admitted and refused depths as columns. */
    private static String byDepth(List<MechanismsRow> rows, String call) {
        Map<String, Map<String, MechanismsRow>> table = new LinkedHashMap<>();
        List<String> columns = new ArrayList<>();
        for (MechanismsRow r : rows) {
            if (!call.equals(r.call())) {
                continue;
            }
            String key = r.mechanism() + (r.broker() == null ? "" : " · " + r.broker());
            String col = r.policy() + " " + r.depth();
            if (!columns.contains(col)) {
                columns.add(col);
            }
            table.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(col, r);
        }
        List<String> header = new ArrayList<>(List.of("mechanism"));
        for (String c : columns) {
            header.add(c + ": added [CI]");
        }
        MarkdownTable t = new MarkdownTable(header);
        MechanismsRow any =
                rows.stream().filter(r -> call.equals(r.call())).findFirst().orElse(null);
        if (any == null) {
            return "(no row)\n";
        }
        List<String> none = new ArrayList<>(List.of("nothing (median, ns)"));
        for (String c : columns) {
            MechanismsRow r = table.values().iterator().next().get(c);
            none.add(r == null ? "—" : ns(r.medianNoneNs()));
        }
        t.row(none);
        for (Map.Entry<String, Map<String, MechanismsRow>> e : table.entrySet()) {
            List<String> cells = new ArrayList<>(List.of(e.getKey()));
            for (String c : columns) {
                MechanismsRow r = e.getValue().get(c);
                cells.add(r == null ? "—" : addedCell(r));
            }
            t.row(cells);
        }
        return t.render();
    }

    private static String addedCell(MechanismsRow r) {
        if (r.addedNs() == null) {
            return r.status();
        }
        String res = Objects.equals(r.result(), "ok") ? "" : " → " + r.result();
        return add(r.addedNs()) + " " + RowIntervals.cell(r.intervals().added()) + res
                + (Boolean.TRUE.equals(r.noisy()) ? " (noisy)" : "");
    }

    private static String every(List<MechanismsRow> rows) {
        MarkdownTable t = new MarkdownTable(List.of(
                "row",
                "mechanism",
                "broker",
                "call",
                "policy",
                "depth",
                "result",
                "median",
                "p99",
                "nothing: median",
                "added",
                RowIntervals.heading("added"),
                "noisy",
                "status"));
        for (int i = 0; i < rows.size(); i++) {
            MechanismsRow r = rows.get(i);
            t.row(List.of(
                    Integer.toString(i),
                    r.mechanism(),
                    r.broker() == null ? "" : r.broker(),
                    "`" + r.call() + "`",
                    r.policy(),
                    String.valueOf(r.depth()),
                    r.result() == null ? "—" : r.result(),
                    ns(r.medianNs()),
                    ns(r.p99Ns()),
                    ns(r.medianNoneNs()),
                    add(r.addedNs()),
                    RowIntervals.cell(r.intervals().added()),
                    r.noisy() == null ? "—" : r.noisy() ? "yes" : "no",
                    r.status() + (r.failure() == null ? "" : ": " + r.failure())));
        }
        return t.render();
    }

    private static String grid(List<DecisionGrid.Outcome> grid) {
        if (grid == null || grid.isEmpty()) {
            return "(not asked: the run stopped before the grid)\n";
        }
        MarkdownTable t = new MarkdownTable(
                List.of("name (from in/)", "what", "Landlock", "broker (native)", "broker (Java)", "same?"));
        for (DecisionGrid.Outcome o : grid) {
            t.row(List.of(
                    "`" + o.name() + "`",
                    o.what(),
                    o.landlock(),
                    o.brokerNative(),
                    o.brokerJava(),
                    (o.equal() ? "same" : "**differs**") + (o.expected() ? "" : " (UNEXPECTED)")));
        }
        StringBuilder md = new StringBuilder(t.render()).append('\n');
        long differ = grid.stream().filter(o -> !o.equal()).count();
        md.append(String.format(
                Locale.ROOT, "%d of %d names decided alike; each difference:%n%n", grid.size() - differ, grid.size()));
        for (DecisionGrid.Outcome o : grid) {
            if (!o.equal()) {
                md.append("- `")
                        .append(o.name())
                        .append("` (")
                        .append(o.what())
                        .append("): ")
                        .append(o.why())
                        .append(".\n");
            }
        }
        List<DecisionGrid.Outcome> unexpected =
                grid.stream().filter(o -> !o.expected()).toList();
        if (!unexpected.isEmpty()) {
            md.append("\n**Answers other than expected:** ");
            md.append(String.join(
                    ", ", unexpected.stream().map(o -> "`" + o.name() + "`").toList()));
            md.append(" (the explanation above is what was expected; the answers are what the kernel gave).\n");
        }
        return md.toString();
    }

    private static String caveats() {
        return """
                ## What to keep in mind

                - Landlock decides on the file reached (where it sits in the hierarchy), the broker on the name \
                (resolved beneath in/) and then on what it found (a regular file with one link). Neither sees \
                the other's facts: a hard link planted in in/ widens Landlock, a name through `..` or an absolute \
                link narrows the broker.
                - Landlock costs nothing a round trip costs: no other thread, no context switch. Its cost grows \
                with the depth of the file (it walks from the file up to the root checking each directory) and \
                is paid by every open the confined process makes, of any file.
                - What Landlock does not confine: `stat` and path lookup (no right for attributes in any ABI so \
                far); descriptors the child already holds, such as the one a BROKER answer injects (checked at \
                open time, in the supervisor, which Landlock does not confine); on a kernel whose ABI lacks a \
                right, that right (refused here unless best effort was asked for).
                - CONTINUE rows measure the round trip and decide nothing: the kernel then opens as the child \
                would, so a refused name is refused only where Landlock is also installed (`broker + landlock`).
                - The child runs as root: ownership and mode decide nothing for it, under either policy.
                - Figures are medians over fresh children, floor-cost's method, on a shared 2-core VM: an \
                interval that crosses zero is no cost that can be told from noise.
                """;
    }

    static String ns(Long v) {
        return v == null ? "—" : String.format(Locale.ROOT, "%,d", v);
    }

    static String add(Long v) {
        return v == null ? "—" : String.format(Locale.ROOT, "%+,d", v);
    }
}
