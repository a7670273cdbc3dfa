package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

import heimdall.lab.BadInput;
import heimdall.lab.profile.Action;
import heimdall.lab.profile.ArgRule;
import heimdall.lab.profile.Op;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.SyscallRule;
import heimdall.lab.profile.SyscallTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compiles a {@link Profile} to a seccomp program for x86_64.
 *
 * <h2>Program layout</h2>
 *
 * <pre>
 *   0  ld  [4]                  arch
 *   1  jeq #AUDIT_ARCH_X86_64   true: 2, false: RET BAD_ARCH
 *   2  ld  [0]                  nr
 *   3  search: a tree of jge #start, one per range boundary but the first (below)
 *      RET leaves: one RET per distinct bare answer, BAD_ARCH's first, shared by every range with it
 *      argument blocks: one per call whose answer depends on its arguments, in number order
 * </pre>
 *
 * <p><b>Architecture.</b> Any architecture but x86_64 gets {@code BAD_ARCH} (KILL_PROCESS): the
 * i386 and x32 sub-architectures a profile may list are not compiled. libseccomp answers foreign
 * architectures and x32 numbers with its bad-architecture action, KILL_THREAD by default.
 *
 * <p><b>Ranges.</b> The search partitions all 2³² values of {@code nr} into ranges of consecutive
 * numbers with the same answer key: a bare return value, or "the argument block of number n". Up to
 * one past the profile's highest number each number's key is its rules' (the default action for a
 * number no rule names); then three fixed boundaries:
 *
 * <pre>
 *   [top + 1,     0x3fffffff]  the default action (numbers no rule can name)
 *   [0x40000000,  0xfffffffe]  BAD_ARCH: the x32 numbers (X32_SYSCALL_BIT set)
 *   [0xffffffff]               the default action: -1, a tracer's skipped call ({@link #SKIPPED_CALL}),
 *                              reaches the rules and meets the default action, as in libseccomp
 * </pre>
 *
 * <p>Neighbouring ranges with the same key are one range, so a KILL_PROCESS default swallows the x32
 * range and -1 into the tail. Folding the x32 test into the search, instead of a separate
 * {@code jge #0x40000000} (and {@code jeq #-1}) before it, takes that instruction off every path; the
 * two boundaries it adds are leaves no table number lies in, which the weighting below puts deep.
 *
 * <p><b>Search.</b> {@code SearchTree}: a binary tree of unsigned {@code jge #start}, each jumping
 * forward to a subtree or straight to a leaf label, laid out in preorder. The tree is not balanced by
 * range count but weighted: it minimises {@code sum(weight * depth)} where a range weighs
 * {@code RUNNING_CALL_WEIGHT} for each syscall number of the table in it whose call can run, 1 for
 * each denied table number and 1 for the range itself. Long runs of allowed numbers (the bulk of a
 * denylist like Podman's) sit near the root; denied singletons and the ranges past the table sit
 * deeper. A call therefore executes 3 (arch and nr) + its depth + 1 (RET) instructions when its
 * answer does not depend on its arguments.
 *
 * <p>Example, Podman's profile (63 ranges, 62 comparisons): the root is {@code jge #134}; its false
 * side {@code jge #42}, then {@code jge #41}, whose false side is the shared {@code RET ALLOW}, so
 * {@code read} through {@code sendfile} (0..40, one range of 41 allowed numbers) run 3 + 3 + 1 = 7
 * instructions, and {@code socket} (41, an argument block) is the true side of that last compare.
 * The x32 range and -1 are the last two boundaries, at depth 9: an x32 number is killed after 13
 * instructions (6 when the x32 test came before the search), which only a foreign-ABI call pays.
 *
 * <p><b>Cache.</b> A call's path to a bare answer uses only loads of {@code nr} and {@code arch},
 * {@code JEQ/JGE} and {@code JA} with constants and {@code RET} of a constant, so the kernel's action
 * cache can evaluate it ({@link CachePredictor}).
 *
 * <p><b>Argument blocks</b> test each rule of the call in profile order (64-bit comparisons made on
 * both 32-bit halves) and return the first matching rule's action, or the default action. A
 * conditional jump whose target lies more than 255 instructions ahead gets a {@code JA} trampoline
 * ({@code Assembler}).
 */
public final class Compiler {
    /**
     * The syscall number -1 as {@code seccomp_data.nr} holds it: what a ptrace or seccomp tracer sets
     * to skip a call (and what {@code syscall(-1)} presents). The kernel runs the filters on it.
     */
    public static final int SKIPPED_CALL = -1;

    /** The answer to any architecture but x86_64 and to the x32 numbers. */
    static final Action BAD_ARCH = Action.KILL_PROCESS;

    /**
     * How much more a table number whose call can run (ALLOW, LOG, or decided by its arguments) weighs
     * in the search than one the profile denies. A sandboxed program makes the calls it is allowed
     * almost always (a denied call is a probe, a bug or an attack, once), so the calls that run are the
     * ones whose instructions are paid; denied numbers still weigh 1 each, and every range 1 more, so
     * their depth stays bounded. The trees on the fixture profiles and Podman's stop changing from
     * about 64 up (checked up to 1024).
     */
    static final long RUNNING_CALL_WEIGHT = 64;

    private Compiler() {}

    /** Compiles with the x86_64 table. */
    public static Program compile(Profile profile) {
        return compile(profile, SyscallTable.x86_64());
    }

    /** Compiles, resolving names with {@code table}; a name it does not know is bad input. */
    public static Program compile(Profile profile, SyscallTable table) {
        return compile(profile, table, "profile");
    }

    /** As {@link #compile(Profile, SyscallTable)}, naming {@code source} (the profile's file) in errors. */
    public static Program compile(Profile profile, SyscallTable table, String source) {
        Map<Integer, List<SyscallRule>> rulesByNr = new TreeMap<>();
        for (int i = 0; i < profile.syscalls().size(); i++) {
            SyscallRule r = profile.syscalls().get(i);
            int idx = i;
            for (String name : new LinkedHashSet<>(r.names())) {
                int nr = table.number(name)
                        .orElseThrow(() -> BadInput.at(
                                source,
                                "syscalls[" + idx + "].names",
                                "syscall '" + name + "' is not in the x86_64 table (" + table.source() + ")"));
                rulesByNr.computeIfAbsent(nr, n -> new ArrayList<>()).add(r);
            }
        }
        int defaultRet = profile.defaultAction().ret();

        // The answer per number: a bare return value, or null where the arguments decide.
        Map<Integer, Integer> bare = new TreeMap<>();
        Map<Integer, List<SyscallRule>> argSensitive = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<SyscallRule>> e : rulesByNr.entrySet()) {
            List<SyscallRule> reachable = new ArrayList<>();
            boolean unconditional = false;
            for (SyscallRule r : e.getValue()) {
                reachable.add(r);
                if (r.args().isEmpty()) {
                    unconditional = true;
                    break;
                }
            }
            Set<Integer> outcomes = new LinkedHashSet<>();
            reachable.forEach(r -> outcomes.add(r.action().ret()));
            if (!unconditional) {
                outcomes.add(defaultRet);
            }
            if (outcomes.size() == 1) {
                bare.put(e.getKey(), outcomes.iterator().next());
            } else {
                argSensitive.put(e.getKey(), reachable);
            }
        }

        // Ranges over all 32-bit numbers: [start, next start) with one answer key, a return value or
        // "args of nr". Past the profile's numbers: the default action up to the x32 bit, the
        // bad-architecture answer for the x32 numbers, and the default action again for -1 alone.
        List<Long> starts = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        int top = rulesByNr.isEmpty() ? 0 : ((TreeMap<Integer, List<SyscallRule>>) rulesByNr).lastKey() + 1;
        if (top >= Profile.X32_SYSCALL_BIT || top < 0) {
            throw BadInput.at(
                    source,
                    "syscalls",
                    "syscall number " + (top - 1) + " of " + table.source()
                            + " is not an x86_64 number (at or above the x32 bit 0x40000000)");
        }
        for (int nr = 0; nr <= top; nr++) {
            addRange(
                    starts,
                    keys,
                    nr,
                    argSensitive.containsKey(nr) ? (Object) ("args:" + nr) : bare.getOrDefault(nr, defaultRet));
        }
        addRange(starts, keys, Profile.X32_SYSCALL_BIT, BAD_ARCH.ret());
        addRange(starts, keys, Integer.toUnsignedLong(SKIPPED_CALL), defaultRet);

        Assembler as = new Assembler();
        Map<Integer, Assembler.Label> retLabels = new LinkedHashMap<>();
        Assembler.Label badArch = retLabel(as, retLabels, BAD_ARCH.ret());
        Map<Integer, Assembler.Label> argLabels = new LinkedHashMap<>();
        for (Integer nr : argSensitive.keySet()) {
            argLabels.put(nr, as.label());
        }

        as.emit(Insn.ldAbs(SeccompData.OFF_ARCH));
        Assembler.Label archOk = as.label();
        as.cond(JEQ, Profile.AUDIT_ARCH_X86_64, archOk, badArch);
        as.place(archOk);
        as.emit(Insn.ldAbs(SeccompData.OFF_NR));

        List<Assembler.Label> leaves = new ArrayList<>();
        for (Object key : keys) {
            leaves.add(
                    key instanceof Integer ret
                            ? retLabel(as, retLabels, ret)
                            : argLabels.get(Integer.parseInt(((String) key).substring(5))));
        }
        SearchTree.plan(toArray(starts), weights(starts, keys, table)).emit(as, leaves);

        for (Map.Entry<Integer, Assembler.Label> e : retLabels.entrySet()) {
            as.place(e.getValue());
            as.emit(Insn.ret(e.getKey()));
        }
        for (Map.Entry<Integer, List<SyscallRule>> e : argSensitive.entrySet()) {
            as.place(argLabels.get(e.getKey()));
            argBlock(as, e.getValue(), defaultRet);
        }
        List<Insn> insns = as.assemble();
        if (insns.size() > Program.MAX_INSNS) {
            throw BadInput.at(
                    source,
                    "syscalls",
                    "the compiled program has " + insns.size() + " instructions, over the kernel's limit of "
                            + Program.MAX_INSNS);
        }
        return Program.of(insns, source + " (compiled)");
    }

    private static Assembler.Label retLabel(Assembler as, Map<Integer, Assembler.Label> rets, int ret) {
        return rets.computeIfAbsent(ret, r -> as.label());
    }

    /** Appends the range starting at {@code start} unless it has the previous range's key. */
    private static void addRange(List<Long> starts, List<Object> keys, long start, Object key) {
        if (keys.isEmpty() || !keys.get(keys.size() - 1).equals(key)) {
            starts.add(start);
            keys.add(key);
        }
    }

    /**
     * The search's weights: {@code RUNNING_CALL_WEIGHT} for each table number in a range whose call
     * can run (ALLOW, LOG, or decided by arguments), 1 for each other table number, plus 1 per range.
     */
    private static long[] weights(List<Long> starts, List<Object> keys, SyscallTable table) {
        long[] w = new long[starts.size()];
        Arrays.fill(w, 1);
        int i = 0;
        for (int nr : table.numbers()) { // ascending
            long u = Integer.toUnsignedLong(nr);
            while (i + 1 < starts.size() && starts.get(i + 1) <= u) {
                i++;
            }
            w[i] += runs(keys.get(i)) ? RUNNING_CALL_WEIGHT : 1;
        }
        return w;
    }

    private static boolean runs(Object key) {
        if (!(key instanceof Integer ret)) {
            return true; // decided by arguments: typically calls the program makes, under conditions
        }
        int bits = ret & 0xffff0000;
        return bits == Action.Kind.ALLOW.base || bits == Action.Kind.LOG.base;
    }

    private static long[] toArray(List<Long> l) {
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = l.get(i);
        }
        return out;
    }

    private static void argBlock(Assembler as, List<SyscallRule> rules, int defaultRet) {
        for (SyscallRule r : rules) {
            if (r.args().isEmpty()) {
                as.emit(Insn.ret(r.action().ret()));
                return;
            }
            Assembler.Label nextRule = as.label();
            if (r.joinsWithOr()) {
                Assembler.Label match = as.label();
                for (int i = 0; i < r.args().size(); i++) {
                    Assembler.Label nextCond = i == r.args().size() - 1 ? nextRule : as.label();
                    condition(as, r.args().get(i), match, nextCond);
                    if (nextCond != nextRule) {
                        as.place(nextCond);
                    }
                }
                as.place(match);
            } else {
                for (ArgRule a : r.args()) {
                    Assembler.Label pass = as.label();
                    condition(as, a, pass, nextRule);
                    as.place(pass);
                }
            }
            as.emit(Insn.ret(r.action().ret()));
            as.place(nextRule);
        }
        as.emit(Insn.ret(defaultRet));
    }

    /** Jumps to {@code pass} when {@code a} holds, to {@code fail} otherwise (64-bit, unsigned). */
    private static void condition(Assembler as, ArgRule a, Assembler.Label pass, Assembler.Label fail) {
        int lo = SeccompData.OFF_ARGS + 8 * a.index();
        int hi = lo + 4;
        int vHi = (int) (a.value() >>> 32);
        int vLo = (int) a.value();
        Assembler.Label low = as.label();
        switch (a.op()) {
            case EQ, NE -> {
                Assembler.Label yes = a.op() == Op.EQ ? pass : fail;
                Assembler.Label no = yes == pass ? fail : pass;
                as.emit(Insn.ldAbs(hi));
                as.cond(JEQ, vHi, low, no);
                as.place(low);
                as.emit(Insn.ldAbs(lo));
                as.cond(JEQ, vLo, yes, no);
            }
            case GT, GE, LT, LE -> {
                // a > v (GT), a >= v (GE); LT and LE are the negations of GE and GT.
                boolean strict = a.op() == Op.GT || a.op() == Op.LE;
                boolean negate = a.op() == Op.LT || a.op() == Op.LE;
                Assembler.Label yes = negate ? fail : pass;
                Assembler.Label no = negate ? pass : fail;
                Assembler.Label eqHi = as.label();
                as.emit(Insn.ldAbs(hi));
                as.cond(JGT, vHi, yes, eqHi);
                as.place(eqHi);
                as.cond(JEQ, vHi, low, no);
                as.place(low);
                as.emit(Insn.ldAbs(lo));
                as.cond(strict ? JGT : JGE, vLo, yes, no);
            }
            case MASKED_EQ -> {
                int mHi = vHi;
                int mLo = vLo;
                int dHi = (int) (a.valueTwo() >>> 32);
                int dLo = (int) a.valueTwo();
                if (mHi != 0 || dHi != 0) {
                    as.emit(Insn.ldAbs(hi));
                    if (mHi != -1) {
                        as.emit(Insn.andK(mHi));
                    }
                    as.cond(JEQ, dHi, low, fail);
                }
                as.place(low);
                as.emit(Insn.ldAbs(lo));
                if (mLo != -1) {
                    as.emit(Insn.andK(mLo));
                }
                as.cond(JEQ, dLo, pass, fail);
            }
            default -> throw new IllegalStateException("op " + a.op());
        }
    }
}
