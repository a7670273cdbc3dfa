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

    @Override
    public void close() {
        if (handle > 0) {
            FollowerNative.hf_hook_close(handle);
            handle = 0;
        }
    }
}
