package heimdall.lab.broker;

import java.nio.file.Path;

/**
 * Where and how a supervisor runs.
 *
 * @param cpu the CPU to pin the supervisor thread to, or -1 to leave it unpinned (or on {@code cpuSet})
 * @param cpuSet with {@code cpu} -1: the CPUs the thread may run on (bit c = CPU c, c &lt; 64), free to
 *     migrate among them, as a synchronous wake-up needs; 0 keeps the starting thread's affinity
 * @param inDir the job's {@code in/} directory, beneath which {@link Answer#BROKER} opens paths
 *     (required for that answer, else may be null)
 * @param syncWakeUp set {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP} on the listener (Linux 6.6): the
 *     kernel wakes the supervisor and the caller on the waker's CPU, which only helps when their
 *     affinities allow running there
 * @param pollWait the native supervisor with a fixed answer waits in {@code poll()} and then receives,
 *     as the Java supervisor and the broker answer always do, instead of blocking in the receive
 *     itself (its default, one system call fewer a round trip); kept to measure the two waits
 *     against each other. The Java supervisor ignores it.
 */
public record SupervisorOptions(int cpu, long cpuSet, Path inDir, boolean syncWakeUp, boolean pollWait) {
    public SupervisorOptions {
        if (cpu < -1) {
            throw new IllegalArgumentException("cpu must be -1 (unpinned) or a CPU number, not " + cpu);
        }
        if (cpuSet != 0 && cpu != -1) {
            throw new IllegalArgumentException("a CPU set goes with cpu -1, not with CPU " + cpu);
        }
    }

    /** The native supervisor's default wait. */
    public SupervisorOptions(int cpu, long cpuSet, Path inDir, boolean syncWakeUp) {
        this(cpu, cpuSet, inDir, syncWakeUp, false);
    }

    /** Pinned to {@code cpu} (or unpinned with -1), no CPU set. */
    public SupervisorOptions(int cpu, Path inDir, boolean syncWakeUp) {
        this(cpu, 0, inDir, syncWakeUp);
    }

    /** Unpinned, no {@code in/}, default wake-up. */
    public static SupervisorOptions defaults() {
        return new SupervisorOptions(-1, null, false);
    }

    public SupervisorOptions onCpu(int cpu) {
        return new SupervisorOptions(cpu, 0, inDir, syncWakeUp, pollWait);
    }

    /** Free to run on the CPUs of {@code cpuSet} (bit c = CPU c), not pinned to one. */
    public SupervisorOptions onCpuSet(long cpuSet) {
        return new SupervisorOptions(-1, cpuSet, inDir, syncWakeUp, pollWait);
    }

    public SupervisorOptions brokeringBeneath(Path inDir) {
        return new SupervisorOptions(cpu, cpuSet, inDir, syncWakeUp, pollWait);
    }

    public SupervisorOptions withSyncWakeUp(boolean on) {
        return new SupervisorOptions(cpu, cpuSet, inDir, on, pollWait);
    }

    /** With {@code on}, the native supervisor waits in {@code poll()} before each receive. */
    public SupervisorOptions withPollWait(boolean on) {
        return new SupervisorOptions(cpu, cpuSet, inDir, syncWakeUp, on);
    }
}
