package heimdall.lab.bpf;

import java.util.List;

/**
 * Several programs installed one after another, evaluated as {@code seccomp_run_filters} does: every
 * program runs, the newest first, and the most restrictive answer wins (the smallest action bits
 * compared as a signed int, so KILL_PROCESS's 0x80000000 is the smallest); on a tie the answer of
 * the most recently installed program is kept, data bits (an errno) included.
 */
public final class Stack {
    private Stack() {}

    /**
     * @param newestLast the programs in installation order (the last one installed last)
     * @return the winning return value and the instructions executed over all programs
     */
    public static Verdict evaluate(List<Program> newestLast, SeccompData data) {
        if (newestLast.isEmpty()) {
            throw new IllegalArgumentException("a stack has at least one program");
        }
        int ret = 0x7fff0000; // SECCOMP_RET_ALLOW, as the kernel starts
        long executed = 0;
        for (int i = newestLast.size() - 1; i >= 0; i--) {
            Verdict v = Emulator.run(newestLast.get(i), data);
            executed += v.insnsExecuted();
            if ((v.action() & 0xffff0000) < (ret & 0xffff0000)) {
                ret = v.action();
            }
        }
        return new Verdict(ret, executed);
    }
}
