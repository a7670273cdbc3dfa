package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Two floors call by call: {@code Lab.compare(mine, podman).runs(5).calls("getppid", "personality")}.
 * Each call is measured under A, under B and with no filter, one run of each in turn (A B none, A B
 * none, ...), so the machine's drift falls on all three alike.
 *
 * <p>Not thread-safe: a builder for one caller.
 */
public final class FloorCompare {
    private final FloorView a;
    private final FloorView b;
    private int runs = 3;
    private long calls = 20_000;

    FloorCompare(FloorView a, FloorView b) {
        if (a == null || b == null) {
            throw BadInput.at("compare", a == null ? "floorA" : "floorB", "no floor given");
        }
        this.a = a;
        this.b = b;
    }

    /** Turns of A, B and none (1..100; default 3). */
    public FloorCompare runs(int runs) {
        if (runs < 1 || runs > 100) {
            throw BadInput.at("compare", "runs", "must be 1..100, got " + runs);
        }
        this.runs = runs;
        return this;
    }

    /** Timed calls in each run (default 20,000). */
    public FloorCompare count(long calls) {
        if (calls < 1 || calls > 10_000_000) {
            throw BadInput.at("compare", "count", "must be 1..10,000,000, got " + calls);
        }
        this.calls = calls;
        return this;
    }

    /**
     * Measures each call (x86_64 names, zero arguments) under both floors and bare, interleaved.
     *
     * @throws BadInput for a name that is not an x86_64 call
     * @throws Refusal for a call the sweep does not make ({@link SweepSafety}), or one a floor does not allow
     */
    public Result calls(String... names) {
        if (names.length == 0) {
            throw BadInput.at("compare", "calls", "name at least one call");
        }
        List<SweepCase> cases = new ArrayList<>();
        for (String n : names) {
            int nr = SyscallTable.x86_64().number(n == null ? "" : n.trim())
                    .orElseThrow(() -> BadInput.at("compare", "calls", "'" + n + "' is not an x86_64 system call"));
            SweepCase c = new SweepCase(n.trim(), nr, new long[6], "zero arguments");
            SweepSafety.refusal(c).ifPresent(why -> {
                throw new Refusal("compare: " + n + ": " + why);
            });
            for (FloorView f : List.of(a, b)) {
                if (!f.floor().verdict(SeccompData.x86_64(nr)).allows()) {
                    throw new Refusal("compare: " + n + ": " + f.name() + " answers " + f.answer(n)
                            + "; only calls both floors allow are compared");
                }
            }
            cases.add(c);
        }
        List<Row> rows = new ArrayList<>();
        boolean interrupted = false;
        for (SweepCase c : cases) {
            long warmup = Math.min(1_000, calls);
            Measure ma = Lab.measure(Calls.numbered(c.nr())).under(a).runs(1).warmup(warmup).calls(calls);
            Measure mb = Lab.measure(Calls.numbered(c.nr())).under(b).runs(1).warmup(warmup).calls(calls);
            Measure none = Lab.measure(Calls.numbered(c.nr())).runs(1).warmup(warmup).calls(calls);
            Interleaved.Result r = Interleaved.run(List.of(ma, mb, none),
                    List.of(c.call() + " under " + a.name(), c.call() + " under " + b.name(), c.call()),
                    List.of(List.of(a.name()), List.of(b.name()), List.of()), runs);
            SeccompData d = SeccompData.x86_64(c.nr());
            rows.add(new Row(c.call(), a.floor().insns(d), b.floor().insns(d), a.floor().cacheable(c.nr()),
                    b.floor().cacheable(c.nr()), r.measurements().get(0), r.measurements().get(1),
                    r.measurements().get(2)));
            if (r.interrupted()) {
                interrupted = true;
                break;
            }
        }
        return new Result(a.name(), b.name(), rows, runs, calls, interrupted);
    }

    /**
     * One call under both floors.
     *
     * @param call the x86_64 name
     * @param insnsA instructions A runs for it
     * @param insnsB instructions B runs for it
     * @param cacheA whether the kernel caches A's answer
     * @param cacheB whether the kernel caches B's answer
     * @param underA the call under A
     * @param underB the call under B
     * @param none the call with no filter
     */
    public record Row(String call, long insnsA, long insnsB, boolean cacheA, boolean cacheB, Measurement underA,
            Measurement underB, Measurement none) {
        /** What A adds over no filter, ns. */
        public long addedA() {
            return underA.median() - none.median();
        }

        /** What B adds over no filter, ns. */
        public long addedB() {
            return underB.median() - none.median();
        }

        /** B's median minus A's, ns. */
        public long bMinusA() {
            return underB.median() - underA.median();
        }
    }

    /**
     * The comparison: a row a call.
     *
     * @param nameA floor A's name
     * @param nameB floor B's name
     * @param rows a row a call, in the order named
     * @param runs the turns asked
     * @param calls timed calls a run
     * @param interrupted whether a stop ended it before every call was measured
     */
    public record Result(String nameA, String nameB, List<Row> rows, int runs, long calls, boolean interrupted)
            implements Displayable {
        public Result {
            rows = List.copyOf(rows);
        }

        /** One row a call: instructions and cache under each floor, the medians, the added costs, B − A. */
        public Table table() {
            StringColumn call = StringColumn.create("call");
            LongColumn insnsA = LongColumn.create("insns_a");
            LongColumn insnsB = LongColumn.create("insns_b");
            BooleanColumn cacheA = BooleanColumn.create("cache_a");
            BooleanColumn cacheB = BooleanColumn.create("cache_b");
            LongColumn none = LongColumn.create("median_none_ns");
            LongColumn addedA = LongColumn.create("added_a_ns");
            LongColumn addedB = LongColumn.create("added_b_ns");
            LongColumn diff = LongColumn.create("b_minus_a_ns");
            for (Row r : rows) {
                call.append(r.call());
                insnsA.append(r.insnsA());
                insnsB.append(r.insnsB());
                cacheA.append(r.cacheA());
                cacheB.append(r.cacheB());
                none.append(r.none().median());
                addedA.append(r.addedA());
                addedB.append(r.addedB());
                diff.append(r.bMinusA());
            }
            return Table.create("A = " + nameA + ", B = " + nameB, call, insnsA, insnsB, cacheA, cacheB, none, addedA,
                    addedB, diff);
        }

        /** The headline: the floors, the calls, where B differs most from A. */
        @Override
        public Table headline() {
            Headline h = Headline.of("compare: " + nameA + " vs " + nameB)
                    .row("A", nameA)
                    .row("B", nameB)
                    .row("calls", rows.size() + (interrupted ? " (interrupted)" : ""))
                    .row("counts", runs + " interleaved turns (A B none) of " + Headline.count(calls) + " calls");
            rows.stream().max(java.util.Comparator.comparingLong(r -> Math.abs(r.bMinusA()))).ifPresent(r ->
                    h.row("largest difference", String.format(Locale.ROOT, "%s: B − A = %,d ns (%d vs %d insns)",
                            r.call(), r.bMinusA(), r.insnsB(), r.insnsA())));
            return h.table();
        }

        /** The per-call table ({@link #table()}). */
        @Override
        public Table detail() {
            return table();
        }

        /** Added cost by call, a bar for A and one for B. */
        @Override
        public CategoryChart chart() {
            CategoryChart chart = new CategoryChartBuilder().width(Plots.WIDTH).height(Plots.HEIGHT)
                    .title("added cost by call: A vs B").xAxisTitle("call").yAxisTitle("added ns").build();
            chart.getStyler().setXAxisLabelRotation(45);
            List<String> calls = rows.stream().map(Row::call).toList();
            chart.addSeries("A: " + nameA, calls, rows.stream().map(Row::addedA).toList());
            chart.addSeries("B: " + nameB, calls, rows.stream().map(Row::addedB).toList());
            return chart;
        }

        /** The headline, one figure a line, and a line a call. */
        @Override
        public String toString() {
            return text();
        }
    }
}
