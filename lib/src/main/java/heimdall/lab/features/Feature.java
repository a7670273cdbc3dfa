package heimdall.lab.features;

import heimdall.lab.landlock.LandlockAbi;
import java.util.List;

/**
 * A kernel feature the sandbox's figures depend on, with the release it arrived in (or, for the
 * forced speculation mitigations, the release that stopped forcing them) and what that release
 * predicts of a kernel (DESIGN.md "Kernels"). The prediction is a function of the version alone;
 * {@link FeatureProbes} observes the running kernel.
 */
public enum Feature {
    /** {@code /proc/sys/kernel/seccomp/actions_avail}: the filter return actions the kernel knows. */
    ACTIONS_AVAIL("actions_avail", "4.14 (user_notif 5.0)"),
    /** The action cache: a constant-allow bitmap per syscall, so allowed calls skip the filters (5.11). */
    ACTION_CACHE("action cache", "5.11"),
    /** {@code SECCOMP_ADDFD_FLAG_SEND}: install a descriptor and answer the call in one ioctl (5.14). */
    ADDFD_SEND("ADDFD with SEND", "5.14"),
    /** {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP}: the supervisor woken on the child's CPU (6.6). */
    SYNC_WAKE_UP("synchronous wake-up", "6.6"),
    /** BPF trampolines (fentry, fexit, lsm programs), which the follower's design (b) needs (5.5 on x86-64). */
    BPF_TRAMPOLINES("BPF trampolines", "5.5"),
    /** {@code BPF_MAP_TYPE_TASK_STORAGE} from tracing programs, which holds the follower's cursors (5.11). */
    TASK_STORAGE_TRACING("task storage for tracing programs", "5.11"),
    /**
     * Whether installing a filter forces the SSB and STIBP mitigations on the task: the default before
     * 5.16 ({@code spec_store_bypass_disable=seccomp}, {@code spectre_v2_user=seccomp}), a confounder of
     * every "added" figure, since the filtered task's own code then runs slower.
     */
    SSB_STIBP_FORCED("SSB and STIBP forced by a filter", "until 5.16"),
    /**
     * Landlock's ABI ({@code landlock_create_ruleset(NULL, 0, VERSION)}): 1 in 5.13 up to 7 in 6.15
     * ({@code landlock.LandlockAbi}); 0 for none. What a {@code readBeneath(in/)} ruleset can confine there.
     */
    LANDLOCK_ABI("Landlock ABI", "5.13 (ABI 1)");

    /** Every action a kernel of 5.0 or later lists, in the kernel's order. */
    public static final List<String> ACTIONS_5_0 =
            List.of("kill_process", "kill_thread", "trap", "errno", "user_notif", "trace", "log", "allow");

    private final String label;
    private final String since;

    Feature(String label, String since) {
        this.label = label;
        this.since = since;
    }

    /** The feature's name in tables and summary.json. */
    public String label() {
        return label;
    }

    /** The release it arrived in, as the table says it. */
    public String since() {
        return since;
    }

    /**
     * What a kernel of version {@code v} is predicted to have: {@code yes}/{@code no}, the action list, or forced/not
     * forced.
     */
    public String predict(KernelVersion v) {
        return switch (this) {
            case ACTIONS_AVAIL ->
                String.join(
                        " ",
                        v.atLeast(5, 0)
                                ? ACTIONS_5_0
                                : v.atLeast(4, 14)
                                        ? ACTIONS_5_0.stream()
                                                .filter(a -> !a.equals("user_notif"))
                                                .toList()
                                        : List.of());
            case ACTION_CACHE, TASK_STORAGE_TRACING -> yes(v.atLeast(5, 11));
            case ADDFD_SEND -> yes(v.atLeast(5, 14));
            case SYNC_WAKE_UP -> yes(v.atLeast(6, 6));
            case BPF_TRAMPOLINES -> yes(v.atLeast(5, 5));
            case SSB_STIBP_FORCED -> v.atLeast(5, 16) ? NOT_FORCED : FORCED;
            case LANDLOCK_ABI -> String.valueOf(LandlockAbi.predicted(v.major(), v.minor()));
        };
    }

    /** The observed value for a forced mitigation ({@code thread force mitigated}, {@code force disabled}). */
    public static final String FORCED = "forced";
    /** The observed value for a mitigation a filter left as it was. */
    public static final String NOT_FORCED = "not forced";

    static String yes(boolean b) {
        return b ? "yes" : "no";
    }
}
