package heimdall.lab.follower;

import com.sun.jna.StringArray;
import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One program run under the kernel follower: a child forked and held at a gate before its exec, the
 * follower attached for it, then the gate opened, so the follower judges every call from the first
 * one after exec (where recorded graphs begin). The child dies with this process
 * (PR_SET_PDEATHSIG) and is killed and reaped on every way out of {@link #run}, so none outlives a run.
 */
public final class FollowedRun {
    private FollowedRun() {}

    /**
     * How the run ended.
     *
     * @param pid the child's pid
     * @param exitCode its exit status, or -1 when a signal ended it
     * @param signal the signal that ended it, or 0
     * @param divergences what the follower reported (empty when the graph allowed every call)
     * @param stats the follower's counts at the end
     */
    public record Outcome(int pid, int exitCode, int signal, List<Divergence> divergences, Follower.Stats stats) {
        /** The follower killed the child. */
        public boolean killed() {
            return stats.killed();
        }
    }

    /**
     * Runs {@code argv} (argv[0] the executable's path) followed by {@code tables} through {@code hook};
     * with {@code floor}, the child installs an allow-everything seccomp filter before its exec (the
     * seccomp hook needs one to be reached).
     *
     * @throws BadInput an empty argv or an executable that is not a regular executable file
     * @throws Refusal as {@link Follower#attach}, or the child outlived {@code timeout}
     */
    public static Outcome run(KernelTables tables, Hook hook, boolean floor, List<String> argv, Duration timeout) {
        if (argv.isEmpty()) {
            throw new BadInput("argv: empty, nothing to run");
        }
        Path exe = Path.of(argv.get(0));
        if (!Files.isRegularFile(exe) || !Files.isExecutable(exe)) {
            throw new BadInput("argv[0] '" + exe + "': not an executable file");
        }
        Follower.checkHost();
        FollowerNative.load();
        int[] gate = new int[1];
        int pid = FollowerNative.hf_spawn(
                exe.toString(), new StringArray(argv.toArray(String[]::new)), floor ? 1 : 0, gate);
        if (pid < 0) {
            throw new Refusal("cannot fork the followed child: errno " + -pid);
        }
        boolean released = false;
        int[] status = new int[1];
        boolean reaped = false;
        try (Follower f = Follower.attach(tables, pid, hook)) {
            if (FollowerNative.hf_release(gate[0]) != 0) {
                throw new Refusal("the followed child " + pid + " was gone before its exec");
            }
            released = true;
            int w = FollowerNative.hf_wait(pid, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()), status);
            if (w < 0) {
                throw new IllegalStateException("waitpid(" + pid + ") failed: errno " + -w);
            }
            if (w == 0) {
                throw new Refusal("the followed child " + pid + " still ran after " + timeout + "; killed");
            }
            reaped = true;
            List<Divergence> ds = new ArrayList<>(f.poll(0));
            Follower.Stats stats = f.stats();
            if (stats.killed() && ds.isEmpty()) {
                ds.addAll(f.poll(100));
            }
            int st = status[0];
            boolean signalled = (st & 0x7f) != 0 && (st & 0x7f) != 0x7f;
            return new Outcome(
                    pid, signalled ? -1 : (st >> 8) & 0xff, signalled ? st & 0x7f : 0, List.copyOf(ds), stats);
        } finally {
            if (!released) {
                FollowerNative.hf_close_gate(gate[0]); // the child reads EOF and exits without exec'ing
            }
            if (!reaped) {
                FollowerNative.hf_kill(pid);
                FollowerNative.hf_wait(pid, -1, status);
            }
        }
    }
}
