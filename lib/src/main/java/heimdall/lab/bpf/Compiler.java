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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compiles a {@link Profile} to a seccomp program for x86_64.
 *
 * <p>Layout: the architecture check (any architecture but x86_64 gets KILL_PROCESS: the i386 and x32
 * sub-architectures a profile may list are not compiled), the x32 guard ({@code nr >= 0x40000000}
 * gets KILL_PROCESS, except {@code nr == -1}, which goes on to the search and so meets the default
 * action, as in libseccomp's programs; libseccomp answers the x32 numbers and foreign architectures
 * with its bad-architecture action, KILL_THREAD by default, where ours is KILL_PROCESS), then a balanced binary search on the syscall number over ranges (contiguous
 * numbers with the same bare answer form one range; each comparison is one {@code JGE}) whose leaves
 * are shared {@code RET} instructions or, for calls whose answer depends on their arguments, a block
 * of argument rules. A call's path to a bare answer uses only loads of {@code nr} and {@code arch},
 * {@code JEQ/JGE} and {@code JA} with constants and {@code RET} of a constant, so the kernel's action
 * cache can evaluate it.
 *
 * <p>Argument blocks test each rule of the call in profile order (64-bit comparisons made on both
 * 32-bit halves) and return the first matching rule's action, or the default action.
 */
public final class Compiler {
    /**
     * The syscall number -1 as {@code seccomp_data.nr} holds it: what a ptrace or seccomp tracer sets
     * to skip a call (and what {@code syscall(-1)} presents). The kernel runs the filters on it.
     */
    public static final int SKIPPED_CALL = -1;

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
                int nr = table.number(name).orElseThrow(() -> BadInput.at(source, "syscalls[" + idx + "].names",
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

        // Ranges: [start, next start) with one answer key; a key is a return value or "args of nr".
        List<Integer> starts = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        Object prev = null;
        int top = rulesByNr.isEmpty() ? 0 : ((TreeMap<Integer, List<SyscallRule>>) rulesByNr).lastKey() + 1;
        for (int nr = 0; nr <= top; nr++) {
            Object key = argSensitive.containsKey(nr) ? (Object) ("args:" + nr) : bare.getOrDefault(nr, defaultRet);
            if (!key.equals(prev)) {
                starts.add(nr);
                keys.add(key);
                prev = key;
            }
        }

        Assembler as = new Assembler();
        Map<Integer, Assembler.Label> retLabels = new LinkedHashMap<>();
        Assembler.Label kill = retLabel(as, retLabels, Action.KILL_PROCESS.ret());
        Map<Integer, Assembler.Label> argLabels = new LinkedHashMap<>();
        for (Integer nr : argSensitive.keySet()) {
            argLabels.put(nr, as.label());
        }

        as.emit(Insn.ldAbs(SeccompData.OFF_ARCH));
        Assembler.Label archOk = as.label();
        as.cond(JEQ, Profile.AUDIT_ARCH_X86_64, archOk, kill);
        as.place(archOk);
        as.emit(Insn.ldAbs(SeccompData.OFF_NR));
        Assembler.Label notX32 = as.label();
        Assembler.Label x32OrSkip = as.label();
        as.cond(JGE, Profile.X32_SYSCALL_BIT, x32OrSkip, notX32);
        as.place(x32OrSkip);
        // -1 (a tracer's skipped call) is no x32 call: as in libseccomp it goes on to the search, whose
        // unsigned compares send it past every rule to the default action.
        as.cond(JEQ, SKIPPED_CALL, notX32, kill);
        as.place(notX32);

        List<Assembler.Label> leaves = new ArrayList<>();
        for (Object key : keys) {
            leaves.add(key instanceof Integer ret ? retLabel(as, retLabels, ret)
                    : argLabels.get(Integer.parseInt(((String) key).substring(5))));
        }
        Assembler.Label root = as.label();
        as.place(root);
        tree(as, starts, leaves, 0, starts.size(), root);

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
            throw BadInput.at(source, "syscalls", "the compiled program has " + insns.size()
                    + " instructions, over the kernel's limit of " + Program.MAX_INSNS);
        }
        return Program.of(insns, source + " (compiled)");
    }

    private static Assembler.Label retLabel(Assembler as, Map<Integer, Assembler.Label> rets, int ret) {
        return rets.computeIfAbsent(ret, r -> as.label());
    }

    /**
     * Emits the search over ranges {@code [lo, hi)} at the current position, which is {@code self}
     * (already placed) unless the subtree is a single leaf, which needs no instruction: a leaf is
     * reached by the parent's jump directly, so only a tree of one range emits a jump here.
     */
    private static void tree(Assembler as, List<Integer> starts, List<Assembler.Label> leaves, int lo, int hi,
            Assembler.Label self) {
        if (hi - lo == 1) {
            as.jump(leaves.get(lo)); // only for a profile with a single range
            return;
        }
        int mid = (lo + hi) / 2;
        Assembler.Label right = hi - mid == 1 ? leaves.get(mid) : as.label();
        Assembler.Label left = mid - lo == 1 ? leaves.get(lo) : as.label();
        as.cond(JGE, starts.get(mid), right, left);
        if (mid - lo > 1) {
            as.place(left);
            tree(as, starts, leaves, lo, mid, left);
        }
        if (hi - mid > 1) {
            as.place(right);
            tree(as, starts, leaves, mid, hi, right);
        }
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
