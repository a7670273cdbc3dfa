package heimdall.lab.explore;

import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * One way a call meets a profile: its number, the arguments the sweep makes it with, and which of the
 * profile's rules for it those arguments reach first ({@code rule k of n}, or the profile's default).
 *
 * @param call the x86_64 name
 * @param nr its number
 * @param args the six arguments
 * @param reached which rule the arguments reach: {@code "bare rule"}, {@code "rule 2 of 5 (arg0 == 0x8)"},
 *     {@code "default (no rule matches)"}
 */
public record SweepCase(String call, int nr, long[] args, String reached) {
    public SweepCase {
        args = args.clone();
    }

    @Override
    public long[] args() {
        return args.clone();
    }

    /** Whether every argument is 0. */
    public boolean zeroArgs() {
        return Arrays.stream(args).allMatch(a -> a == 0);
    }

    /** {@code getppid()}, {@code personality(0x8)}: the arguments up to the last one set. */
    public String label() {
        int last = args.length - 1;
        while (last >= 0 && args[last] == 0) {
            last--;
        }
        StringBuilder sb = new StringBuilder(call).append('(');
        for (int i = 0; i <= last; i++) {
            sb.append(i > 0 ? ", " : "").append(args[i] == 0 ? "0" : "0x" + Long.toHexString(args[i]));
        }
        return sb.append(')').toString();
    }

    /** Most candidate argument vectors tried for one call (its rules' values combined). */
    static final int MAX_CANDIDATES = 4096;

    /**
     * The cases of every x86_64 call {@code profile} names or (with an allowing default) does not: a
     * call whose rules test no argument once, with zero arguments; a call with argument rules once per
     * rule its arguments can reach and once for its default, with arguments found by combining the
     * values its rules compare with (and each value's neighbours), first reach kept.
     */
    static List<SweepCase> of(Profile profile, SyscallTable table) {
        Map<Integer, List<SyscallRule>> byNr = new LinkedHashMap<>();
        for (SyscallRule r : profile.syscalls()) {
            for (String n : r.names()) {
                table.number(n)
                        .ifPresent(nr ->
                                byNr.computeIfAbsent(nr, k -> new ArrayList<>()).add(r));
            }
        }
        List<SweepCase> out = new ArrayList<>();
        for (int nr : table.numbers()) {
            String name = table.name(nr).orElse("#" + nr);
            List<SyscallRule> rules = byNr.getOrDefault(nr, List.of());
            if (rules.stream().allMatch(r -> r.args().isEmpty())) {
                String reached = rules.isEmpty() ? "default (no rule names it)" : "bare rule";
                out.add(new SweepCase(name, nr, new long[6], reached));
                continue;
            }
            out.addAll(withArguments(name, nr, rules));
        }
        return out;
    }

    private static List<SweepCase> withArguments(String name, int nr, List<SyscallRule> rules) {
        // the argument positions any rule tests, and for each the values worth trying
        Map<Integer, TreeSet<Long>> values = new LinkedHashMap<>();
        for (SyscallRule r : rules) {
            for (ArgRule a : r.args()) {
                TreeSet<Long> v = values.computeIfAbsent(a.index(), k -> new TreeSet<>(Long::compareUnsigned));
                v.add(0L);
                v.add(a.value());
                v.add(a.value() + 1);
                v.add(a.value() - 1);
                if (a.op() == Op.MASKED_EQ) {
                    v.add(a.valueTwo());
                    v.add(a.valueTwo() ^ a.value());
                }
            }
        }
        List<Integer> positions = new ArrayList<>(values.keySet());
        List<long[]> candidates = new ArrayList<>();
        candidates.add(new long[6]);
        for (int p : positions) {
            List<long[]> next = new ArrayList<>();
            for (long[] c : candidates) {
                for (long v : values.get(p)) {
                    if (next.size() < MAX_CANDIDATES) {
                        long[] n = c.clone();
                        n[p] = v;
                        next.add(n);
                    }
                }
            }
            candidates = next;
        }
        // simplest first: fewest arguments set, then the smallest values
        candidates.sort((a, b) -> {
            long na = Arrays.stream(a).filter(x -> x != 0).count();
            long nb = Arrays.stream(b).filter(x -> x != 0).count();
            return na != nb ? Long.compare(na, nb) : Arrays.compareUnsigned(a, b);
        });
        Map<Integer, SweepCase> reach = new LinkedHashMap<>();
        for (long[] c : candidates) {
            int k = firstMatch(rules, c);
            if (!reach.containsKey(k)) {
                reach.put(k, new SweepCase(name, nr, c, describe(rules, k)));
            }
        }
        List<SweepCase> out = new ArrayList<>();
        for (int k = 0; k <= rules.size(); k++) {
            int key = k == rules.size() ? -1 : k;
            if (reach.containsKey(key)) {
                out.add(reach.get(key));
            }
        }
        return out;
    }

    private static int firstMatch(List<SyscallRule> rules, long[] args) {
        for (int k = 0; k < rules.size(); k++) {
            if (rules.get(k).matches(args)) {
                return k;
            }
        }
        return -1;
    }

    private static String describe(List<SyscallRule> rules, int k) {
        if (k < 0) {
            return "default (no rule matches)";
        }
        SyscallRule r = rules.get(k);
        List<String> conds = r.args().stream().map(SweepCase::condition).toList();
        return String.format(
                Locale.ROOT,
                "rule %d of %d (%s)",
                k + 1,
                rules.size(),
                conds.isEmpty() ? "any arguments" : String.join(r.joinsWithOr() ? " || " : " && ", conds));
    }

    private static String condition(ArgRule a) {
        String v = "0x" + Long.toHexString(a.value());
        return switch (a.op()) {
            case EQ -> "arg" + a.index() + " == " + v;
            case NE -> "arg" + a.index() + " != " + v;
            case LT -> "arg" + a.index() + " < " + v;
            case LE -> "arg" + a.index() + " <= " + v;
            case GT -> "arg" + a.index() + " > " + v;
            case GE -> "arg" + a.index() + " >= " + v;
            case MASKED_EQ -> "arg" + a.index() + " & " + v + " == 0x" + Long.toHexString(a.valueTwo());
        };
    }
}
