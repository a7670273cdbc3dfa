package heimdall.lab.reproduce.kernelbitmap;

import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.AGREEMENT;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.METHODS;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.SELFTESTS_METHOD;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.SELFTEST_PER_CALL;

import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.EstimateRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.ExpectationRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Loop;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Method;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Options;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Runs;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.sys.Host;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kernel-bitmap's {@code table.md}: every method side by side, the estimates against the selftest's method, the
 * expectations under both rules, the figures by code placement and the selftest's own printout. Its own class
 * because the table is made from a run's rows and settings alone (nothing is measured or read here), so a
 * committed folder redraws it.
 */
final class KernelBitmapTable {
    private KernelBitmapTable() {}

    /** {@code table.md}: every method side by side, the published figures beside them, and the selftest's printout. */
    static String of(Recorded<KernelBitmapRow, KernelBitmapSettings> run) {
        List<KernelBitmapRow> summary = run.rows();
        Host host = run.host();
        Options o = run.settings().options();
        List<KernelBitmapRow.Configuration> configurations = summary.stream()
                .filter(r -> r instanceof KernelBitmapRow.Configuration)
                .map(r -> (KernelBitmapRow.Configuration) r)
                .toList();
        MethodEstimates m = estimated(configurations);
        StringBuilder md = new StringBuilder("# kernel-bitmap: the selftest's bitmap vs filter overhead\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Host: %s (%d CPUs), kernel %s, clocksource %s, BPF JIT %s; CPU %d; load average %s. "
                        + "Two loops: the bare loop (a syscall instruction inlined in the loop) and the selftest "
                        + "loop (glibc's "
                        + "syscall(__NR_getpid), each result compared with the pid). Per call: %d runs a "
                        + "configuration and loop, "
                        + "%,d warm-up + %,d calls each timed alone with CLOCK_MONOTONIC (timer cost %d ns, in every "
                        + "per-call figure); "
                        + "batch: %d runs a configuration, loop and clock, %,d calls each timed as a whole with "
                        + "CLOCK_MONOTONIC or "
                        + "CLOCK_PROCESS_CPUTIME_ID. The selftest's method is its loop, batch, "
                        + "CLOCK_PROCESS_CPUTIME_ID. "
                        + "Every run is a fresh child; rounds interleave all configurations and methods and rotate "
                        + "the timed loop's "
                        + "code placement. Published: `sudo ./seccomp_benchmark 100000000`, x86, 2020-09-24.%n%n",
                host.cpuModel(),
                host.onlineCpus(),
                host.kernelRelease(),
                host.clocksource(),
                host.bpfJit().get("net.core.bpf_jit_enable"),
                o.cpu(),
                loadRange(run.settings().loadPerRound()),
                o.runs(),
                o.warmup(),
                o.perCallCount(),
                run.settings().timerCostNs(),
                o.batchRuns(),
                o.batchCount()));
        md.append("Each cell: the median run's ns per call; in brackets the spread of the runs ((max − min) / median), "
                + "marked NOISY over 25%.\n\n");
        List<String> head = new ArrayList<>(List.of("configuration", "cache"));
        METHODS.forEach(x -> head.add(x.label()));
        head.add("published");
        MarkdownTable t = new MarkdownTable(head);
        for (KernelBitmapRow.Configuration c : configurations) {
            List<String> row = new ArrayList<>(
                    List.of(c.what(), c.filters() == 0 ? "—" : Boolean.TRUE.equals(c.cache()) ? "yes" : "no"));
            for (Method x : METHODS) {
                Runs r = runsOf(c, x);
                row.add(String.format(
                        Locale.ROOT, "%d ns (%.0f%%%s)", r.figure(), r.spread() * 100, r.noisy() ? " NOISY" : ""));
            }
            row.add(c.publishedNs() + " ns");
            t.row(row);
        }
        md.append(t.render()).append('\n');
        md.append(intervalTable(summary));
        List<String> eh = new ArrayList<>(List.of("estimate"));
        METHODS.forEach(x -> eh.add(x.label()));
        eh.add("published");
        MarkdownTable e = new MarkdownTable(eh);
        for (EstimateRow r : m.estimateRows()) {
            List<String> row = new ArrayList<>(List.of(r.label()));
            for (Method x : METHODS) {
                Double d = r.vsSelftest().get(x);
                String cmp = d == null
                        ? ""
                        : " (" + (d.isInfinite() ? "∞" : String.format(Locale.ROOT, "%.0f%%", d * 100))
                                + (d <= AGREEMENT ? " ✔" : " ✘") + ")";
                row.add(r.ns().get(x) + " ns" + cmp);
            }
            row.add(r.publishedNs() == null ? "—" : r.publishedNs() + " ns");
            e.row(row);
        }
        md.append("Estimates, the median over the rounds. In brackets for the entry and per-filter estimates: the "
                + "difference "
                + "from the selftest's method (last column but one), ✔ within 20%.\n\n");
        md.append(e.render()).append('\n');
        md.append(String.format(
                Locale.ROOT,
                "The selftest loop timed per call, entry and per-filter estimates vs the selftest's method: %s.",
                m.methodsAgree() ? "within 20%" : "NOT all within 20%"));
        for (Method mm : METHODS) {
            if (!mm.equals(SELFTESTS_METHOD) && !mm.equals(SELFTEST_PER_CALL)) {
                md.append(String.format(
                        Locale.ROOT,
                        " %s: %s.",
                        mm.label(),
                        m.agreesWithTheSelftest(mm) ? "within 20%" : "NOT all within 20%"));
            }
        }
        md.append(" A wall-clock batch (CLOCK_MONOTONIC) counts the time the runner waits for its CPU; on a busy host "
                + "it is the "
                + "noisiest method (see its spread).\n\n");
        List<String> xh = new ArrayList<>(List.of("expectation"));
        METHODS.forEach(x -> xh.add(x.label()));
        xh.add("published");
        MarkdownTable x = new MarkdownTable(xh);
        for (ExpectationRow r : m.expectationRows()) {
            List<String> row = new ArrayList<>(List.of(r.check()));
            for (Method mm : METHODS) {
                row.add(cell(r.verdicts().get(mm)));
            }
            row.add(r.publishedOk() == null ? "—" : r.publishedOk() ? "✔" : "✘");
            x.row(row);
        }
        md.append("Expectations: each cell gives the values, then the verdict by the 2020 selftest's rules (≈ within "
                + "1% or 2 ns, "
                + "the version that printed the published output) and by the later selftest's (≈ within 10% "
                + "or 2 ns).\n\n");
        md.append(x.render()).append('\n');
        for (Loop loop : Loop.values()) {
            md.append("By code placement of the timed loop (16-byte steps within a 64-byte line), ")
                    .append(loop.label())
                    .append(" (")
                    .append(loop.how())
                    .append("): per call | batch, CLOCK_MONOTONIC | batch, CLOCK_PROCESS_CPUTIME_ID:\n\n");
            List<String> ph = new ArrayList<>(List.of("configuration"));
            for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                ph.add("placement " + p);
            }
            MarkdownTable pt = new MarkdownTable(ph);
            for (KernelBitmapRow.Configuration c : configurations) {
                List<String> row = new ArrayList<>(List.of(c.what()));
                List<List<Long>> by = METHODS.stream()
                        .filter(mm -> mm.loop() == loop)
                        .map(mm -> byPlacement(c, mm))
                        .toList();
                for (int p = 0; p < ChildSpec.PLACEMENTS; p++) {
                    int at = p;
                    row.add(String.join(
                            " | ",
                            by.stream()
                                    .map(l -> l.get(at) == null ? "—" : l.get(at) + " ns")
                                    .toList()));
                }
                pt.row(row);
            }
            md.append(pt.render()).append('\n');
        }
        md.append(String.format(
                Locale.ROOT,
                "Every figure is a median. A configuration's figure is its median run's (per call, "
                        + "each run's median interpolated within the clock's step: %d ns here, and a plain median "
                        + "moves in whole steps, which is "
                        + "most of a 20 ns estimate). Each estimate is taken round by round, from runs measured "
                        + "moments apart, and the median "
                        + "over the rounds is given: the host's slow spells then lift both sides of a difference "
                        + "instead of one. Where the "
                        + "timed loop sits in its code lines moves a per-call figure by up to tens of ns (the tables "
                        + "above), so the rounds "
                        + "rotate it through four placements. Every run is in summary.json.%n%n",
                configurations.get(0).clockStepNs()));
        for (Method mm : List.of(METHODS.get(0), SELFTESTS_METHOD)) {
            md.append("As the selftest prints them, ")
                    .append(mm.label())
                    .append(". The configuration lines are not measured runs: "
                            + "native is the median over the rounds, each filtered line the native median plus that "
                            + "configuration's median "
                            + "overhead over the rounds (so that the lines' differences are the totals); estimates "
                            + "are medians over the "
                            + "rounds; expectations by the later selftest's rules (≈ within 10% or 2 ns):\n\n```\n");
            m.estimates(mm).lines().forEach(l -> md.append(l).append('\n'));
            md.append("```\n\n");
        }
        md.append("Verdicts describe this host; a per-call median includes the timer's two reads, which cancel in "
                + "every difference.\n");
        return md.toString();
    }

    /** The estimates as the run made them, from the run figures its configuration rows hold. */
    static MethodEstimates estimated(List<KernelBitmapRow.Configuration> configurations) {
        return MethodEstimates.of(
                x -> configurations.stream().map(c -> runsOf(c, x).nsPerCall()).toList());
    }

    /** {@code c}'s runs of {@code x} as its row holds them: each run's figure and placement (no samples). */
    static Runs runsOf(KernelBitmapRow.Configuration c, Method x) {
        KernelBitmapRow.LoopFigures f =
                c.of(KernelBitmapRow.Loop.valueOf(x.loop().name()));
        List<Long> figures;
        List<Long> placements;
        switch (x.timing()) {
            case PER_CALL -> {
                figures = f.perCall().runMediansInterpolatedNs();
                placements = f.perCall().runPlacements();
            }
            case BATCH_MONOTONIC -> {
                figures = f.monotonic().runNsPerCall();
                placements = f.monotonic().runPlacements();
            }
            default -> {
                figures = f.cputime().runNsPerCall();
                placements = f.cputime().runPlacements();
            }
        }
        return new Runs(figures, placements.stream().map(Long::intValue).toList(), List.of(), List.of());
    }

    /** {@code c}'s figure of {@code x} at each code placement, as its row holds them. */
    private static List<Long> byPlacement(KernelBitmapRow.Configuration c, Method x) {
        KernelBitmapRow.LoopFigures f =
                c.of(KernelBitmapRow.Loop.valueOf(x.loop().name()));
        return switch (x.timing()) {
            case PER_CALL -> f.perCall().nsByPlacement();
            case BATCH_MONOTONIC -> f.monotonic().nsPerCallByPlacement();
            case BATCH_CPUTIME -> f.cputime().nsPerCallByPlacement();
        };
    }

    /**
     * The configurations' intervals, a line a configuration and loop: the per-call median, p99 and added
     * cost (over all samples) with theirs, and each batch clock's interval, as summary.json has them.
     */
    static String intervalTable(List<KernelBitmapRow> summary) {
        MarkdownTable t = new MarkdownTable(List.of(
                "configuration",
                "loop",
                "median",
                RowIntervals.heading("median"),
                "p99",
                RowIntervals.heading("p99"),
                "added",
                RowIntervals.heading("added"),
                RowIntervals.heading("batch, CLOCK_MONOTONIC"),
                RowIntervals.heading("batch, CLOCK_PROCESS_CPUTIME_ID")));
        for (KernelBitmapRow row : summary) {
            if (!(row instanceof KernelBitmapRow.Configuration c)) {
                continue;
            }
            for (KernelBitmapRow.Loop loop : KernelBitmapRow.Loop.values()) {
                KernelBitmapRow.PerCall f = c.of(loop).perCall();
                KernelBitmapRow.LoopIntervals i = c.intervals(loop);
                RowIntervals pc = i == null ? null : i.perCall();
                t.row(List.of(
                        c.what(),
                        Loop.valueOf(loop.name()).label(),
                        f.medianNs() == null ? "—" : MarkdownTable.ns(f.medianNs()),
                        pc == null ? "—" : RowIntervals.cell(pc.median()),
                        f.p99Ns() == null ? "—" : MarkdownTable.tail(f.p99Ns()),
                        pc == null ? "—" : RowIntervals.cell(pc.p99()),
                        i == null || i.addedNs() == null ? "—" : MarkdownTable.added(i.addedNs()),
                        pc == null ? "—" : RowIntervals.cell(pc.added()),
                        i == null ? "—" : RowIntervals.cell(i.monotonic()),
                        i == null ? "—" : RowIntervals.cell(i.cputime())));
            }
        }
        return "Intervals (ns, 95%), distribution-free: for the per-call median and p99 (over all samples), "
                + "order statistics over the runs' medians and p99s; for `added` (the median minus that of the "
                + "configuration with no filter, same loop), the Hodges–Lehmann shift of the two configurations' "
                + "run medians with its Mann–Whitney interval; for a batch clock, order statistics over the batch "
                + "runs' ns per call about the median run's. Where the runs are too few for 95% the coverage they "
                + "reach is given.\n\n"
                + t.render()
                + '\n';
    }

    private static String loadRange(List<Double> l) {
        if (l.isEmpty()) {
            return "—";
        }
        return String.format(
                Locale.ROOT,
                "%.2f to %.2f",
                l.stream().mapToDouble(Double::doubleValue).min().getAsDouble(),
                l.stream().mapToDouble(Double::doubleValue).max().getAsDouble());
    }

    /** {@code 26 ≈ 30: ✘ 2020 · ✔ later}, or {@code skipped} under both rules. */
    private static String cell(Map<BitmapEstimates.Rule, BitmapEstimates.Expectation> byRule) {
        BitmapEstimates.Expectation any = byRule.get(BitmapEstimates.Rule.LATER);
        StringBuilder b = new StringBuilder(any.a() + " " + any.op() + " " + any.b() + ":");
        byRule.forEach((rule, v) ->
                b.append(' ').append(v.verdict().mark()).append(' ').append(rule.key()));
        return b.toString();
    }
}
