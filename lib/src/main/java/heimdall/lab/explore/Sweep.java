package heimdall.lab.explore;

import heimdall.lab.Refusal;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.bpf.Verdict;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.stats.Interval;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * A floor swept: every call it allows, each way its rules can be reached, measured under the floor
 * and with no filter (interleaved, run by run), ranked by the cost the floor adds, shown with its
 * interval over the runs ({@link Row#addedCi()}); beside each, the
 * instructions the floor runs for it and whether the kernel's action cache answers it. A call the
 * sweep does not make says why ({@link SweepSafety}); a way the floor denies says its answer.
 */
public final class Sweep implements Displayable {
    /**
     * One way of one call.
     *
     * @param sweepCase the call, its arguments and the rule they reach
     * @param answer the floor's answer to them ({@code ALLOW}, {@code ERRNO(1)})
     * @param insns BPF instructions the floor runs for them
     * @param cacheable whether the kernel answers the call from its action cache
     * @param status {@code measured}, {@code refused}, {@code denied}, {@code failed} or {@code not reached}
     * @param reason why it was not measured (null when it was)
     * @param under the call under the floor (null when not measured)
     * @param baseline the call with no filter (null when not measured)
     */
    public record Row(
            SweepCase sweepCase,
            String answer,
            long insns,
            boolean cacheable,
            String status,
            String reason,
            Measurement under,
            Measurement baseline) {
        /** Median under the floor minus the median without, ns; null when not measured. */
        public Long addedNs() {
            return under == null ? null : under.median() - baseline.median();
        }

        /** What under adds over the baseline; null when not measured. */
        public Added added() {
            return under == null ? null : under.addedOver(baseline);
        }

        /**
         * The 95% interval of {@link #addedNs()} over the runs ({@link Added#ci()}); null when not
         * measured. With the quick sweep's single run a way it is a point that covers nothing, and says
         * so ({@code only 0% over 1 runs}): {@code sweep(runs, calls)} with 6 runs or more reaches 95%.
         */
        public Interval addedCi() {
            return under == null ? null : added().ci();
        }
    }

    private final FloorView floor;
    private final List<Row> rows;
    private final boolean interrupted;
    private final double seconds;
    private final int runs;
    private final long calls;

    private Sweep(FloorView floor, List<Row> rows, boolean interrupted, double seconds, int runs, long calls) {
        this.floor = floor;
        this.rows = List.copyOf(rows);
        this.interrupted = interrupted;
        this.seconds = seconds;
        this.runs = runs;
        this.calls = calls;
    }

    /**
     * Sweeps {@code floor}: see the class comment. {@code progress} hears one line a call measured.
     * A stop (Ctrl-C, a notebook interrupt) ends the sweep: what was measured is kept, the rest marked
     * {@code not reached}, the sweep {@link #interrupted()}.
     */
    static Sweep run(FloorView floor, int runs, long warmup, long calls, Consumer<String> progress) {
        long t0 = System.nanoTime();
        SyscallTable table = SyscallTable.x86_64();
        List<Row> out = new ArrayList<>();
        boolean stopped = false;
        for (SweepCase c : SweepCase.of(floor.profile(), table)) {
            Verdict v = floor.floor().verdict(SeccompData.x86_64(c.nr(), c.args()));
            boolean argRuled = !c.reached().equals("bare rule") && !c.reached().startsWith("default (no rule names");
            if (!v.allows() && !argRuled) {
                continue; // not a call the floor allows
            }
            String answer = Action.describe(v.action());
            long insns = v.insnsExecuted();
            boolean cacheable = floor.floor().cacheable(c.nr());
            if (!v.allows()) {
                out.add(new Row(c, answer, insns, cacheable, "denied", "the floor answers " + answer, null, null));
                continue;
            }
            var refusal = SweepSafety.refusal(c);
            if (refusal.isPresent()) {
                out.add(new Row(c, answer, insns, cacheable, "refused", refusal.get(), null, null));
                continue;
            }
            if (stopped) {
                out.add(new Row(c, answer, insns, cacheable, "not reached", "the sweep was stopped", null, null));
                continue;
            }
            Measure none = Lab.measure(Calls.numbered(c.nr(), c.args()))
                    .runs(1)
                    .warmup(warmup)
                    .calls(calls);
            Measure under = Lab.measure(Calls.numbered(c.nr(), c.args()))
                    .under(floor)
                    .runs(1)
                    .warmup(warmup)
                    .calls(calls);
            try {
                Interleaved.Result r = Interleaved.run(
                        List.of(under, none),
                        List.of(c.label() + " under " + floor.name(), c.label()),
                        List.of(List.of(floor.name()), List.of()),
                        runs);
                stopped = r.interrupted();
                out.add(new Row(
                        c,
                        answer,
                        insns,
                        cacheable,
                        "measured",
                        null,
                        r.measurements().get(0),
                        r.measurements().get(1)));
                progress.accept(String.format(
                        Locale.ROOT,
                        "sweep %s: %s adds %,d ns",
                        floor.name(),
                        c.label(),
                        out.get(out.size() - 1).addedNs()));
            } catch (Interruption.Stopped e) {
                stopped = true;
                out.add(new Row(c, answer, insns, cacheable, "not reached", "the sweep was stopped", null, null));
            } catch (Refusal e) {
                out.add(new Row(c, answer, insns, cacheable, "failed", e.getMessage(), null, null));
            }
        }
        out.sort(Comparator.comparing((Row r) -> r.addedNs() == null)
                .thenComparing((Row r) -> r.addedNs() == null ? 0 : -r.addedNs()));
        return new Sweep(floor, out, stopped, (System.nanoTime() - t0) / 1e9, runs, calls);
    }

    /** Every row, measured ones first, by added cost, highest first. */
    public List<Row> rows() {
        return rows;
    }

    /** The measured rows, by added cost, highest first. */
    public List<Row> measured() {
        return rows.stream().filter(r -> r.under() != null).toList();
    }

    /** The floor swept. */
    public FloorView floor() {
        return floor;
    }

    /** Whether a stop ended the sweep before every call was measured. */
    public boolean interrupted() {
        return interrupted;
    }

    /** Wall time of the sweep, seconds. */
    public double seconds() {
        return seconds;
    }

    /**
     * One row a way of a call: rank, call, rule reached, answer, instructions, cache, medians, added with
     * its interval (low, high and the coverage the runs give), why not.
     */
    public Table table() {
        IntColumn rank = IntColumn.create("rank");
        StringColumn call = StringColumn.create("call");
        StringColumn reached = StringColumn.create("reached");
        StringColumn answer = StringColumn.create("answer");
        LongColumn insns = LongColumn.create("insns");
        BooleanColumn cache = BooleanColumn.create("cacheable");
        LongColumn none = LongColumn.create("median_none_ns");
        LongColumn under = LongColumn.create("median_ns");
        LongColumn added = LongColumn.create("added_ns");
        DoubleColumn addedLow = DoubleColumn.create("added_low_ns");
        DoubleColumn addedHigh = DoubleColumn.create("added_high_ns");
        DoubleColumn addedCoverage = DoubleColumn.create("added_confidence");
        StringColumn status = StringColumn.create("status");
        int n = 0;
        for (Row r : rows) {
            if (r.under() != null) {
                rank.append(++n);
                none.append(r.baseline().median());
                under.append(r.under().median());
                added.append(r.addedNs());
                Interval ci = r.addedCi();
                addedLow.append(ci.low());
                addedHigh.append(ci.high());
                addedCoverage.append(Math.round(ci.confidence() * 1000) / 1000.0);
            } else {
                rank.appendMissing();
                none.appendMissing();
                under.appendMissing();
                added.appendMissing();
                addedLow.appendMissing();
                addedHigh.appendMissing();
                addedCoverage.appendMissing();
            }
            call.append(r.sweepCase().label());
            reached.append(r.sweepCase().reached());
            answer.append(r.answer());
            insns.append(r.insns());
            cache.append(r.cacheable());
            status.append(r.reason() == null ? r.status() : r.status() + ": " + r.reason());
        }
        return Table.create(
                "sweep: " + floor.name(),
                rank,
                call,
                reached,
                answer,
                insns,
                cache,
                none,
                under,
                added,
                addedLow,
                addedHigh,
                addedCoverage,
                status);
    }

    private long count(String status) {
        return rows.stream().filter(r -> r.status().equals(status)).count();
    }

    /** The headline: what was measured, refused and denied, the costliest call, the time taken. */
    @Override
    public Table headline() {
        List<Row> m = measured();
        Headline h = Headline.of("sweep: " + floor.name())
                .row(
                        "measured",
                        m.size() + " ways of "
                                + m.stream()
                                        .map(r -> r.sweepCase().call())
                                        .distinct()
                                        .count() + " calls" + (interrupted ? " (interrupted)" : ""))
                .row("refused", count("refused") + " (not made: see status)")
                .row("denied", count("denied") + " argument cases the floor denies")
                .row("failed", count("failed"));
        if (!m.isEmpty()) {
            Row top = m.get(0);
            h.row(
                    "costliest",
                    top.sweepCase().label() + ": " + Headline.ns(top.addedNs()) + ", " + top.insns() + " insns"
                            + (top.cacheable() ? ", cacheable" : ""),
                    top.addedCi());
            long[] added = m.stream().mapToLong(Row::addedNs).sorted().toArray();
            h.row("median added", Headline.ns(added[(added.length - 1) / 2]));
        }
        return h.row("counts", runs + " run(s) of " + Headline.count(calls) + " calls each way, interleaved")
                .row("time", String.format(Locale.ROOT, "%.1f s", seconds))
                .table();
    }

    /** The ranked table ({@link #table()}). */
    @Override
    public Table detail() {
        return table();
    }

    /** Added cost of the 30 costliest ways, a bar each; null when nothing was measured. */
    @Override
    public CategoryChart chart() {
        List<Row> m = measured().stream().limit(30).toList();
        if (m.isEmpty()) {
            return null;
        }
        CategoryChart chart = new CategoryChartBuilder()
                .width(Plots.WIDTH)
                .height(Plots.HEIGHT)
                .title("added cost by call: " + floor.name() + " (" + m.size() + " costliest; * cacheable)")
                .xAxisTitle("call")
                .yAxisTitle("added ns (median under − median without)")
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(60);
        chart.addSeries(
                "added ns",
                m.stream()
                        .map(r -> r.sweepCase().label() + (r.cacheable() ? " *" : ""))
                        .toList(),
                m.stream().map(Row::addedNs).toList());
        return chart;
    }

    /** The headline, one figure a line, and the first rows. */
    @Override
    public String toString() {
        return text();
    }
}
