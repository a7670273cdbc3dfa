package heimdall.lab.reproduce.floorcost;

import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.MarkdownTable;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.Intervals;
import heimdall.lab.stats.OrderStatistics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * floor-cost's paired round trips (issue 32): the kernel's notify loop and the two supervisors answering
 * {@code CONTINUE}, measured in rounds that alternate them on ONE filter, so that their ratio is judged on
 * what differs between them, the loop in user space, and nothing else.
 *
 * <p>Why: the main table's brokered rows run their profile's filter and are measured seven runs a row, each
 * run a fresh child, interleaved over the whole table; on this kind of host one row's run medians spread over
 * 10–20% from child to child and over minutes, far more than the 5% the goal judges. Here each placement and
 * wake-up is a group of four variants (the {@code openat} alone, then trapped and answered by the loop, the
 * native supervisor and the Java one, each a fresh child under the loop's one-rule program) measured back to
 * back, round after round, the order rotated each round; a round's ratio is a supervisor's round trip over the
 * loop's, both less that round's {@code openat} alone. The rounds' ratios are independent observations of the
 * same figure: their median, and its distribution-free interval ({@link OrderStatistics}), judge the goal.
 * Many short runs rather than few long ones, since the noise is between children, not within one.
 */
public final class PairedRoundTrips {
    private PairedRoundTrips() {}

    /** The label of the supervisors' rows: their calls trapped by the loop's own program. */
    static final String SUPERVISED = FloorCostRow.PAIRED + "supervisor, the loop's filter";

    /** Rounds per group for a table of {@code runs} runs a row: three times as many, shorter ones. */
    static final int ROUNDS_PER_RUN = 3;

    /** A round's calls: this fraction of a brokered row's timed calls (its warm-up: half a row's). */
    static final int CALLS_DIVISOR = 4;

    /** How much each paired child measures: {@link #ROUNDS_PER_RUN} times the runs, shorter runs. */
    static FloorBench.Counts counts(FloorBench.Counts c) {
        return new FloorBench.Counts(
                c.runs() * ROUNDS_PER_RUN,
                c.warmup(),
                c.count(),
                Math.max(1, c.brokerWarmup() / 2),
                Math.max(1, c.brokerCount() / CALLS_DIVISOR));
    }

    /** Whether {@code row} belongs to the paired rounds. */
    static boolean isPaired(FloorRow row) {
        return SUPERVISED.equals(row.what()) || FloorRow.PAIRED_LOOP.equals(row.what());
    }

    /** Whether summary row {@code r} belongs to the paired rounds. */
    static boolean isPaired(FloorCostRow r) {
        return r.paired();
    }

    /**
     * The paired rows, a group of three after another (the loop, the native supervisor, the Java one), for each
     * placement of the brokered rows with the synchronous wake-up off and on, all on {@code openat}'s loop filter.
     */
    static List<FloorRow> rows(List<FloorRow.Brokering> placements, Call openat) {
        Floor loopFilter = NotifyLoopFloor.floor(openat);
        List<FloorRow> rows = new ArrayList<>();
        for (FloorRow.Brokering p : placements) {
            rows.add(new FloorRow(FloorRow.PAIRED_LOOP, loopFilter, openat, p, null));
            for (Supervisor.Kind kind : Supervisor.Kind.values()) {
                rows.add(new FloorRow(
                        SUPERVISED,
                        loopFilter,
                        openat,
                        new FloorRow.Brokering(
                                kind, Answer.CONTINUE, p.placement(), p.supervisorCpu(), p.syncWakeUp(), p.cpuSet()),
                        null));
            }
        }
        return rows;
    }

    /** {@code rows}' paired rows cut into their groups (each measured on its own, its rounds back to back). */
    static List<List<FloorRow>> groups(List<FloorRow> rows) {
        List<FloorRow> paired = rows.stream().filter(PairedRoundTrips::isPaired).toList();
        int size = 1 + Supervisor.Kind.values().length;
        List<List<FloorRow>> out = new ArrayList<>();
        for (int i = 0; i < paired.size(); i += size) {
            out.add(paired.subList(i, Math.min(paired.size(), i + size)));
        }
        return out;
    }

    /**
     * One supervisor's paired figure.
     *
     * @param row the supervisor's row
     * @param loop the loop's row of the same group
     * @param perRound each complete round's ratio, in round order
     * @param ratio their median with its interval, or null with no complete round
     */
    public record Paired(FloorCostRow row, FloorCostRow loop, double[] perRound, Interval ratio) {
        /** The goal for this supervisor: {@link NotifyLoopFloor#NATIVE_GOAL} or {@link NotifyLoopFloor#JAVA_GOAL}. */
        public double goal() {
            return "java".equals(row.supervisor()) ? NotifyLoopFloor.JAVA_GOAL : NotifyLoopFloor.NATIVE_GOAL;
        }
    }

    /** Each paired supervisor row of {@code summary} against the loop of its group. */
    public static List<Paired> pairs(List<FloorCostRow> summary) {
        List<Paired> out = new ArrayList<>();
        for (FloorCostRow r : summary) {
            if (!SUPERVISED.equals(r.what())) {
                continue;
            }
            FloorCostRow loop = summary.stream()
                    .filter(l -> FloorRow.PAIRED_LOOP.equals(l.what())
                            && Objects.equals(l.placement(), r.placement())
                            && Boolean.TRUE.equals(l.syncWakeup()) == Boolean.TRUE.equals(r.syncWakeup()))
                    .findFirst()
                    .orElse(null);
            double[] perRound = loop == null ? new double[0] : perRound(summary, r, loop);
            Interval ratio = perRound.length == 0
                    ? null
                    : OrderStatistics.forQuantile(
                            perRound, 0.5, Intervals.LEVEL, median(perRound), OrderStatistics.METHOD);
            out.add(new Paired(r, loop, perRound, ratio));
        }
        return out;
    }

    /**
     * Round i's ratio: the row's run median less the baseline's, over the loop's less the baseline's, for each
     * round all three completed (a round whose loop did not take longer than the call alone has none).
     */
    static double[] perRound(List<FloorCostRow> summary, FloorCostRow r, FloorCostRow loop) {
        List<Long> base = baseline(summary, loop);
        List<Long> rows = r.filtered().runMediansNs();
        List<Long> loops = loop.filtered().runMediansNs();
        if (base == null || rows == null || loops == null) {
            return new double[0];
        }
        int n = Math.min(base.size(), Math.min(rows.size(), loops.size()));
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long floor = loops.get(i) - base.get(i);
            if (floor > 0) {
                out.add((rows.get(i) - base.get(i)) / (double) floor);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The run medians of the {@code openat} alone measured in {@code loop}'s rounds, or null. */
    private static List<Long> baseline(List<FloorCostRow> summary, FloorCostRow loop) {
        Long at = loop.baselineRow();
        if (at == null || at < 0 || at >= summary.size()) {
            return null;
        }
        return summary.get(at.intValue()).unfiltered().runMediansNs();
    }

    /** The median of values (the lower middle of an even count, as a nearest-rank median). */
    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    /** The table's section on the paired rounds; empty for a folder without them. */
    static String section(List<FloorCostRow> summary) {
        List<Paired> pairs = pairs(summary);
        if (pairs.isEmpty()) {
            return "";
        }
        FloorCostRow any = pairs.get(0).row();
        long calls = any.runsCompleted() == null
                        || any.runsCompleted() == 0
                        || any.filtered().samples() == null
                ? 0
                : any.filtered().samples() / any.runsCompleted();
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "%nPaired round trips: the loop and each supervisor on ONE filter (the loop's one-rule program on "
                        + "`openat`), in rounds of four fresh children measured back to back (the `openat` alone, "
                        + "then answered by the loop, the native supervisor and the Java one; the order rotated "
                        + "each round), %d rounds of %,d timed calls a child. A round's ratio is a supervisor's "
                        + "round trip over the loop's, each its run median less the round's `openat` alone; the "
                        + "figure is the median of the rounds' ratios, its interval distribution-free over the "
                        + "rounds (%s). This judges the issue's goals on what differs between the two, the loop in "
                        + "user space; the main table's rows also differ in their filter and are far apart in "
                        + "time.%n%n",
                any.runsAsked() == null ? 0 : any.runsAsked(),
                calls,
                OrderStatistics.METHOD));
        MarkdownTable t = new MarkdownTable(List.of(
                "supervisor",
                "placement",
                "sync wake-up",
                "loop's round trip",
                "supervisor's round trip",
                "rounds",
                "ratio, median of rounds",
                "ratio [CI]",
                "goal",
                "verdict"));
        for (Paired p : pairs) {
            FloorCostRow r = p.row();
            t.row(List.of(
                    r.supervisor(),
                    r.placement(),
                    Boolean.TRUE.equals(r.syncWakeup()) ? "on" : "off",
                    p.loop() == null || p.loop().addedNs() == null
                            ? "—"
                            : MarkdownTable.added(p.loop().addedNs()),
                    r.addedNs() == null ? "—" : MarkdownTable.added(r.addedNs()),
                    String.valueOf(p.perRound().length),
                    p.ratio() == null
                            ? "—"
                            : String.format(Locale.ROOT, "%.3f×", p.ratio().estimate()),
                    p.ratio() == null ? "—" : interval(p.ratio()),
                    String.format(Locale.ROOT, "≤ %.2f×", p.goal()),
                    verdict(p)));
        }
        md.append(t.render()).append('\n');
        List<String> below = pairs.stream()
                .filter(p -> p.ratio() != null && p.ratio().estimate() < 1.0)
                .map(PairedRoundTrips::whyBelow)
                .toList();
        if (!below.isEmpty()) {
            md.append("\nBelow the loop at the median of the rounds:\n\n");
            below.forEach(b -> md.append(b).append('\n'));
        }
        return md.toString();
    }

    /**
     * Why a supervisor came out below the loop it is paired with: both serve the same filter, child and call, so
     * the only difference is the loop in user space; the rounds' interval says whether they tell the two apart.
     */
    static String whyBelow(Paired p) {
        Interval i = p.ratio();
        String what = String.format(
                Locale.ROOT,
                "- %s supervisor, %s%s: %.3f× [%.3f, %.3f]× the loop: ",
                p.row().supervisor(),
                p.row().placement(),
                Boolean.TRUE.equals(p.row().syncWakeup()) ? ", sync wake-up" : "",
                i.estimate(),
                i.low(),
                i.high());
        return what
                + (i.high() >= 1.0
                        ? "the interval holds 1.0, so the rounds do not tell the two apart: the same filter, child "
                                + "and call, a loop that does a little more work per call, and a difference inside "
                                + "the rounds' noise."
                        : "the whole interval is below 1.0, beyond the rounds' noise: this run does not say why "
                                + "(the two loops make the same two calls per round trip).");
    }

    /** {@code [low, high]×}, and the coverage where the rounds could not reach the level asked. */
    private static String interval(Interval i) {
        return String.format(Locale.ROOT, "[%.3f, %.3f]×", i.low(), i.high())
                + (i.reached() ? "" : String.format(Locale.ROOT, " (%.0f%% coverage)", 100 * i.confidence()));
    }

    /**
     * "met" at the median and beyond the interval's top; "met at the median" when the interval reaches past the
     * goal; "not met at the median" when its bottom is below the goal; "not met" when the whole interval is above.
     */
    public static String verdict(Paired p) {
        Interval i = p.ratio();
        if (i == null) {
            return "no complete round";
        }
        double goal = p.goal();
        if (i.high() <= goal) {
            return "met";
        }
        if (i.estimate() <= goal) {
            return "met at the median; the interval reaches past the goal";
        }
        return i.low() <= goal ? "not met at the median; the interval reaches below the goal" : "not met";
    }
}
