package heimdall.lab.broker;

/**
 * The native supervisor: a C pthread in {@code libheimdall.so} ({@code native/broker/supervisor.c})
 * pinned to its CPU, giving every call one fixed answer. The reference against which the Java
 * supervisor is measured. With {@code CONTINUE}, {@code ERROR} or {@code VALUE} it waits blocked in
 * the kernel's receive (one system call fewer a round trip than {@code poll()} and receive, which a
 * Java policy, the broker answer and {@link SupervisorOptions#pollWait()} use); {@link #stop()}
 * then interrupts that wait with a real-time signal ({@code hl_sup_stop_signal}, {@code SIGRTMIN + 2}),
 * whose no-op handler the first such start installs in this process.
 */
public final class NativeSupervisor implements Supervisor {
    private final long handle;
    private final long[] counters = new long[BrokerNative.NCOUNTERS];
    private SupervisorStats last;
    private boolean stopped;

    private NativeSupervisor(long handle) {
        this.handle = handle;
    }

    static NativeSupervisor start(int listenerFd, SupervisorOptions options, Answer answer) {
        return start(listenerFd, options, answer, 0);
    }

    /** With the broker's opt-ins {@code rules} ({@link SupervisorStart#rules}; 0 the defaults). */
    static NativeSupervisor start(int listenerFd, SupervisorOptions options, Answer answer, int rules) {
        SupervisorStart.requireSupported();
        SupervisorStart.requireListener(listenerFd);
        int inDir = SupervisorStart.openInDir(options, answer.kind() == Answer.Kind.BROKER);
        try {
            int code = switch (answer.kind()) {
                case CONTINUE -> BrokerNative.ANSWER_CONTINUE;
                case BROKER -> BrokerNative.ANSWER_BROKER;
                case ERROR -> BrokerNative.ANSWER_ERROR;
                case VALUE -> BrokerNative.ANSWER_VALUE;
            };
            long h = BrokerNative.hl_sup_start_set(
                    listenerFd,
                    options.cpu(),
                    options.cpuSet(),
                    code,
                    answer.value(),
                    inDir,
                    (options.syncWakeUp() ? BrokerNative.SUP_SYNC_WAKEUP : 0)
                            | (options.pollWait() ? BrokerNative.SUP_POLL_WAIT : 0)
                            | (rules << BrokerNative.SUP_RULES_SHIFT));
            if (h < 0) {
                throw SupervisorStart.startFailure(options, (int) -h);
            }
            // Before any read is handed off (40 ms at the earliest), so before any could be given up.
            BrokerNative.hl_sup_set_give_up(h, options.readGiveUp().toNanos());
            return new NativeSupervisor(h);
        } finally {
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir); // the supervisor keeps its own dup
            }
        }
    }

    @Override
    public Kind kind() {
        return Kind.NATIVE;
    }

    @Override
    public synchronized SupervisorStats stats() {
        if (stopped) {
            return last;
        }
        BrokerNative.hl_sup_stats(handle, counters, counters.length);
        return SupervisorStats.of(counters);
    }

    @Override
    public synchronized SupervisorStats stop() {
        if (!stopped) {
            BrokerNative.hl_sup_stop(handle);
            BrokerNative.hl_sup_stats(handle, counters, counters.length);
            last = SupervisorStats.of(counters);
            BrokerNative.hl_sup_free(handle);
            stopped = true;
        }
        return last;
    }

    /** Test hook: hold the next notification after receiving it until {@link #resume()}. */
    synchronized void holdNext() {
        if (!stopped) {
            BrokerNative.hl_sup_hold_next(handle);
        }
    }

    /** Test hook: release a held notification. */
    synchronized void resume() {
        if (!stopped) {
            BrokerNative.hl_sup_resume(handle);
        }
    }
}
