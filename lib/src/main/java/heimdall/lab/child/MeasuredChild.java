package heimdall.lab.child;

import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs measured children: each run is a fresh {@code heimdall-runner} process (no Java in it) that
 * pins itself, installs the spec's programs, makes the warm-up and measured calls and writes its
 * samples into memory shared with this JVM.
 *
 * <p>No child outlives the JVM: live children are killed by a shutdown hook, and a JVM that dies
 * without running hooks takes its children with it through {@code PR_SET_PDEATHSIG(SIGKILL)}. The
 * native library spawns every child from one thread of its own that lives as long as the process,
 * because the parent-death signal fires when the spawning <em>thread</em> exits: so it is safe to
 * start a child on one Java thread, let that thread end, and await the child on another.
 */
public final class MeasuredChild {
    private static final Set<RunningChild> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            for (RunningChild c : LIVE) {
                                c.kill();
                            }
                        },
                        "heimdall-child-reaper"));
    }

    private MeasuredChild() {}

    /** Runs the spec to its end and returns the result; whatever the child's fate, it is reaped. */
    public static ChildResult run(ChildSpec spec) {
        try (RunningChild child = start(spec)) {
            return child.await();
        }
    }

    /**
     * Starts a child and returns at once; use this when something must happen while it runs (serving
     * its listener). Close it (try-with-resources) to be sure it is killed and reaped.
     *
     * @throws Refusal when the runner cannot be spawned, or the kernel's clocksource has no vDSO path
     *     ({@link Clocksource}: the child's clock would be a system call)
     */
    public static RunningChild start(ChildSpec spec) {
        byte[] bytes = spec.encode();
        // Read at every start: the kernel's watchdog can switch the clocksource (tsc to hpet) while a run goes on.
        Clocksource.current().requireVdso();
        long handle = NativeLib.hl_run_spawn(NativeLib.runner().toString(), bytes, bytes.length);
        if (handle < 0) {
            throw new Refusal("cannot spawn " + NativeLib.runner() + ": " + Errno.name((int) -handle));
        }
        RunningChild child = new RunningChild(spec, handle);
        LIVE.add(child);
        return child;
    }

    /**
     * The timer's own cost: {@code n} samples of two back-to-back {@code clock_gettime(CLOCK_MONOTONIC)}
     * reads in a child pinned to {@code cpu}, after a warm-up of {@code n / 10} pairs.
     */
    public static ChildResult timerCost(int cpu, long n) {
        return run(ChildSpec.timer(cpu, n / 10, n)).requireCompleted();
    }

    /**
     * Kills every child that is running now (Ctrl-C during a measurement: the loop stops, and the run
     * that was cut short is not counted). Their owners still reap them.
     */
    public static void killLive() {
        for (RunningChild c : LIVE) {
            c.kill();
        }
    }

    /** Children started and not yet reaped (for tests and diagnostics). */
    public static int live() {
        return LIVE.size();
    }

    static void forget(RunningChild child) {
        LIVE.remove(child);
    }
}
