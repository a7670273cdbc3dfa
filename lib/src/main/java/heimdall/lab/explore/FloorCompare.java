package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.analysis.Plots;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Two floors call by call: {@code Lab.compare(mine, podman).runs(8).calls("getppid", "personality")}.
 * Each call is measured under A, under B and with no filter, one run of each in turn, the order and
 * the code placement rotated turn by turn ({@code Interleaved}), so the machine's drift falls on all
 * three alike. Per call, B against A is judged as {@code ./lab compare} judges a row and as
 * {@link AB} judges two measurements: B/A with its interval, faster, slower or no difference beyond
 * noise by the Mann–Whitney U test over run medians and the threshold ({@link ChangeTest}).
 *
 * <p>Not thread-safe: a builder for one caller.
 */
public final class FloorCompare {
    private final FloorView a;
    private final FloorView b;
    private int runs = 3;
    private long calls = 20_000;
    private double threshold = ChangeTest.DEFAULT_THRESHOLD;

    FloorCompare(FloorView a, FloorView b) {
        if (a == null || b == null) {
            throw BadInput.at("compare", a == null ? "floorA" : "floorB", "no floor given");
        }
        this.a = a;
        this.b = b;
    }

    /**
     * Turns of A, B and none (1..100; default 3). The U test calls a change only with at least
     * {@link heimdall.lab.stats.MannWhitney#runsNeeded} turns (4 at 95%); fewer carry a warning.
     */
    public FloorCompare runs(int runs) {
        if (runs < 1 || runs > 100) {
            throw BadInput.at("compare", "runs", "must be 1..100, got " + runs);
        }
        this.runs = runs;
        return this;
    }

    /** The smallest change called slower or faster, a fraction in [0, 1) (default 0.05: 5%). */
    public FloorCompare threshold(double threshold) {
        if (!(threshold >= 0 && threshold < 1)) {
            throw BadInput.at("compare", "threshold", "a fraction from 0 to below 1 (0.05 for 5%), got " + threshold);
        }
        this.threshold = threshold;
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
            int nr = SyscallTable.x86_64()
                    .number(n == null ? "" : n.trim())
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
            Measure ma = Lab.measure(Calls.numbered(c.nr()))
                    .under(a)
                    .runs(1)
                    .warmup(warmup)
                    .calls(calls);
            Measure mb = Lab.measure(Calls.numbered(c.nr()))
                    .under(b)
                    .runs(1)
                    .warmup(warmup)
                    .calls(calls);
            Measure none =
                    Lab.measure(Calls.numbered(c.nr())).runs(1).warmup(warmup).calls(calls);
            Interleaved.Result r = Interleaved.run(
                    List.of(ma, mb, none),
                    List.of(c.call() + " under " + a.name(), c.call() + " under " + b.name(), c.call()),
                    List.of(List.of(a.name()), List.of(b.name()), List.of()),
                    runs);
            SeccompData d = SeccompData.x86_64(c.nr());
            rows.add(new Row(
                    c.call(),
                    a.floor().insns(d),
                    b.floor().insns(d),
                    a.floor().cacheable(c.nr()),
                    b.floor().cacheable(c.nr()),
                    r.measurements().get(0),
                    r.measurements().get(1),
                    r.measurements().get(2),
                    AB.change(r.measurements().get(0), r.measurements().get(1), threshold)));
            if (r.interrupted()) {
                interrupted = true;
                break;
            }
        }
        return new Result(a.name(), b.name(), rows, runs, calls, threshold, interrupted);
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
     * @param change B against A over the run medians ({@link AB}'s judgement), or null when no ratio can be formed
     */
    public record Row(
            String call,
            long insnsA,
            long insnsB,
            boolean cacheA,
            boolean cacheB,
            Measurement underA,
            Measurement underB,
            Measurement none,
            ChangeTest.Change change) {
        /** Faster, slower or no difference beyond noise; null when not compared. */
        public Verdict verdict() {
            return change == null ? null : change.verdict();
        }

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
     * @param threshold the threshold the verdicts used
     * @param interrupted whether a stop ended it before every call was measured
     */
    public record Result(
            String nameA, String nameB, List<Row> rows, int runs, long calls, double threshold, boolean interrupted)
            implements Displayable {
        public Result {
            rows = List.copyOf(rows);
        }

        /**
         * One row a call: instructions and cache under each floor, the medians, the added costs, B − A,
         * and B against A: B/A with its interval, the U test's p and the verdict.
         */
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
            DoubleColumn ratio = DoubleColumn.create("b_over_a");
            DoubleColumn low = DoubleColumn.create("b_over_a_low");
            DoubleColumn high = DoubleColumn.create("b_over_a_high");
            DoubleColumn p = DoubleColumn.create("p_value");
            StringColumn verdict = StringColumn.create("verdict");
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
                if (r.change() == null) {
                    ratio.appendMissing();
                    low.appendMissing();
                    high.appendMissing();
                    p.appendMissing();
                } else {
                    ratio.append(round(r.change().ratio().estimate()));
                    low.append(round(r.change().ratio().low()));
                    high.append(round(r.change().ratio().high()));
                    p.append(Math.round(r.change().p() * 10_000) / 10_000.0);
                }
                verdict.append(AB.verdictText(r.change()));
            }
            return Table.create(
                    "A = " + nameA + ", B = " + nameB,
                    call,
                    insnsA,
                    insnsB,
                    cacheA,
                    cacheB,
                    none,
                    addedA,
                    addedB,
                    diff,
                    ratio,
                    low,
                    high,
                    p,
                    verdict);
        }

        private static double round(double v) {
            return Math.round(v * 1000) / 1000.0;
        }

        /** The calls whose verdict is {@code v}, in the order measured. */
        public List<String> calls(Verdict v) {
            return rows.stream().filter(r -> r.verdict() == v).map(Row::call).toList();
        }

        /** The headline: the floors, the calls, the verdicts counted and how, where B differs most from A. */
        @Override
        public Table headline() {
            Headline h = Headline.of("compare: " + nameA + " vs " + nameB)
                    .row("A", nameA)
                    .row("B", nameB)
                    .row("calls", rows.size() + (interrupted ? " (interrupted)" : ""))
                    .row(
                            "counts",
                            runs + " interleaved turns (A B none, order rotated) of " + Headline.count(calls)
                                    + " calls")
                    .row(
                            "verdicts",
                            String.format(
                                    Locale.ROOT,
                                    "%d slower, %d faster, %d no difference beyond noise",
                                    calls(Verdict.SLOWER).size(),
                                    calls(Verdict.FASTER).size(),
                                    calls(Verdict.NO_DIFFERENCE).size()))
                    .row("test", AB.method(threshold));
            for (Row r : rows) {
                if (r.verdict() == Verdict.SLOWER || r.verdict() == Verdict.FASTER) {
                    h.row(
                            r.call(),
                            r.verdict().text() + ": B/A "
                                    + Headline.ratio(r.change().ratio().estimate()),
                            AB.ratioInterval(r.change()));
                }
            }
            rows.stream()
                    .map(Row::change)
                    .filter(ch -> ch != null && ch.warning() != null)
                    .findFirst()
                    .ifPresent(ch -> h.row("warning", ch.warning()));
            rows.stream()
                    .max(Comparator.comparingLong(r -> Math.abs(r.bMinusA())))
                    .ifPresent(r -> h.row(
                            "largest difference",
                            String.format(
                                    Locale.ROOT,
                                    "%s: B − A = %,d ns (%d vs %d insns)",
                                    r.call(),
                                    r.bMinusA(),
                                    r.insnsB(),
                                    r.insnsA())));
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
            CategoryChart chart = new CategoryChartBuilder()
                    .width(Plots.WIDTH)
                    .height(Plots.HEIGHT)
                    .title("added cost by call: A vs B")
                    .xAxisTitle("call")
                    .yAxisTitle("added ns")
                    .build();
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
