package heimdall.lab.follower;

import heimdall.lab.Refusal;

/**
 * An empty BPF program attached alone to a follower's {@link Hook} ({@code native/follower/hookempty.bpf.c}):
 * what the hook itself costs every call it reaches (t_hook), measured in the same run as the follower
 * so that a row tells the hook's cost from the follower's own work. Detached on {@link #close()} (and by
 * the kernel if this process dies: it is held by a link descriptor only).
 */
final class EmptyHook implements AutoCloseable {
    private long handle;

    private EmptyHook(long handle) {
        this.handle = handle;
    }

    /**
     * Loads and attaches the empty program on {@code hook}.
     *
     * @throws Refusal when the kernel refuses the program's load or attach (a kernel fact: BPF
     *     trampolines refused, no BTF), with the step and errno
     */
    static EmptyHook attach(Hook hook) {
        Follower.checkHost();
        FollowerNative.load();
        byte[] err = new byte[4096];
        long h = FollowerNative.hf_hook_open(hook.code(), err, err.length);
        if (h <= 0) {
            throw new Refusal("empty program (" + hook.section() + "): " + Follower.cString(err));
        }
        return new EmptyHook(h);
    }

    /**
     * The empty program's run time and run count so far, as the kernel counts them ({@code bpf_prog_info}, like
     * {@link Follower#programStats()}): both 0 unless {@link Follower.RunTimeStats} were on while it ran.
     */
    Follower.ProgramStats programStats() {
        if (handle <= 0) {
            throw new IllegalStateException("empty program closed");
        }
        long[] s = new long[2];
        int rc = FollowerNative.hf_hook_stats(handle, s);
        if (rc != 0) {
            throw new IllegalStateException("cannot read the empty program's info: errno " + -rc);
        }
        return new Follower.ProgramStats(s[0], s[1]);
    }

    @Override
    public void close() {
        if (handle > 0) {
            FollowerNative.hf_hook_close(handle);
            handle = 0;
        }
    }
}
