/**
 * The broker: supervisors of seccomp user notifications (DESIGN.md "Broker", issue 4).
 *
 * <p>A measured child's brokered calls (under the broker floor, {@link heimdall.lab.floor.Floors#brokerFloor()}:
 * {@code open}, {@code openat}, {@code openat2}, {@code creat}, see {@link heimdall.lab.broker.OpenCall})
 * return {@code SECCOMP_RET_USER_NOTIF}; its
 * listener fd reaches this process (over {@code SCM_RIGHTS} from the measured child, or
 * {@code pidfd_getfd}) and is handed to a {@link heimdall.lab.broker.Supervisor}:
 *
 * <pre>{@code
 * SupervisorOptions o = SupervisorOptions.defaults().onCpu(1).brokeringBeneath(jobDir.resolve("in"));
 * try (Supervisor s = Supervisor.start(Supervisor.Kind.NATIVE, listenerFd, o, Answer.BROKER)) {
 *     ... run the child ...
 *     SupervisorStats stats = s.stop();
 * }
 * // or a notebook's own rule, on the Java supervisor:
 * Supervisor s = Supervisor.start(listenerFd, o,
 *         call -> call.call() != OpenCall.OTHER ? Answer.BROKER : Answer.error(1));
 * }</pre>
 *
 * <p>By default the broker hands over no directory and opens as its caller would (the calling thread's fsuid,
 * fsgid and groups); {@link heimdall.lab.broker.Policy#allowingDirectories()} and
 * {@link heimdall.lab.broker.Policy#asSupervisor()} lift those, each saying what it gives away
 * ({@code docs/broker-trust.md}).
 *
 * <p>{@link heimdall.lab.broker.NotifyChildFixture} is a test fixture (a small notified child), and
 * {@link heimdall.lab.broker.BrokerBench} the quick round-trip bench behind {@code ./lab broker bench}.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code child}, {@code command} and {@code bench} (its
 * statistics); {@code bench} uses it back (the floor bench drives a supervisor): the two are one concern, one
 * of the two cycles the package rule allows ({@code heimdall.lab}).
 */
package heimdall.lab.broker;
