package heimdall.lab.bpf;

import static heimdall.lab.bpf.Insn.*;

import heimdall.lab.profile.Profile;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * Predicts the kernel's seccomp action cache (Linux 5.11+): when a filter is attached, the kernel
 * emulates it per syscall number with only {@code nr} and {@code arch} known
 * ({@code seccomp_is_const_allow} in {@code kernel/seccomp.c}); a number whose every path ends in
 * {@code RET ALLOW} using only loads of {@code nr}/{@code arch}, {@code JA}, {@code JEQ/JGE/JGT/JSET}
 * with a constant, {@code AND} with a constant and {@code RET} of a constant is allowed from a bitmap
 * without running the filter. Anything else (loads of arguments or the instruction pointer, RET A,
 * LD IMM, the X register, scratch memory, other ALU operations) makes the number not cacheable. With
 * several filters a number is cached only if every filter allows it so.
 *
 * <p>This models the native architecture (x86_64) bitmap only.
 */
public final class CachePredictor {
    /**
     * Numbers the kernel lets through on the native architecture without running any filter
     * ({@code seccomp_uprobe_exception}): {@code uretprobe} (335, since 6.11 with the 2025 fix) and
     * {@code uprobe} (336, since 6.18). On this host {@code syscall(335)} made outside a uprobe
     * trampoline under a filter that answers it ERRNO dies by SIGILL from the call itself, which shows
     * the filter was not consulted. {@link #cacheable(Program, int)} and {@link Emulator} model the
     * filter alone and leave these to the caller; {@link #kernelAllows(int)} names them.
     */
    public static final Set<Integer> KERNEL_PASS_THROUGH_X86_64 = Set.of(335, 336);

    private CachePredictor() {}

    /**
     * Whether the kernel's emulation of {@code program} for {@code nr} on x86_64 ends in a constant
     * ALLOW. A negative {@code nr} (-1, the skipped call) or one with the x32 bit is never cacheable:
     * the kernel's bitmap covers {@code 0..NR_syscalls-1} and {@code seccomp_cache_check_allow_bitmap}
     * runs the filters for any number outside it, so the answer for -1 comes from the filter even where
     * it is a constant ALLOW. (Numbers from the running kernel's {@code NR_syscalls} up to the x32 bit
     * are not cached either; that bound is the kernel's and is not modelled here: callers ask about
     * numbers of the table.)
     */
    public static boolean cacheable(Program program, int nr) {
        if (nr < 0 || nr >= Profile.X32_SYSCALL_BIT) {
            return false;
        }
        int reg = 0;
        int n = program.length();
        for (int pc = 0; pc < n; pc++) {
            Insn i = program.get(pc);
            int k = i.k();
            switch (i.code()) {
                case LD | W | ABS -> {
                    if (k == SeccompData.OFF_NR) {
                        reg = nr;
                    } else if (k == SeccompData.OFF_ARCH) {
                        reg = Profile.AUDIT_ARCH_X86_64;
                    } else {
                        return false;
                    }
                }
                case RET | K -> {
                    return k == 0x7fff0000;
                }
                case JMP | JA -> pc += k;
                case JMP | JEQ | K -> pc += reg == k ? i.jt() : i.jf();
                case JMP | JGE | K -> pc += Integer.compareUnsigned(reg, k) >= 0 ? i.jt() : i.jf();
                case JMP | JGT | K -> pc += Integer.compareUnsigned(reg, k) > 0 ? i.jt() : i.jf();
                case JMP | JSET | K -> pc += (reg & k) != 0 ? i.jt() : i.jf();
                case ALU | AND | K -> reg &= k;
                default -> {
                    return false;
                }
            }
        }
        return false;
    }

    /** Whether a stack of programs is cacheable for {@code nr}: every program must be. */
    public static boolean cacheable(List<Program> stack, int nr) {
        return stack.stream().allMatch(p -> cacheable(p, nr));
    }

    /** The numbers in {@code 0..maxNr} for which {@code program} is cacheable. */
    public static BitSet cacheableNumbers(Program program, int maxNr) {
        BitSet out = new BitSet(maxNr + 1);
        for (int nr = 0; nr <= maxNr; nr++) {
            if (cacheable(program, nr)) {
                out.set(nr);
            }
        }
        return out;
    }

    /** Whether the running kernel lets {@code nr} through on x86_64 whatever the filters say. */
    public static boolean kernelAllows(int nr) {
        return KERNEL_PASS_THROUGH_X86_64.contains(nr);
    }
}
