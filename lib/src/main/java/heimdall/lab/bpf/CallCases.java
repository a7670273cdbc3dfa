package heimdall.lab.bpf;

import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Argument vectors that exercise a profile's rules for one call: for each rule naming the call, one
 * vector meant to satisfy its conditions (and, on arguments it leaves free, to fail the rules before
 * it) and, per condition, one meant to break just that condition; plus all zeros. A differential test runs the call
 * with each vector in the kernel and compares the
 * outcome with {@link Emulator}'s; which vectors are safe to pass to a real call is the test's choice.
 * Vectors are distinct; whether each matches is for the emulator to say, not promised here.
 */
public final class CallCases {
    private CallCases() {}

    public static List<long[]> argVectors(Profile profile, SyscallTable table, int nr) {
        List<long[]> out = new ArrayList<>();
        add(out, new long[6]);
        List<SyscallRule> earlier = new ArrayList<>();
        for (SyscallRule r : profile.syscalls()) {
            if (r.names().stream().noneMatch(n -> table.number(n).orElse(-1) == nr)) {
                continue;
            }
            if (r.args().isEmpty()) {
                break; // later rules for this call are unreachable
            }
            long[] match = new long[6];
            boolean[] set = new boolean[6];
            for (ArgRule a : r.args()) {
                if (!set[a.index()]) {
                    match[a.index()] = satisfying(a);
                    set[a.index()] = true;
                }
            }
            // Where it can, make each earlier rule fail on an argument this rule leaves free.
            for (SyscallRule e : earlier) {
                for (ArgRule a : e.args()) {
                    if (!set[a.index()]) {
                        match[a.index()] = violating(a);
                        set[a.index()] = true;
                        break;
                    }
                }
            }
            add(out, match);
            for (ArgRule a : r.args()) {
                long[] miss = match.clone();
                miss[a.index()] = violating(a);
                add(out, miss);
            }
            earlier.add(r);
        }
        return out;
    }

    /** A value for which {@code a} holds (best effort: some conditions hold for no value). */
    static long satisfying(ArgRule a) {
        long v = a.value();
        return switch (a.op()) {
            case EQ, LE, GE -> v;
            case NE, GT -> v + 1;
            case LT -> v == 0 ? 0 : v - 1;
            case MASKED_EQ -> a.valueTwo() & v;
        };
    }

    /** A value for which {@code a} fails (best effort). */
    static long violating(ArgRule a) {
        long v = a.value();
        return switch (a.op()) {
            case EQ -> v + 1;
            case NE, GT, LT -> v;
            case LE -> v + 1;
            case GE -> v == 0 ? 0 : v - 1;
            case MASKED_EQ -> (a.valueTwo() & v) ^ Long.lowestOneBit(v);
        };
    }

    private static void add(List<long[]> out, long[] v) {
        if (out.stream().noneMatch(o -> Arrays.equals(o, v))) {
            out.add(v);
        }
    }
}
