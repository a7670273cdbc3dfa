package heimdall.lab.bpf;

import heimdall.lab.profile.Action;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.sys.Signals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares the kernel with the emulator, call by call, for one stack of programs under test. Each
 * call is made in a fresh runner under {@code [guard, stack...]} and the outcome is compared with
 * {@link KernelFate} of {@link Stack#evaluate} over exactly that stack:
 *
 * <ul>
 *   <li>ERRNO e: the call failed with e (the guard's own errnos included);
 *   <li>KILLED_BY_SIGSYS or SIGSYS_TRAP: the runner died by SIGSYS making the call (without a handler
 *       the two look alike; the profiles here do not use TRAP);
 *   <li>RUNS: the outcome equals the call's natural outcome, measured under the harmless guard alone.
 * </ul>
 *
 * A call on the harmless guard's list is also made under the {@linkplain SafetyGuard#opaque() opaque}
 * guard, where it cannot run: that comparison tells "the program let it through" from "the program
 * answered ERRNO e" even when the call, run, fails with e by itself.
 */
final class Differential {
    /** One comparison that did not agree. */
    record Disagreement(
            String what,
            String guard,
            int nr,
            String name,
            long[] args,
            String emulated,
            KernelOutcome expected,
            KernelOutcome kernel,
            String program) {
        @Override
        public String toString() {
            return what + " under the " + guard + " guard: " + name + "(" + nr + ") " + Arrays.toString(args)
                    + ": emulator " + emulated + ", expected " + expected + ", kernel " + kernel + program;
        }
    }

    private static final Map<String, KernelOutcome> NATURAL = new HashMap<>();

    private final String what;
    private final List<Program> stack;
    private final SyscallTable table = SyscallTable.x86_64();
    final List<Disagreement> disagreements = new ArrayList<>();
    int compared;
    int naturalRuns;
    final Map<KernelOutcome.Kind, Integer> byKind = new HashMap<>();
    /** Every errno, exit code and signal the kernel gave (returned values left out). */
    final java.util.Set<KernelOutcome> seen = new java.util.HashSet<>();

    Differential(String what, List<Program> stack) {
        this.what = what;
        this.stack = List.copyOf(stack);
    }

    /** For calls each made under its own stack ({@link #check(List, int, long[])}). */
    Differential(String what) {
        this.what = what;
        this.stack = null;
    }

    /** Makes the call under the harmless guard and, where the guard lists it, under the opaque one. */
    void check(int nr, long[] args) {
        check(stack, nr, args);
    }

    /** As {@link #check(int, long[])}, under {@code stack} (installed after the guard, oldest first). */
    void check(List<Program> stack, int nr, long[] args) {
        check(stack, SafetyGuard.harmless(), "harmless", nr, args);
        if (SafetyGuard.harmless().lists(nr)) {
            check(stack, SafetyGuard.opaque(), "opaque", nr, args);
        }
    }

    private void check(List<Program> stack, SafetyGuard guard, String guardName, int nr, long[] args) {
        List<Program> programs = new ArrayList<>();
        programs.add(guard.program());
        programs.addAll(stack);
        SeccompData data = SeccompData.x86_64(nr, args);
        Verdict v = Stack.evaluate(programs, data);
        KernelFate fate = KernelFate.of(v);
        // ERRNO with data 0: the call "succeeds" with 0 without running, so 0 exactly is expected.
        boolean zero = fate.kind() == KernelFate.Kind.ERRNO && fate.errno() == 0;
        KernelOutcome expected = switch (fate.kind()) {
            case ERRNO -> zero ? new KernelOutcome(KernelOutcome.Kind.RETURNED, 0) : KernelOutcome.errno(fate.errno());
            case KILLED_BY_SIGSYS, SIGSYS_TRAP -> KernelOutcome.killed(Signals.SIGSYS);
            case RUNS -> natural(nr, args);
            default -> throw new IllegalStateException("no listener or tracer here, yet " + fate);
        };
        KernelOutcome got = KernelOutcome.of(programs, nr, args);
        compared++;
        byKind.merge(got.kind(), 1, Integer::sum);
        if (got.kind() != KernelOutcome.Kind.RETURNED) {
            seen.add(got);
        }
        if (!expected.sameAs(got) || (zero && got.value() != 0)) {
            disagreements.add(new Disagreement(
                    what,
                    guardName,
                    nr,
                    table.name(nr).orElse("?"),
                    args,
                    Action.describe(v.action()),
                    expected,
                    got,
                    this.stack == null ? "\n" + Disassembler.disassemble(stack.get(stack.size() - 1)) : ""));
        }
    }

    /** The call run under the harmless guard alone (which must allow it: it is about to run as root). */
    private KernelOutcome natural(int nr, long[] args) {
        SeccompData data = SeccompData.x86_64(nr, args);
        if (SafetyGuard.harmless().answer(data) != Action.ALLOW.ret()
                || Emulator.run(SafetyGuard.harmless().program(), data).action() != Action.ALLOW.ret()) {
            throw new IllegalStateException("the emulator says a stack allows " + nr + Arrays.toString(args)
                    + " which the harmless guard refuses");
        }
        String key = nr + Arrays.toString(args);
        synchronized (NATURAL) {
            KernelOutcome known = NATURAL.get(key);
            if (known != null) {
                return known;
            }
        }
        KernelOutcome n = KernelOutcome.of(List.of(SafetyGuard.harmless().program()), nr, args);
        naturalRuns++;
        synchronized (NATURAL) {
            NATURAL.put(key, n);
        }
        return n;
    }

    /** {@code abcdf: 412 calls compared (…), 23 natural runs, 0 disagreements}. */
    String summary(long millis) {
        return String.format(
                "%s: %d calls compared with the kernel (%s), %d natural runs (others cached), %d disagreements, %.1f s",
                what, compared, byKind, naturalRuns, disagreements.size(), millis / 1000.0);
    }
}
