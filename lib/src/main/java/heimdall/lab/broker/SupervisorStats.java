package heimdall.lab.broker;

/**
 * A supervisor's counters. Both supervisors keep the same ones.
 *
 * @param received notifications received
 * @param continued answered {@code CONTINUE}
 * @param brokered answered with an injected descriptor
 * @param errored answered with an errno ({@code refused} included)
 * @param valued answered with a return value
 * @param refused brokered calls refused with {@code EACCES}: a path escaping {@code in/}, write access, a
 *     foreign dirfd, a FIFO, socket or device, a directory not asked for, a file with several links
 *     not admitted
 * @param gone calls whose caller died before the answer (nothing left to answer)
 * @param failures supervisor-side failures (an answer the kernel rejected, a throwing policy)
 * @param cpu the CPU the supervisor thread is pinned to, -1 when unpinned
 * @param ended whether the loop ended on its own: the listener hung up (every notified process gone)
 *     or became unusable
 * @param held notifications held by the native supervisor's test hook
 * @param lastErrno the errno of the last failure, 0 if none
 * @param stalled calls handed off: a read of the caller's memory whose thread was blocked past the 40 ms
 *     deadline (the caller's own fork or mprotect holding its memory-map lock, a FUSE or hung page),
 *     left to that thread to answer while another loop thread serves on; and loops {@code stop()} could
 *     not join in time
 * @param timedOut handed-off calls whose read outlasted {@link SupervisorOptions#readGiveUp()}, answered
 *     {@code EIO} by the watchdog (nobody is killed)
 */
public record SupervisorStats(
        long received,
        long continued,
        long brokered,
        long errored,
        long valued,
        long refused,
        long gone,
        long failures,
        int cpu,
        boolean ended,
        long held,
        int lastErrno,
        long stalled,
        long timedOut) {

    /** Calls answered (continue, broker, error or value). */
    public long answered() {
        return continued + brokered + errored + valued;
    }

    static SupervisorStats of(long[] c) {
        return new SupervisorStats(
                c[BrokerNative.C_RECEIVED],
                c[BrokerNative.C_CONTINUED],
                c[BrokerNative.C_BROKERED],
                c[BrokerNative.C_ERRORED],
                c[BrokerNative.C_VALUED],
                c[BrokerNative.C_REFUSED],
                c[BrokerNative.C_GONE],
                c[BrokerNative.C_FAILURES],
                (int) c[BrokerNative.C_CPU],
                c[BrokerNative.C_ENDED] != 0,
                c[BrokerNative.C_HELD],
                (int) c[BrokerNative.C_LAST_ERRNO],
                c[BrokerNative.C_STALLED],
                c[BrokerNative.C_TIMED_OUT]);
    }
}
