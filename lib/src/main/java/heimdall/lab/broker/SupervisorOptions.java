package heimdall.lab.broker;

import java.nio.file.Path;
import java.time.Duration;

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
 * @param readGiveUp how long a read of the caller's memory may last once handed off (its thread
 *     blocked past the 40 ms deadline: another thread serves the other calls meanwhile) before its call
 *     is answered {@code EIO}: seconds, far beyond the tens of milliseconds a caller's own fork or
 *     mprotect holds its memory-map lock (see the README, "No child can freeze a supervisor"); default
 *     {@link #DEFAULT_READ_GIVE_UP}. Between 100 ms and 10 minutes.
 */
public record SupervisorOptions(
        int cpu, long cpuSet, Path inDir, boolean syncWakeUp, boolean pollWait, Duration readGiveUp) {
    /** The give-up deadline of a handed-off read, unless set. */
    public static final Duration DEFAULT_READ_GIVE_UP = Duration.ofNanos(BrokerNative.GIVE_UP_NS);

    static final Duration MIN_READ_GIVE_UP = Duration.ofMillis(100);
    static final Duration MAX_READ_GIVE_UP = Duration.ofMinutes(10);

    public SupervisorOptions {
        if (readGiveUp == null
                || readGiveUp.compareTo(MIN_READ_GIVE_UP) < 0
                || readGiveUp.compareTo(MAX_READ_GIVE_UP) > 0) {
            throw new IllegalArgumentException("the read give-up must be between " + MIN_READ_GIVE_UP.toMillis()
                    + " ms and " + MAX_READ_GIVE_UP.toMinutes() + " minutes, not " + readGiveUp);
        }
        if (cpu < -1) {
            throw new IllegalArgumentException("cpu must be -1 (unpinned) or a CPU number, not " + cpu);
        }
        if (cpuSet != 0 && cpu != -1) {
            throw new IllegalArgumentException("a CPU set goes with cpu -1, not with CPU " + cpu);
        }
    }

    /** The default read give-up. */
    public SupervisorOptions(int cpu, long cpuSet, Path inDir, boolean syncWakeUp, boolean pollWait) {
        this(cpu, cpuSet, inDir, syncWakeUp, pollWait, DEFAULT_READ_GIVE_UP);
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
        return new SupervisorOptions(cpu, 0, inDir, syncWakeUp, pollWait, readGiveUp);
    }

    /** Free to run on the CPUs of {@code cpuSet} (bit c = CPU c), not pinned to one. */
    public SupervisorOptions onCpuSet(long cpuSet) {
        return new SupervisorOptions(-1, cpuSet, inDir, syncWakeUp, pollWait, readGiveUp);
    }

    public SupervisorOptions brokeringBeneath(Path inDir) {
        return new SupervisorOptions(cpu, cpuSet, inDir, syncWakeUp, pollWait, readGiveUp);
    }

    public SupervisorOptions withSyncWakeUp(boolean on) {
        return new SupervisorOptions(cpu, cpuSet, inDir, on, pollWait, readGiveUp);
    }

    /** With {@code on}, the native supervisor waits in {@code poll()} before each receive. */
    public SupervisorOptions withPollWait(boolean on) {
        return new SupervisorOptions(cpu, cpuSet, inDir, syncWakeUp, on, readGiveUp);
    }

    /** A handed-off read's call is answered {@code EIO} once the read has lasted {@code giveUp}. */
    public SupervisorOptions withReadGiveUp(Duration giveUp) {
        return new SupervisorOptions(cpu, cpuSet, inDir, syncWakeUp, pollWait, giveUp);
    }
}
