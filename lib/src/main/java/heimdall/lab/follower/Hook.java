package heimdall.lab.follower;

/**
 * Where the follower's step is attached. The hook decides t_idle, what processes that are not
 * followed pay while the follower is attached.
 */
public enum Hook {
    /**
     * {@code tp_btf/sys_enter}, the raw syscall-entry tracepoint: enabling it makes every task on the
     * host take the tracepoint on every call, and run the program's test of its process id.
     */
    SYSCALL_TRACEPOINT("syscall-tracepoint", "tp_btf/sys_enter"),
    /**
     * {@code fentry/__secure_computing}: only tasks with a seccomp filter (a floor) call
     * {@code __secure_computing}, so a process without a floor never reaches the program. Needs
     * BPF trampolines, which some kernels refuse (a refusal, never a fallback to the tracepoint).
     */
    SECCOMP_FENTRY("seccomp-fentry", "fentry/__secure_computing");

    private final String wire;
    private final String section;

    Hook(String wire, String section) {
        this.wire = wire;
        this.section = section;
    }

    /** The name used on the command line and in results. */
    public String wire() {
        return wire;
    }

    /** The program's attach point as libbpf names it. */
    public String section() {
        return section;
    }

    /** The native constant ({@code follower.h}'s {@code HF_HOOK_*}). */
    int code() {
        return ordinal();
    }
}
