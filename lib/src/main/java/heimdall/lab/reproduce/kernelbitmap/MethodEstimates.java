package heimdall.lab.reproduce.kernelbitmap;

import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.COMPARED;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.METHODS;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.SELFTESTS_METHOD;
import static heimdall.lab.reproduce.kernelbitmap.KernelBitmap.SELFTEST_PER_CALL;

import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.EstimateRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.ExpectationRow;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap.Method;
import heimdall.lab.results.PublishedKernelBitmap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every method's estimates, from each configuration's runs' figures of that method: round by round,
 * then the median over the rounds. Made from a measurement ({@link KernelBitmap.Measurement#estimated}) or from the
 * figures its summary rows hold (the table's: each run's figure is in them). Its own class because both the
 * rows ({@link KernelBitmapSummary}) and the table ({@link KernelBitmapTable}) compare every method with the
 * selftest's through it, the table from a committed folder's rows alone.
 *
 * @param byMethod each method's estimates, in {@link KernelBitmap#METHODS} order
 */
public record MethodEstimates(Map<Method, BitmapEstimates> byMethod) {
    /** From each method's run figures, a list per configuration (0 to 4 filters), run by run. */
    static MethodEstimates of(Function<Method, List<List<Long>>> runFigures) {
        Map<Method, BitmapEstimates> by = new LinkedHashMap<>();
        for (Method m : METHODS) {
            by.put(m, BitmapEstimates.ofRounds(rounds(runFigures.apply(m))));
        }
        return new MethodEstimates(Collections.unmodifiableMap(by));
    }

    /** A method's estimates (judged by the later selftest's rules). */
    public BitmapEstimates estimates(Method m) {
        return byMethod.get(m);
    }

    /** The seven estimates, every method side by side. */
    public List<EstimateRow> estimateRows() {
        PublishedKernelBitmap pub = KernelBitmap.published();
        Map<Method, Map<String, Long>> by = new LinkedHashMap<>();
        for (Method m : METHODS) {
            by.put(m, estimates(m).byName());
        }
        Map<String, Long> ref = by.get(SELFTESTS_METHOD);
        List<EstimateRow> rows = new ArrayList<>();
        for (String k : ref.keySet()) {
            Long p = pub.estimate(k);
            Map<Method, Long> ns = new LinkedHashMap<>();
            Map<Method, Double> vs = new LinkedHashMap<>();
            for (Method m : METHODS) {
                ns.put(m, by.get(m).get(k));
                if (COMPARED.contains(k) && !m.equals(SELFTESTS_METHOD)) {
                    vs.put(m, KernelBitmap.relativeDifference(by.get(m).get(k), ref.get(k)));
                }
            }
            rows.add(new EstimateRow(k, BitmapEstimates.LABELS.get(k), ns, p, vs));
        }
        return rows;
    }

    /** The seven expectations, every method under both rules. */
    public List<ExpectationRow> expectationRows() {
        PublishedKernelBitmap pub = KernelBitmap.published();
        Map<Method, Map<BitmapEstimates.Rule, List<BitmapEstimates.Expectation>>> all = new LinkedHashMap<>();
        for (Method m : METHODS) {
            BitmapEstimates e = estimates(m);
            Map<BitmapEstimates.Rule, List<BitmapEstimates.Expectation>> byRule = new LinkedHashMap<>();
            for (BitmapEstimates.Rule r : BitmapEstimates.Rule.values()) {
                byRule.put(r, e.judgedBy(r).expectations());
            }
            all.put(m, byRule);
        }
        List<ExpectationRow> rows = new ArrayList<>();
        int n = all.get(SELFTESTS_METHOD).get(BitmapEstimates.Rule.LATER).size();
        for (int i = 0; i < n; i++) {
            Boolean ok = pub.ok(i);
            Map<Method, Map<BitmapEstimates.Rule, BitmapEstimates.Expectation>> v = new LinkedHashMap<>();
            for (Method m : METHODS) {
                Map<BitmapEstimates.Rule, BitmapEstimates.Expectation> r = new LinkedHashMap<>();
                int at = i;
                all.get(m).forEach((rule, l) -> r.put(rule, l.get(at)));
                v.put(m, r);
            }
            rows.add(new ExpectationRow(
                    all.get(SELFTESTS_METHOD)
                            .get(BitmapEstimates.Rule.LATER)
                            .get(i)
                            .check(),
                    v,
                    ok));
        }
        return rows;
    }

    /** Whether {@code m}'s entry and per-filter estimates are within 20% of the selftest's method's. */
    public boolean agreesWithTheSelftest(Method m) {
        return estimateRows().stream()
                .filter(r -> r.vsSelftest().containsKey(m))
                .allMatch(r -> r.agrees(m));
    }

    /**
     * The must-hold: the selftest loop timed call by call (our harness's timing, the selftest's
     * loop) gives entry and per-filter estimates within 20% of the selftest's method's. The other
     * methods' agreement is reported beside it ({@link #agreesWithTheSelftest}).
     */
    public boolean methodsAgree() {
        return agreesWithTheSelftest(SELFTEST_PER_CALL);
    }

    private static BitmapEstimates.Figures figures(List<Long> f) {
        return new BitmapEstimates.Figures(f.get(0), f.get(1), f.get(2), f.get(3), f.get(4));
    }

    /**
     * Round {@code i}'s figures from each configuration's {@code i}-th run: every round runs each
     * configuration once per method, so a method's {@code i}-th runs are one round's.
     */
    private static List<BitmapEstimates.Figures> rounds(List<List<Long>> perConfiguration) {
        int n = perConfiguration.stream().mapToInt(List::size).min().orElse(0);
        List<BitmapEstimates.Figures> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int r = i;
            out.add(figures(perConfiguration.stream().map(c -> c.get(r)).toList()));
        }
        return out;
    }
}
