package heimdall.lab.child;

import java.util.List;

/**
 * The kernel's bound on the filters one process may hold: {@code seccomp_attach_filter} refuses a new
 * filter of {@code L} instructions with {@code ENOMEM} when {@code L} plus, over every filter already
 * attached, its length plus a penalty of 4 would exceed {@code MAX_INSNS_PER_PATH} (32768, that is
 * 256 KiB of {@code struct sock_filter}). A loop that attaches the same program again and again
 * ({@link Call#ATTACH}) can therefore make at most {@link #maxFilters(int)} attaches, warm-up included.
 */
public final class AttachBudget {
    /** {@code MAX_INSNS_PER_PATH}: {@code (1 << 18) / sizeof(struct sock_filter)}. */
    public static final int MAX_INSNS_PER_PATH = 32768;
    /** The instructions the kernel counts for each attached filter beyond its length. */
    public static final int PENALTY = 4;

    private AttachBudget() {}

    /** How many filters of {@code len} instructions a process with no filter can attach. */
    public static int maxFilters(int len) {
        return maxFilters(len, List.of());
    }

    /** How many more filters of {@code len} instructions fit on top of filters of {@code installed} lengths. */
    public static int maxFilters(int len, List<Integer> installed) {
        if (len < 1 || len > ChildSpec.MAX_INSNS) {
            throw new IllegalArgumentException("a filter has 1.." + ChildSpec.MAX_INSNS + " instructions, not " + len);
        }
        long used = 0;
        for (int l : installed) {
            used += l + PENALTY;
        }
        // The k-th new filter fits while used + (k - 1) * (len + 4) + len <= MAX.
        long room = MAX_INSNS_PER_PATH - used - len;
        return room < 0 ? 0 : (int) (room / (len + PENALTY) + 1);
    }
}
