package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Interruption;
import heimdall.lab.display.Displayable;
import heimdall.lab.display.Headline;
import heimdall.lab.floor.Floor;
import heimdall.lab.stats.ChangeTest;
import heimdall.lab.stats.Interval;
import heimdall.lab.stats.MannWhitney;
import heimdall.lab.stats.Verdict;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * Two measurements A/B in one run, interleaved run by run ({@code Interleaved}: the order and the
 * code placement rotated turn by turn), and B against A judged as {@code ./lab compare} judges two
 * folders ({@link ChangeTest}: B/A of the run medians with its interval, the Mann–Whitney U test over
 * run medians, the threshold):
 *
 * <pre>{@code
 * Lab.ab(Lab.measure("getppid").under(mine), Lab.measure("getppid").under(podman)).runs(8).run();
 * }</pre>
 *
 * <p>The builders given are copied as they are when {@link #run()} starts (call, floors, CPU, counts,
 * placement) and left unchanged. Not thread-safe: a builder for one caller.
 */
public final class AB {
    private final Measure a;
    private final Measure b;
    private Integer runs;
    private double threshold = ChangeTest.DEFAULT_THRESHOLD;

    AB(Measure a, Measure b) {
        if (a == null || b == null) {
            throw BadInput.at("ab", a == null ? "a" : "b", "no measurement given");
        }
        this.a = a;
        this.b = b;
    }

    /**
     * Turns of A and B (1..{@value Measure#MAX_RUNS}); by default the larger of the two builders' runs.
     * The U test needs at least {@link MannWhitney#runsNeeded} a side (4 at 95%) to call any change.
     */
    public AB runs(int runs) {
        if (runs < 1 || runs > Measure.MAX_RUNS) {
            throw BadInput.at("ab", "runs", "must be 1.." + Measure.MAX_RUNS + ", got " + runs);
        }
        this.runs = runs;
        return this;
    }

    /** The smallest change called slower or faster, a fraction in [0, 1) (default 0.05: 5%). */
    public AB threshold(double threshold) {
        if (!(threshold >= 0 && threshold < 1)) {
            throw BadInput.at("ab", "threshold", "a fraction from 0 to below 1 (0.05 for 5%), got " + threshold);
        }
        this.threshold = threshold;
        return this;
    }

    /**
     * Runs A and B turn by turn and judges B against A.
     *
     * @throws Refusal when a child does not complete
     * @throws Interruption.Stopped when a stop came before the first turn completed
     */
    public Result run() {
        int turns = runs != null ? runs : Math.max(a.runsAsked(), b.runsAsked());
        String la = a.label();
        String lb = b.label();
        if (la.equals(lb)) {
            la += " (A)";
            lb += " (B)";
        }
        Interleaved.Result r =
                Interleaved.run(List.of(a.oneRun(), b.oneRun()), List.of(la, lb), List.of(names(a), names(b)), turns);
        Measurement ma = r.measurements().get(0);
        Measurement mb = r.measurements().get(1);
        return new Result(ma, mb, change(ma, mb, threshold), turns, threshold, r.interrupted());
    }

    private static List<String> names(Measure m) {
        return m.floors().stream().map(Floor::name).toList();
    }

    /**
     * B against A as {@code ./lab compare} judges a row: each run's median is one observation, B/A the
     * ratio of the medians over all samples. Null when a side has no run, or a run median is zero (no
     * ratio).
     */
    static ChangeTest.Change change(Measurement a, Measurement b, double threshold) {
        double[] ra = Arrays.stream(a.runMedians()).asDoubleStream().toArray();
        double[] rb = Arrays.stream(b.runMedians()).asDoubleStream().toArray();
        if (ra.length == 0
                || rb.length == 0
                || Arrays.stream(ra).anyMatch(x -> x <= 0)
                || Arrays.stream(rb).anyMatch(x -> x <= 0)
                || a.median() <= 0
                || b.median() <= 0) {
            return null;
        }
        return ChangeTest.compare(ra, rb, (double) b.median() / a.median(), threshold, ChangeTest.DEFAULT_LEVEL);
    }

    /** The verdict as printed, or why there is none. */
    static String verdictText(ChangeTest.Change c) {
        return c == null ? "not compared (a run median of 0 ns)" : c.verdict().text();
    }

    /** {@code 1.042× [1.01, 1.07]} (the ratio's interval), or blank. */
    static String ratioText(ChangeTest.Change c) {
        if (c == null) {
            return "";
        }
        Interval r = c.ratio();
        return String.format(Locale.ROOT, "%.3f× [%.3f, %.3f]", r.estimate(), r.low(), r.high());
    }

    /**
     * B/A's interval for a headline's interval column: {@code 1.134 .. 1.202 (95% over 6 runs)}, or
     * the coverage the runs give instead ({@code only 75% over 3 runs}).
     */
    static String ratioInterval(ChangeTest.Change c) {
        Interval r = c.ratio();
        return String.format(
                Locale.ROOT,
                "%.3f .. %.3f (%s%s%% over %d runs)",
                r.low(),
                r.high(),
                r.reached() ? "" : "only ",
                trim(Math.round((r.reached() ? r.level() : r.confidence()) * 1000) / 10.0),
                r.runs());
    }

    /** How the verdicts were reached, in one line: the test, its level, the threshold. */
    static String method(double threshold) {
        return String.format(
                Locale.ROOT,
                "%s at p < %s, B/A's %s%% interval by Hodges-Lehmann; slower or faster only " + "beyond %s (threshold)",
                MannWhitney.TEST,
                trim(1 - ChangeTest.DEFAULT_LEVEL),
                trim(ChangeTest.DEFAULT_LEVEL * 100),
                trim(threshold * 100) + "%");
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /**
     * The A/B run.
     *
     * @param a A's measurement, its runs in turn order
     * @param b B's
     * @param change B against A, or null when no ratio can be formed
     * @param runs the turns asked
     * @param threshold the threshold used
     * @param interrupted whether a stop ended it before every turn
     */
    public record Result(
            Measurement a, Measurement b, ChangeTest.Change change, int runs, double threshold, boolean interrupted)
            implements Displayable {
        /** Faster, slower or no difference beyond noise; null when not compared. */
        public Verdict verdict() {
            return change == null ? null : change.verdict();
        }

        /** The headline: both medians with their intervals, B/A with its interval, the verdict and its test. */
        @Override
        public Table headline() {
            Headline h = Headline.of("A/B: " + a.label() + " vs " + b.label())
                    .row("A", a.label())
                    .row("B", b.label())
                    .row("median A", Headline.ns(a.median()), a.ci().median())
                    .row("median B", Headline.ns(b.median()), b.ci().median())
                    .row(
                            "B/A",
                            change == null
                                    ? "n/a"
                                    : Headline.ratio(change.ratio().estimate()),
                            change == null ? null : ratioInterval(change))
                    .row("verdict", verdictText(change))
                    .row("p", change == null ? "n/a" : String.format(Locale.ROOT, "%.4f", change.p()))
                    .row("test", method(threshold))
                    .row(
                            "runs",
                            a.runs().size() + " and " + b.runs().size() + " of " + runs + " interleaved turns"
                                    + (interrupted ? " (interrupted)" : ""));
            if (change != null && change.warning() != null) {
                h.row("warning", change.warning());
            }
            return h.table();
        }

        /** A's and B's runs side by side. */
        @Override
        public Table detail() {
            Table ta = a.runsTable();
            Table tb = b.runsTable();
            Table t = Table.create(
                    "runs, turn by turn",
                    ta.intColumn("run"),
                    ta.longColumn("median_ns").copy().setName("median_a_ns"),
                    tb.longColumn("median_ns").copy().setName("median_b_ns"),
                    ta.intColumn("placement").copy().setName("placement"));
            return t; // the same turns on both sides: as many runs each
        }

        /** Both distributions on one ECDF. */
        @Override
        public XYChart chart() {
            return Measurement.plot(a, b);
        }

        /** The headline, one figure a line, and a line a turn. */
        @Override
        public String toString() {
            return text();
        }
    }
}
