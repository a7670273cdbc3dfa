package heimdall.lab.reproduce.kernelbitmap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The arithmetic of the kernel's {@code seccomp_benchmark} (tools/testing/selftests/seccomp): from
 * the cost of {@code getpid} natively, under one and two filters the action cache answers, and under
 * a third filter that reads an argument (so nothing is cached) and a fourth, the estimates of what
 * seccomp costs and the seven expectations the selftest checks, judged by one of its two versions
 * ({@link Rule}): {@code ≤} is plain, {@code ≈} holds when the two are equal or the larger is at most
 * the smaller plus the larger of a share of the smaller and 2 ns, the share 1% in the 2020 selftest
 * that printed the published output and 10% in later ones. In both, an estimate that comes out
 * negative makes every expectation skipped; a failed "native ≤ 1 filter" skips the ones after it, and
 * a failed "1 bitmapped ≈ 2 bitmapped" skips the last three (the action cache then appears
 * unsupported). They differ in when they say "Saw unexpected benchmark result" (see {@link Rule}).
 *
 * <p>Reimplemented from the selftest's description and behaviour; all figures are whole nanoseconds
 * per call, as the selftest prints them.
 *
 * @param figures the five configurations' costs per call
 * @param overhead1Bitmapped {@code bitmap1 - native}
 * @param overhead2Bitmapped {@code bitmap2 - native}
 * @param overhead3Full {@code filter1 - native}
 * @param overhead4Full {@code filter2 - native}
 * @param entry the cost of entering seccomp at all: {@code bitmap1 - native - (bitmap2 - bitmap1)}
 * @param perFilterLast2Diff {@code filter2 - filter1}
 * @param perFilterDiv4 {@code (filter2 - native - entry) / 4}, rounded down
 * @param expectations the seven checks, in the selftest's order
 * @param unexpected whether the selftest would print "Saw unexpected benchmark result"
 * @param bitmapUnsupported whether "1 bitmapped ≈ 2 bitmapped" failed (the selftest then skips
 *     the cache's expectations)
 * @param rule the selftest version whose rules judged the expectations
 * @param rounds how many rounds the figures come from: 1 for one measurement ({@link #of}); more for
 *     {@link #ofRounds}, whose filtered figures are built (the native median plus a median overhead),
 *     not measured, and {@link #lines()} says so
 */
public record BitmapEstimates(
        Figures figures,
        long overhead1Bitmapped,
        long overhead2Bitmapped,
        long overhead3Full,
        long overhead4Full,
        long entry,
        long perFilterLast2Diff,
        long perFilterDiv4,
        List<Expectation> expectations,
        boolean unexpected,
        boolean bitmapUnsupported,
        Rule rule,
        int rounds) {

    /**
     * The selftest's two sets of rules. {@link #SELFTEST_2020} is the version that printed the
     * published output (seed 003): {@code ≈} within 1% or 2 ns; a failed "native ≤ 1 filter" is an
     * unexpected result, and a failed "1 bitmapped ≈ 2 bitmapped" ends the checks without one (even
     * when an earlier check failed). {@link #LATER} is the selftest since it was made less strict
     * ("a noisy test"): {@code ≈} within 10% or 2 ns; a failed "native ≤ 1 filter" or "1 bitmapped ≈
     * 2 bitmapped" only skips what follows, and any other failed check is an unexpected result.
     */
    public enum Rule {
        SELFTEST_2020(0.01, "2020 selftest (≈: 1% or 2 ns)", "2020"),
        LATER(0.10, "later selftest (≈: 10% or 2 ns)", "later");

        private final double share;
        private final String label;
        private final String key;

        Rule(double share, String label, String key) {
            this.share = share;
            this.label = label;
            this.key = key;
        }

        /** The share of the smaller value {@code ≈} allows (2 ns when that is more). */
        public double share() {
            return share;
        }

        /** A name for tables: {@code 2020 selftest (≈: 1% or 2 ns)}. */
        public String label() {
            return label;
        }

        /** A short name for field names: {@code 2020}, {@code later}. */
        public String key() {
            return key;
        }

        /** {@code ≈} under this rule. */
        public boolean approx(long one, long two) {
            return BitmapEstimates.approx(one, two, share);
        }
    }

    /**
     * {@code getpid}'s cost per call in each configuration, in ns.
     *
     * @param nativeNs no filter
     * @param bitmap1 one filter that only loads {@code nr} and allows: answered from the action cache
     * @param bitmap2 two such filters
     * @param filter1 a third filter that loads {@code args[0]}: the cache can no longer answer
     * @param filter2 a fourth filter like the first two, run because the third is
     */
    public record Figures(long nativeNs, long bitmap1, long bitmap2, long filter1, long filter2) {
        /** The figures in configuration order (0 to 4 filters). */
        public List<Long> asList() {
            return List.of(nativeNs, bitmap1, bitmap2, filter1, filter2);
        }
    }

    /** How an expectation came out; the marks are the selftest's (✔ and ✘ for its ✔️ and ❌). */
    public enum Verdict {
        PASS("✔"),
        FAIL("✘"),
        SKIPPED("skipped");

        private final String mark;

        Verdict(String mark) {
            this.mark = mark;
        }

        public String mark() {
            return mark;
        }
    }

    /**
     * One check: {@code left op right} over {@code a} and {@code b}.
     *
     * @param op {@code "≤"} or {@code "≈"}
     */
    public record Expectation(String left, String op, String right, long a, long b, Verdict verdict) {
        /** The check's name as the selftest prints it: {@code native ≤ 1 bitmap}. */
        public String check() {
            return left + " " + op + " " + right;
        }

        /** The selftest's line: {@code native ≤ 1 bitmap (638 ≤ 664): ✔}. */
        public String line() {
            if (verdict == Verdict.SKIPPED) {
                return check() + ": skipped";
            }
            return check() + " (" + a + " " + op + " " + b + "): " + verdict.mark();
        }
    }

    /** The later selftest's {@code ≈}: equal, or the larger within max(10% of the smaller, 2) of the smaller. */
    public static boolean approx(long one, long two) {
        return approx(one, two, Rule.LATER.share());
    }

    /**
     * The selftest's {@code ≈} with {@code share}: equal, or the larger within max(share of the smaller, 2) of the
     * smaller.
     */
    public static boolean approx(long one, long two, double share) {
        double a = one;
        double b = two;
        double aBump = a + Math.max(a * share, 2.0);
        double bBump = b + Math.max(b * share, 2.0);
        return a == b || (a > b && a <= bBump) || (b > a && b <= aBump);
    }

    /** The selftest's {@code ≤}. */
    public static boolean le(long one, long two) {
        return one <= two;
    }

    /** Estimates and expectations from five configurations' figures, as the later selftest derives them. */
    public static BitmapEstimates of(Figures f) {
        return of(f, Rule.LATER);
    }

    /** Estimates and expectations from five configurations' figures, judged by {@code rule}. */
    public static BitmapEstimates of(Figures f, Rule rule) {
        long entry = f.bitmap1() - f.nativeNs() - (f.bitmap2() - f.bitmap1());
        // floorDiv keeps a negative numerator negative (the selftest's unsigned arithmetic makes it huge).
        return judged(
                rule,
                1,
                f,
                f.bitmap1() - f.nativeNs(),
                f.bitmap2() - f.nativeNs(),
                f.filter1() - f.nativeNs(),
                f.filter2() - f.nativeNs(),
                entry,
                f.filter2() - f.filter1(),
                Math.floorDiv(f.filter2() - f.nativeNs() - entry, 4));
    }

    /** The same figures and estimates judged by {@code other}'s rules. */
    public BitmapEstimates judgedBy(Rule other) {
        return judged(
                other,
                rounds,
                figures,
                overhead1Bitmapped,
                overhead2Bitmapped,
                overhead3Full,
                overhead4Full,
                entry,
                perFilterLast2Diff,
                perFilterDiv4);
    }

    /**
     * Estimates from rounds measured one after another, each round with all five configurations: each
     * estimate is the median over the rounds of that round's estimate, so a difference is always taken
     * between figures measured moments apart, and a slow spell of the host lifts both sides of it. The
     * figures are the native median and, for each filtered configuration, that plus its median
     * overhead, so that the totals are the figures' differences as in the selftest's printout; the
     * expectations are judged on these (by the later selftest's rules; {@link #judgedBy} for the
     * other). Medians of an even count are the lower middle value.
     */
    public static BitmapEstimates ofRounds(List<Figures> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no rounds");
        }
        List<BitmapEstimates> each = rounds.stream().map(BitmapEstimates::of).toList();
        long nativeNs = median(rounds, Figures::nativeNs);
        long o1 = median(each, BitmapEstimates::overhead1Bitmapped);
        long o2 = median(each, BitmapEstimates::overhead2Bitmapped);
        long o3 = median(each, BitmapEstimates::overhead3Full);
        long o4 = median(each, BitmapEstimates::overhead4Full);
        Figures f = new Figures(nativeNs, nativeNs + o1, nativeNs + o2, nativeNs + o3, nativeNs + o4);
        return judged(
                Rule.LATER,
                rounds.size(),
                f,
                o1,
                o2,
                o3,
                o4,
                median(each, BitmapEstimates::entry),
                median(each, BitmapEstimates::perFilterLast2Diff),
                median(each, BitmapEstimates::perFilterDiv4));
    }

    private static <T> long median(List<T> xs, ToLongFunction<T> f) {
        long[] v = xs.stream().mapToLong(f).sorted().toArray();
        return v[(v.length - 1) / 2];
    }

    /** The selftest's seven checks over figures and estimates, with {@code rule}'s skipping rules. */
    private static BitmapEstimates judged(
            Rule rule, int rounds, Figures f, long o1, long o2, long o3, long o4, long entry, long last2, long div4) {
        boolean unexpected = false;
        boolean skip = false;
        for (long e : new long[] {o1, o2, o3, o4, entry, last2, div4}) {
            if (e < 0) {
                skip = true;
                unexpected = true;
            }
        }
        boolean estimatesNegative = skip;
        List<Expectation> out = new ArrayList<>();
        Checker c = new Checker(out, rule);
        unexpected |= c.check("native", "≤", "1 bitmap", f.nativeNs(), f.bitmap1(), skip);
        if (c.check("native", "≤", "1 filter", f.nativeNs(), f.filter1(), skip)) {
            skip = true;
            // 2020: "goto more_samples"; later: the rest is skipped and this failure alone is not reported.
            unexpected |= rule == Rule.SELFTEST_2020;
        }
        unexpected |= c.check("per-filter (last 2 diff)", "≈", "per-filter (filters / 4)", last2, div4, skip);
        boolean unsupported = false;
        if (c.check("1 bitmapped", "≈", "2 bitmapped", o1, o2, skip)) {
            unsupported = true;
            skip = true;
            // 2020: "goto out", past the unexpected-result message whatever failed before.
            if (rule == Rule.SELFTEST_2020 && !estimatesNegative) {
                unexpected = false;
            }
        }
        unexpected |= c.check("entry", "≈", "1 bitmapped", entry, o1, skip);
        unexpected |= c.check("entry", "≈", "2 bitmapped", entry, o2, skip);
        unexpected |= c.check(
                "native + entry + (per filter * 4)",
                "≈",
                "4 filters total",
                entry + last2 * 4 + f.nativeNs(),
                f.filter2(),
                skip);
        return new BitmapEstimates(
                f, o1, o2, o3, o4, entry, last2, div4, List.copyOf(out), unexpected, unsupported, rule, rounds);
    }

    /** Records each check; {@link #check} returns whether it failed (the selftest's non-zero). */
    private record Checker(List<Expectation> out, Rule rule) {
        boolean check(String left, String op, String right, long a, long b, boolean skip) {
            if (skip) {
                out.add(new Expectation(left, op, right, a, b, Verdict.SKIPPED));
                return false;
            }
            // A negative value is the selftest's "Miscalculation! Measurement went negative".
            boolean good = a >= 0 && b >= 0 && (op.equals("≤") ? le(a, b) : rule.approx(a, b));
            out.add(new Expectation(left, op, right, a, b, good ? Verdict.PASS : Verdict.FAIL));
            return !good;
        }
    }

    /** The estimates by the names {@code results/published/kernel-bitmap.json} uses. */
    public Map<String, Long> byName() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("total_overhead_1_bitmapped", overhead1Bitmapped);
        m.put("total_overhead_2_bitmapped", overhead2Bitmapped);
        m.put("total_overhead_3_full", overhead3Full);
        m.put("total_overhead_4_full", overhead4Full);
        m.put("entry", entry);
        m.put("per_filter_last_2_diff", perFilterLast2Diff);
        m.put("per_filter_filters_div_4", perFilterDiv4);
        return m;
    }

    /** The label the selftest prints for each estimate, by {@link #byName()} key. */
    public static final Map<String, String> LABELS = labels();

    private static Map<String, String> labels() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("total_overhead_1_bitmapped", "total seccomp overhead for 1 bitmapped filter");
        m.put("total_overhead_2_bitmapped", "total seccomp overhead for 2 bitmapped filters");
        m.put("total_overhead_3_full", "total seccomp overhead for 3 full filters");
        m.put("total_overhead_4_full", "total seccomp overhead for 4 full filters");
        m.put("entry", "seccomp entry overhead");
        m.put("per_filter_last_2_diff", "seccomp per-filter overhead (last 2 diff)");
        m.put("per_filter_filters_div_4", "seccomp per-filter overhead (filters / 4)");
        return Collections.unmodifiableMap(m);
    }

    /** The configuration names the selftest prints, in order. */
    public static final List<String> CONFIGURATIONS = List.of(
            "getpid native",
            "getpid RET_ALLOW 1 filter (bitmap)",
            "getpid RET_ALLOW 2 filters (bitmap)",
            "getpid RET_ALLOW 3 filters (full)",
            "getpid RET_ALLOW 4 filters (full)");

    /**
     * The selftest's report for these figures, line by line (from the configurations on). Figures
     * built from rounds say how: the native line is the median over the rounds, each filtered line the
     * native median plus that configuration's median overhead, so that the lines' differences are the
     * printed totals; none of those is a measured run.
     */
    public List<String> lines() {
        List<String> l = new ArrayList<>();
        List<Long> fs = figures.asList();
        for (int i = 0; i < fs.size(); i++) {
            String how = rounds <= 1
                    ? ""
                    : i == 0
                            ? " (median of " + rounds + " rounds)"
                            : " (built: native median + median overhead of " + rounds + " rounds)";
            l.add(CONFIGURATIONS.get(i) + ": " + fs.get(i) + " ns" + how);
        }
        byName().forEach((k, v) -> l.add("Estimated " + LABELS.get(k) + ": " + v + " ns"));
        l.add("Expectations:");
        for (int i = 0; i < expectations.size(); i++) {
            l.add("\t" + expectations.get(i).line());
            if (i == 3 && bitmapUnsupported) {
                l.add("Skipping constant action bitmap expectations: they appear unsupported.");
            }
        }
        if (unexpected) {
            l.add("Saw unexpected benchmark result. Try running again with more samples?");
        }
        return l;
    }
}
