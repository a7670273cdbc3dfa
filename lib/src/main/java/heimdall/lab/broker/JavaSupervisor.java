package heimdall.lab.broker;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java supervisor: a Java thread pinned to its CPU through JNA ({@code sched_setaffinity} of the
 * calling thread) that asks a {@link Policy} for each call's answer. Receiving and answering go
 * through the native library's small entry points with preallocated direct buffers; the loop itself
 * allocates nothing (checked by a test with the thread's allocated-bytes counter), so what it adds to
 * the native supervisor's round trip is JNA's call overhead and the policy.
 *
 * <p>A {@link Answer#BROKER} answer is taken in steps through the native library, so that the policy
 * sees what it decides on: the path is read once into the {@link Notification}'s buffer (by the policy
 * or, if it did not look, by the broker), looked up from that copy ({@code hl_broker_open}: an
 * {@code O_PATH} descriptor beneath {@code in/}, regular files and asked-for directories only, nothing
 * opened for reading), admitted by {@link Policy#admit} on that descriptor's {@code fstat}, and only
 * then reopened for reading and injected ({@code hl_broker_send}). Every call kind of {@link OpenCall}
 * is served the same way. Refusals answer {@code EACCES}; a policy that throws gets {@code EPERM}.
 */
public final class JavaSupervisor implements Supervisor {
    private final int listener;
    private final int stopFd;
    private final int inDir;
    private final int cpu;
    private final long cpuSet;
    private final Policy policy;
    private final Notification view;
    private final AtomicLongArray counters = new AtomicLongArray(BrokerNative.NCOUNTERS);
    private final AtomicReference<Throwable> policyFailure = new AtomicReference<>();
    private final CountDownLatch pinned = new CountDownLatch(1);
    private final Thread thread;
    private SupervisorStats last;
    private boolean stopped;

    private JavaSupervisor(int listener, int stopFd, int inDir, int cpu, long cpuSet, Policy policy) {
        this.listener = listener;
        this.stopFd = stopFd;
        this.inDir = inDir;
        this.cpu = cpu;
        this.cpuSet = cpuSet;
        this.policy = policy;
        this.view = new Notification(listener);
        this.thread = new Thread(this::run, "heimdall-java-supervisor-" + listener);
        this.thread.setDaemon(true);
    }

    static JavaSupervisor start(int listenerFd, SupervisorOptions options, Policy policy) {
        if (policy == null) {
            throw new IllegalArgumentException("policy is null");
        }
        Starts.requireSupported();
        Starts.requireListener(listenerFd);
        if (options.syncWakeUp()) {
            int r = BrokerNative.hl_notif_set_flags(listenerFd, BrokerNative.SYNC_WAKE_UP_FLAG);
            if (r < 0) {
                throw Starts.startFailure(options, -r);
            }
        }
        // A policy may answer BROKER only sometimes, so in/ is optional here; without it such an
        // answer fails with EBADF.
        int inDir = Starts.openInDir(options, false);
        int stopFd = BrokerNative.hl_eventfd();
        if (stopFd < 0) {
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            throw Starts.startFailure(options, -stopFd);
        }
        JavaSupervisor s = new JavaSupervisor(listenerFd, stopFd, inDir, options.cpu(), options.cpuSet(), policy);
        s.thread.start();
        try {
            s.awaitPinned();
        } catch (RuntimeException e) {
            BrokerNative.hl_close(stopFd);
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            throw e;
        }
        return s;
    }

    private void awaitPinned() {
        try {
            pinned.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new heimdall.lab.Refusal("interrupted while starting the Java supervisor");
        }
        long granted = counters.get(BrokerNative.C_CPU);
        if (granted < -1) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw Starts.startFailure(new SupervisorOptions(cpu, cpuSet, null, false), (int) -granted);
        }
    }

    private void bump(int c) {
        counters.lazySet(c, counters.get(c) + 1); // one writer: this thread
    }

    private void fail(int errno) {
        bump(BrokerNative.C_FAILURES);
        counters.lazySet(BrokerNative.C_LAST_ERRNO, errno);
    }

    private void countSend(int r, int ok) {
        if (r == 0) {
            bump(ok);
        } else if (r == -BrokerNative.ENOENT) {
            bump(BrokerNative.C_GONE);
        } else {
            fail(-r);
        }
    }

    private void countBroker(int r) {
        if (r >= 0) {
            bump(BrokerNative.C_BROKERED);
        } else if (r == BrokerNative.BROKER_GONE) {
            bump(BrokerNative.C_GONE);
        } else if (r <= BrokerNative.BROKER_FAILED) {
            fail(BrokerNative.BROKER_FAILED - r);
        } else if (r <= BrokerNative.BROKER_REFUSED) {
            bump(BrokerNative.C_REFUSED);
            bump(BrokerNative.C_ERRORED);
        } else {
            bump(BrokerNative.C_ERRORED);
        }
    }

    private void run() {
        if (cpu >= 0) {
            // hl_pin_self: the CPU the thread runs on once pinned, or -errno
            int r = heimdall.lab.sys.NativeLib.hl_pin_self(cpu);
            counters.set(BrokerNative.C_CPU, r >= 0 ? cpu : r);
        } else if (cpuSet != 0) {
            // a set: free to migrate among its CPUs, so no one CPU to report
            int r = heimdall.lab.sys.NativeLib.hl_pin_self_set(cpuSet);
            counters.set(BrokerNative.C_CPU, r >= 0 ? -1 : r);
        } else {
            counters.set(BrokerNative.C_CPU, -1);
        }
        pinned.countDown();
        if (counters.get(BrokerNative.C_CPU) < -1) {
            return;
        }
        final int fd = listener;
        final Notification n = view;
        final long slots = n.slotsAddress();
        for (;;) {
            int r = BrokerNative.hl_notif_recv(fd, stopFd, slots);
            if (r == BrokerNative.RECV_STOPPED) {
                break;
            }
            if (r == BrokerNative.RECV_HUNGUP) {
                counters.set(BrokerNative.C_ENDED, 1);
                break;
            }
            if (r == -BrokerNative.EINTR) {
                continue;
            }
            if (r == -BrokerNative.ENOENT) {
                bump(BrokerNative.C_GONE);
                continue;
            }
            if (r < 0) {
                fail(-r);
                counters.set(BrokerNative.C_ENDED, 1);
                break;
            }
            bump(BrokerNative.C_RECEIVED);
            n.reset();
            Answer a;
            try {
                a = policy.decide(n);
                if (a == null) {
                    throw new NullPointerException("policy returned no answer");
                }
            } catch (Throwable t) {
                // The call must still be answered, or its caller waits until the listener closes.
                policyFailure.compareAndSet(null, t);
                fail(BrokerNative.EPERM);
                a = Answer.error(BrokerNative.EPERM);
            }
            switch (a.kind()) {
                case CONTINUE -> countSend(BrokerNative.hl_notif_continue(fd, n.id()), BrokerNative.C_CONTINUED);
                case ERROR -> countSend(BrokerNative.hl_notif_error(fd, n.id(), (int) a.value()), BrokerNative.C_ERRORED);
                case VALUE -> countSend(BrokerNative.hl_notif_value(fd, n.id(), a.value()), BrokerNative.C_VALUED);
                case BROKER -> countBroker(broker(fd, n, slots));
            }
        }
    }

    /**
     * The broker answer on the policy's copy of the path: read once (here only if the policy did not),
     * looked up from that copy with O_PATH, admitted by the policy, then reopened and injected. The
     * result in the native encoding.
     */
    private int broker(int fd, Notification n, long slots) {
        int arg = n.brokerPathArg(); // -1: a call the broker does not serve, refused by the open
        // The policy's copy if it read one; else the open reads the path itself, once, into the same buffer.
        int len = arg < 0 ? 0 : n.pathReadOf(arg);
        int file = BrokerNative.hl_broker_open(fd, slots, n.pathAddress(), len, inDir);
        if (file < 0) {
            return file; // answered already (refused, failed, or the caller is gone)
        }
        n.adoptBrokerRead(arg); // so that admit sees that copy through readPath/path
        boolean admitted;
        try {
            admitted = policy.admit(n);
        } catch (Throwable t) {
            policyFailure.compareAndSet(null, t);
            fail(BrokerNative.EPERM);
            BrokerNative.hl_close(file); // the O_PATH descriptor: nothing was opened for reading
            int r = BrokerNative.hl_notif_error(fd, n.id(), BrokerNative.EPERM);
            return r == 0 ? -BrokerNative.EPERM : r == -BrokerNative.ENOENT ? BrokerNative.BROKER_GONE : BrokerNative.BROKER_FAILED + r;
        }
        return admitted ? BrokerNative.hl_broker_send(fd, slots, file)
                : BrokerNative.hl_broker_refuse(fd, n.id(), file, BrokerNative.EACCES);
    }

    @Override
    public Kind kind() {
        return Kind.JAVA;
    }

    @Override
    public synchronized SupervisorStats stats() {
        if (stopped) {
            return last;
        }
        return snapshot();
    }

    private SupervisorStats snapshot() {
        long[] c = new long[BrokerNative.NCOUNTERS];
        for (int i = 0; i < c.length; i++) {
            c[i] = counters.get(i);
        }
        return SupervisorStats.of(c);
    }

    @Override
    public synchronized SupervisorStats stop() {
        if (!stopped) {
            BrokerNative.hl_eventfd_signal(stopFd);
            boolean interrupted = false;
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            BrokerNative.hl_close(listener);
            BrokerNative.hl_close(stopFd);
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            last = snapshot();
            stopped = true;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return last;
    }

    /** The first exception a policy threw (that call was answered with EPERM), or null. */
    public Throwable policyFailure() {
        return policyFailure.get();
    }

    /** The supervisor thread's id, for allocation checks. */
    long threadId() {
        return thread.getId();
    }
}
