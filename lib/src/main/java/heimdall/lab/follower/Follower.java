package heimdall.lab.follower;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel follower attached for one process: an eBPF program that steps {@link KernelTables} on
 * each call of each of the process's threads (from its next exec on) and, on the first call or
 * handled signal the graph does not allow, sends the process SIGKILL and reports a
 * {@link Divergence}. The kill cannot stop the call under way: that call completes, and the process
 * dies as it returns to user space ({@link Stats#callsAfterKill()} counts any call that still began).
 *
 * <p>Nothing outlives this object or its JVM: the programs are attached through BPF links and the
 * maps held by file descriptors of this process, never pinned, so {@link #close()} or the process's
 * death (even by SIGKILL) detaches and frees them. Not thread-safe: one owner polls and closes.
 */
public final class Follower implements AutoCloseable {
    /** Program names as the kernel lists them ({@code bpftool prog show}): each begins with this. */
    public static final String PROGRAM_PREFIX = "hfollow_";

    static final Path BTF = Path.of("/sys/kernel/btf/vmlinux");

    /**
     * What the follower counted.
     *
     * @param calls calls stepped
     * @param signals signal frames pushed
     * @param callsAfterKill calls of the followed process that began after the kill was sent
     * @param armed the process exec'd and is followed
     * @param killed the follower killed it
     * @param droppedEvents events that did not fit a poll (never expected: one event per run)
     */
    public record Stats(
            long calls, long signals, long callsAfterKill, boolean armed, boolean killed, long droppedEvents) {}

    /**
     * The step program's own cost as the kernel counts it (bpf_prog_info), counted only while
     * {@link RunTimeStats} are on.
     *
     * @param runTimeNs time spent in the program
     * @param runCount times the program ran (on the tracepoint: every call of every task on the host)
     */
    public record ProgramStats(long runTimeNs, long runCount) {
        /** Nanoseconds a run, or null when it never ran. */
        public Double nsPerRun() {
            return runCount == 0 ? null : (double) runTimeNs / runCount;
        }
    }

    /**
     * The kernel's run-time statistics of BPF programs (BPF_ENABLE_STATS), on while this is open.
     * Statistics cost every program run two clock reads, so timed runs are made without them.
     */
    static final class RunTimeStats implements AutoCloseable {
        private int fd;

        private RunTimeStats(int fd) {
            this.fd = fd;
        }

        /** @throws Refusal the kernel refused BPF_ENABLE_STATS (its errno named) */
        static RunTimeStats enable() {
            FollowerNative.load();
            int fd = FollowerNative.hf_enable_stats();
            if (fd < 0) {
                throw new Refusal("the kernel refused BPF_ENABLE_STATS (BPF_STATS_RUN_TIME): " + HookProbe.errno(-fd));
            }
            return new RunTimeStats(fd);
        }

        @Override
        public void close() {
            if (fd >= 0) {
                FollowerNative.hf_close_fd(fd);
                fd = -1;
            }
        }
    }

    private final Hook hook;
    private final int pid;
    private long handle;

    private Follower(Hook hook, int pid, long handle) {
        this.hook = hook;
        this.pid = pid;
        this.handle = handle;
    }

    /**
     * Loads and attaches the follower for process {@code pid}, which is followed from its next exec on
     * (its main thread at entry {@code main}, a thread it creates at the role its creating call site
     * names, {@link ThreadRoles}, else at the union of the thread entries).
     *
     * @throws Refusal not root, no BTF, the hook not attachable, a program the verifier rejected (its
     *     log in the message)
     * @throws BadInput no process {@code pid}
     */
    public static Follower attach(KernelTables tables, int pid, Hook hook) {
        return attach(tables, pid, hook, false);
    }

    /**
     * Like {@link #attach(KernelTables, int, Hook)}, but the process is followed from its next call
     * (no exec awaited): for cost measurements, where {@code tables} allow every call of the child.
     */
    static Follower attachArmed(KernelTables tables, int pid, Hook hook) {
        return attachArmed(tables, pid, hook, FollowStep.FULL);
    }

    /**
     * Like {@link #attachArmed(KernelTables, int, Hook)}, with a followed call's step stopped after {@code step}
     * (a cost measurement's variant: short of {@link FollowStep#FULL} it judges nothing, and it counts the calls
     * only from {@link FollowStep#COUNTERS} on).
     */
    static Follower attachArmed(KernelTables tables, int pid, Hook hook, FollowStep step) {
        return attach(tables, pid, hook, true, step);
    }

    private static Follower attach(KernelTables tables, int pid, Hook hook, boolean armNow) {
        return attach(tables, pid, hook, armNow, FollowStep.FULL);
    }

    private static Follower attach(KernelTables tables, int pid, Hook hook, boolean armNow, FollowStep step) {
        checkHost();
        if (pid <= 0 || !Files.isDirectory(Path.of("/proc/" + pid))) {
            throw new BadInput("pid " + pid + ": no such process");
        }
        FollowerNative.load();
        byte[] err = new byte[1 << 20];
        long h = FollowerNative.hf_open(
                pid,
                armNow ? 1 : 0,
                hook.code(),
                step.code(),
                tables.cells(),
                tables.cells().length,
                tables.columns(),
                tables.mainStart(),
                tables.threadStart(),
                tables.signalStarts(),
                tables.childStarts(),
                err,
                err.length);
        if (h <= 0) {
            String why = cString(err);
            if (hook == Hook.SECCOMP_FENTRY) {
                // Name the facts, probed afresh: which step the kernel refuses, with which errno, for which points.
                throw new Refusal(
                        "hook " + hook.section() + " not attachable: " + why + "\n" + HookProbe.whyNoSeccompOnlyHook());
            }
            throw new Refusal("kernel follower (" + hook.section() + "): " + why);
        }
        return new Follower(hook, pid, h);
    }

    /** Refuses when the host cannot run the follower at all: not root, no kernel BTF. */
    public static void checkHost() {
        if (!root()) {
            throw new Refusal("the kernel follower needs root (CAP_BPF and CAP_PERFMON): effective uid is not 0");
        }
        if (!Files.isReadable(BTF)) {
            throw new Refusal("the kernel follower needs kernel BTF: " + BTF + " is absent (CONFIG_DEBUG_INFO_BTF)");
        }
    }

    private static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    String[] ids = line.substring(4).trim().split("\\s+");
                    return ids.length > 1 && ids[1].equals("0");
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    public Hook hook() {
        return hook;
    }

    public int pid() {
        return pid;
    }

    /** Divergences reported so far, waiting up to {@code timeoutMs} for the first (0: no wait). */
    public List<Divergence> poll(int timeoutMs) {
        open();
        int[] buf = new int[8 * 16];
        int n = FollowerNative.hf_poll(handle, buf, 16, timeoutMs);
        if (n < 0) {
            throw new IllegalStateException("ring buffer poll failed: errno " + -n);
        }
        List<Divergence> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(Divergence.of(buf, i * 8));
        }
        return out;
    }

    public Stats stats() {
        open();
        long[] s = new long[6];
        int rc = FollowerNative.hf_stats(handle, s);
        if (rc != 0) {
            throw new IllegalStateException("cannot read the follower's per-CPU call counts: errno " + -rc);
        }
        return new Stats(s[0], s[1], s[2], s[3] != 0, s[4] != 0, s[5]);
    }

    /** The step program's run time and run count so far (both 0 unless {@link RunTimeStats} were on). */
    public ProgramStats programStats() {
        open();
        long[] s = new long[2];
        int rc = FollowerNative.hf_prog_stats(handle, s);
        if (rc != 0) {
            throw new IllegalStateException("cannot read the follower program's info: errno " + -rc);
        }
        return new ProgramStats(s[0], s[1]);
    }

    /** Points an armed follower at process {@code pid} instead (a cost measurement's next child). */
    void follow(int pid) {
        open();
        FollowerNative.hf_follow(handle, pid);
    }

    private void open() {
        if (handle == 0) {
            throw new IllegalStateException("follower closed");
        }
    }

    /** Detaches and frees the programs and maps. */
    @Override
    public void close() {
        if (handle != 0) {
            FollowerNative.hf_close(handle);
            handle = 0;
        }
    }
}
