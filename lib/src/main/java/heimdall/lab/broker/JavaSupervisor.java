package heimdall.lab.broker;

import static heimdall.lab.Errno.EACCES;
import static heimdall.lab.Errno.EALREADY;
import static heimdall.lab.Errno.EINTR;
import static heimdall.lab.Errno.EIO;
import static heimdall.lab.Errno.ENOENT;
import static heimdall.lab.Errno.EPERM;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

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
 *
 * <p>How it waits. Given one fixed answer other than {@code BROKER} ({@link Supervisor#start(Kind, int,
 * SupervisorOptions, Answer)}) it blocks in the kernel's receive itself, as the native supervisor does,
 * and {@link #stop()} interrupts that wait with the native supervisor's stop signal sent to this
 * thread ({@code hl_sup_thread_prepare}/{@code hl_sup_thread_signal}). A policy (or {@code BROKER})
 * waits in {@code poll()} on the listener and a stop eventfd, since a signal could interrupt its
 * answer half-way.
 *
 * <p>A read that takes long. A policy's {@link Notification#readPath} and the broker's open read the
 * caller's memory through {@code /proc/PID/mem} (a userfaultfd page answers {@code EFAULT} at once);
 * that read waits for the caller's memory-map lock, which the caller's own fork or mprotect holds for
 * tens of milliseconds with a big heap, and a FUSE-backed or hung page holds it for ever. The same
 * rule as the native supervisor's ({@code native/broker/supervisor.c}): a watchdog thread (whenever a
 * policy may read: not for the fixed answers) HANDS OFF a read whose thread has been blocked
 * {@link BrokerNative#READ_DEADLINE_NS} (preempted time does not count): that thread keeps its call, answers it
 * itself when the read ends and leaves, while a new loop thread, with its own view, takes over the
 * listener at once; note that the policy may then run on two threads. A handed-off read that has
 * lasted {@link SupervisorOptions#readGiveUp()} is GIVEN UP: the watchdog answers its call with
 * {@code EIO}, and the thread, when its read ends, answers nothing (its reads return {@code -ESRCH}).
 * Nobody is killed. At most {@link BrokerNative#MAX_PARKED} handed-off threads at once (past it the other calls
 * wait); at most {@link BrokerNative#MAX_STUCK} given-up threads still blocked, one more and the supervisor fails
 * closed (the listener is closed, every call of the filter fails with {@code ENOSYS}). A thread whose
 * page never arrives stays blocked in the kernel.
 */
public final class JavaSupervisor implements Supervisor {
    /** The deadlines and limits are the native supervisor's, from hl_broker.h through BrokerNative. */
    private static final long WATCH_PERIOD_NS = TimeUnit.MILLISECONDS.toNanos(BrokerNative.WATCH_PERIOD_MS);

    private static final long WATCH_STEP_NS = TimeUnit.MILLISECONDS.toNanos(BrokerNative.WATCH_STEP_MS);

    private final int listener;
    private final int stopFd;
    private final int inDir;
    private final int cpu;
    private final long cpuSet;
    private final Policy policy;
    /** The policy's opt-ins for the broker answer (HL_RULE_*), read once at start. */
    private final int rules;
    /** A fixed answer other than BROKER: waits blocked in RECV (see the class comment). */
    private final boolean blocking;

    private final long giveUpNs;
    private final AtomicLongArray counters = new AtomicLongArray(BrokerNative.NCOUNTERS);
    /** Counts by threads other than the serving loop (handed-off ones, the watchdog): atomic adds. */
    private final AtomicLongArray late = new AtomicLongArray(BrokerNative.NCOUNTERS);
    /** The handed-off loops, and how many of them were given up; guarded by itself. */
    private final List<Loop> parked = new ArrayList<>();

    private int stuck;
    private final AtomicReference<Throwable> policyFailure = new AtomicReference<>();
    private final CountDownLatch pinned = new CountDownLatch(1);
    /** Loops abandoned and not ended yet: they may still name the listener's number. */
    private final AtomicInteger abandoned = new AtomicInteger();

    private final Thread watchdog;
    /** The watchdog's hl_watch_check state (three int64 slots). */
    private final ByteBuffer check = ByteBuffer.allocateDirect(3 * 8).order(ByteOrder.nativeOrder());

    private final long checkAddress = Pointer.nativeValue(Native.getDirectBufferPointer(check));
    private volatile Loop live;
    private volatile boolean stopping;
    private volatile int startErrno;
    private int generation;
    private SupervisorStats last;
    private boolean stopped;
    private boolean closed;
    private boolean retired;

    private JavaSupervisor(
            int listener, int stopFd, int inDir, SupervisorOptions options, Policy policy, boolean blocking) {
        this.listener = listener;
        this.stopFd = stopFd;
        this.inDir = inDir;
        this.cpu = options.cpu();
        this.cpuSet = options.cpuSet();
        this.giveUpNs = options.readGiveUp().toNanos();
        this.policy = policy;
        this.rules = SupervisorStart.rules(policy);
        this.blocking = blocking;
        this.live = new Loop(0);
        this.watchdog = blocking ? null : new Thread(this::watch, "heimdall-java-supervisor-watch-" + listener);
        if (watchdog != null) {
            watchdog.setDaemon(true);
        }
    }

    static JavaSupervisor start(int listenerFd, SupervisorOptions options, Policy policy) {
        return start(listenerFd, options, policy, null);
    }

    /**
     * Starts it; {@code fixed}: the one answer {@code policy} always gives, if known (a fixed answer
     * other than BROKER waits blocked in the receive), else null.
     */
    static JavaSupervisor start(int listenerFd, SupervisorOptions options, Policy policy, Answer fixed) {
        if (policy == null) {
            throw new IllegalArgumentException("policy is null");
        }
        SupervisorStart.requireSupported();
        SupervisorStart.requireListener(listenerFd);
        if (options.syncWakeUp()) {
            int r = BrokerNative.hl_notif_set_flags(listenerFd, BrokerNative.SYNC_WAKE_UP_FLAG);
            if (r < 0) {
                throw SupervisorStart.startFailure(options, -r);
            }
        }
        // A policy may answer BROKER only sometimes, so in/ is optional here; without it such an
        // answer fails with EBADF.
        int inDir = SupervisorStart.openInDir(options, false);
        int stopFd = BrokerNative.hl_eventfd();
        if (stopFd < 0) {
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            throw SupervisorStart.startFailure(options, -stopFd);
        }
        boolean blocking = fixed != null && fixed.kind() != Answer.Kind.BROKER && !options.pollWait();
        JavaSupervisor s = new JavaSupervisor(listenerFd, stopFd, inDir, options, policy, blocking);
        s.live.thread.start();
        try {
            s.awaitPinned(options);
        } catch (RuntimeException e) {
            BrokerNative.hl_close(stopFd);
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            throw e;
        }
        if (s.watchdog != null) {
            s.watchdog.start();
        }
        return s;
    }

    private void awaitPinned(SupervisorOptions options) {
        try {
            pinned.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refusal("interrupted while starting the Java supervisor");
        }
        long granted = counters.get(BrokerNative.C_CPU);
        int errno = granted < -1 ? (int) -granted : startErrno;
        if (errno != 0) {
            try {
                live.thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw SupervisorStart.startFailure(
                    granted < -1 ? new SupervisorOptions(cpu, cpuSet, null, false) : options, errno);
        }
    }

    /** Counts c for loop: a plain store by the serving loop (one writer), an atomic add by any other thread. */
    private void bump(Loop loop, int c) {
        if (loop == null || loop.handedOff) {
            late.incrementAndGet(c);
        } else {
            counters.lazySet(c, counters.get(c) + 1);
        }
    }

    private void fail(Loop loop, int errno) {
        bump(loop, BrokerNative.C_FAILURES);
        counters.set(BrokerNative.C_LAST_ERRNO, errno);
    }

    private void countSend(Loop loop, int r, int ok) {
        if (r == 0) {
            bump(loop, ok);
        } else if (r == -ENOENT) {
            bump(loop, BrokerNative.C_GONE);
        } else {
            fail(loop, -r);
        }
    }

    private void countBroker(Loop loop, int r) {
        if (r >= 0) {
            bump(loop, BrokerNative.C_BROKERED);
        } else if (r == BrokerNative.BROKER_GONE) {
            bump(loop, BrokerNative.C_GONE);
        } else if (r <= BrokerNative.BROKER_FAILED) {
            fail(loop, BrokerNative.BROKER_FAILED - r);
        } else if (r <= BrokerNative.BROKER_REFUSED) {
            bump(loop, BrokerNative.C_REFUSED);
            bump(loop, BrokerNative.C_ERRORED);
        } else {
            bump(loop, BrokerNative.C_ERRORED);
        }
    }

    /** One loop thread with its own view and watch: the serving one, or one abandoned in a read. */
    private final class Loop implements Runnable {
        final Notification view = new Notification(listener, rules);
        /** The native hl_watch: started, pid, id, tid (see hl_broker.h). */
        final ByteBuffer watch =
                ByteBuffer.allocateDirect(BrokerNative.WATCH_LONGS * 8).order(ByteOrder.nativeOrder());

        final long watchAddress = Pointer.nativeValue(Native.getDirectBufferPointer(watch));
        final Thread thread;
        /** Handed off by the watchdog: it answers its own call, then leaves (set under {@code parked}). */
        volatile boolean handedOff;
        /** Its call answered by the watchdog's give-up; guarded by {@code parked}. */
        boolean givenUp;
        /** The fixed answer waiting to go down with the next receive: its counter, -1 for none. */
        int sendCounter = -1;

        long sendId;
        int sendErr;
        long sendValue;
        int sendFlags;
        /** The thread's tid while it may take the stop signal, else -1; guarded by itself. */
        private final int[] tid = {-1};

        Loop(int generation) {
            thread = new Thread(
                    this, "heimdall-java-supervisor-" + listener + (generation == 0 ? "" : "-" + generation));
            thread.setDaemon(true);
        }

        boolean abandoned() {
            return watch.getLong(0) == BrokerNative.WATCH_ABANDONED;
        }

        /** The stop signal, only while the thread is known to be alive (a tid is never signalled after it). */
        void signal() {
            synchronized (tid) {
                if (tid[0] > 0) {
                    BrokerNative.hl_sup_thread_signal(tid[0]);
                }
            }
        }

        @Override
        public void run() {
            try {
                serve(this);
            } finally {
                synchronized (tid) {
                    tid[0] = -1;
                }
                // Under the lock the watchdog hands off with: it hands off only a thread it sees reading.
                boolean detached;
                synchronized (parked) {
                    boolean wasAbandoned = BrokerNative.hl_watch_leave(watchAddress) == 1;
                    if (handedOff) {
                        parked.remove(this);
                        if (givenUp) {
                            stuck--;
                        }
                    }
                    detached = wasAbandoned || handedOff;
                }
                if (detached) {
                    // Nobody joins this thread; the last one out closes the descriptors.
                    abandoned.decrementAndGet();
                    closeIfIdle();
                }
            }
        }

        /** Pins (or prepares the stop signal for) this thread; the first loop reports to start. */
        boolean prepare() {
            long granted = -1;
            if (cpu >= 0) {
                // hl_pin_self: the CPU the thread runs on once pinned, or -errno
                int r = NativeLib.hl_pin_self(cpu);
                granted = r >= 0 ? cpu : r;
            } else if (cpuSet != 0) {
                // a set: free to migrate among its CPUs, so no one CPU to report
                int r = NativeLib.hl_pin_self_set(cpuSet);
                granted = r >= 0 ? -1 : r;
            }
            int errno = 0;
            if (granted >= -1 && blocking) {
                int t = BrokerNative.hl_sup_thread_prepare();
                if (t < 0) {
                    errno = -t;
                } else {
                    synchronized (tid) {
                        tid[0] = t;
                    }
                }
            }
            BrokerNative.hl_watch_attach(watchAddress);
            if (pinned.getCount() > 0) {
                counters.set(BrokerNative.C_CPU, granted);
                startErrno = errno;
                pinned.countDown();
            }
            return granted >= -1 && errno == 0;
        }
    }

    /**
     * The loop: {@link #serveOne} until it says stop. Its body is a method of its own because the JIT
     * compiles a method by its calls and a loop only by on-stack replacement: a loop written in one piece
     * ran its first hundreds of thousands of round trips in profiled (tier 3) code, measurably slower
     * than the native supervisor on the child's CPU, where every instruction lies on the round trip's path.
     */
    private void serve(Loop loop) {
        if (!loop.prepare()) {
            return;
        }
        while (serveOne(loop)) {
            // each round trip is serveOne's
        }
    }

    /** Receives one notification and answers it; false when this loop is done (stopped, hung up, abandoned). */
    private boolean serveOne(Loop loop) {
        final int fd = listener;
        final long slots = loop.view.slotsAddress();
        int r;
        if (blocking) {
            if (loop.sendCounter >= 0) {
                r = BrokerJni.answerRecvWait(fd, loop.sendId, loop.sendErr, loop.sendValue, loop.sendFlags, slots);
                countSend(loop, loop.view.sentResult(), loop.sendCounter);
                loop.sendCounter = -1;
            } else if (stopping) {
                return false;
            } else {
                r = BrokerJni.recvWait(fd, slots);
            }
        } else {
            r = BrokerJni.recv(fd, stopFd, slots);
        }
        if (r == BrokerNative.RECV_STOPPED) {
            return false;
        }
        if (r == BrokerNative.RECV_HUNGUP) {
            counters.set(BrokerNative.C_ENDED, 1);
            return false;
        }
        if (r == -EINTR) {
            return true;
        }
        if (r == -ENOENT) {
            bump(loop, BrokerNative.C_GONE);
            return !loop.handedOff;
        }
        if (r < 0) {
            fail(loop, -r);
            counters.set(BrokerNative.C_ENDED, 1);
            return false;
        }
        // false: given up on (stuck in a read, or by stop): another loop owns the listener and counters
        return answer(loop, fd, slots);
    }

    /**
     * Decides and answers the notification just received into {@code loop.view}; false when this loop
     * was abandoned meanwhile. Blocking, a fixed answer is left in {@code loop} to go down with the next
     * receive ({@code hl_notif_answer_recv_wait}): one crossing into native code a round trip, not two.
     */
    private boolean answer(Loop loop, int fd, long slots) {
        final Notification n = loop.view;
        bump(loop, BrokerNative.C_RECEIVED);
        n.reset();
        loop.watch.putLong(16, n.id()); // for the watchdog's give-up: the call this thread handles
        Answer a;
        Throwable thrown = null;
        try {
            a = policy.decide(n);
            if (a == null) {
                throw new NullPointerException("policy returned no answer");
            }
        } catch (Throwable t) {
            thrown = t;
            a = Answer.error(EPERM);
        }
        if (loop.abandoned()) {
            return false;
        }
        if (thrown != null) {
            // The call must still be answered, or its caller waits until the listener closes.
            policyFailure.compareAndSet(null, thrown);
            fail(loop, EPERM);
        }
        Answer.Kind kind = a.kind();
        if (blocking && kind != Answer.Kind.BROKER) {
            loop.sendId = n.id();
            loop.sendErr = kind == Answer.Kind.ERROR ? (int) a.value() : 0;
            loop.sendValue = kind == Answer.Kind.VALUE ? a.value() : 0;
            loop.sendFlags = kind == Answer.Kind.CONTINUE ? BrokerNative.NOTIF_FLAG_CONTINUE : 0;
            loop.sendCounter = kind == Answer.Kind.CONTINUE
                    ? BrokerNative.C_CONTINUED
                    : kind == Answer.Kind.ERROR ? BrokerNative.C_ERRORED : BrokerNative.C_VALUED;
            return true;
        }
        switch (kind) {
            case CONTINUE -> countSend(loop, BrokerNative.hl_notif_continue(fd, n.id()), BrokerNative.C_CONTINUED);
            case ERROR ->
                countSend(loop, BrokerNative.hl_notif_error(fd, n.id(), (int) a.value()), BrokerNative.C_ERRORED);
            case VALUE -> countSend(loop, BrokerNative.hl_notif_value(fd, n.id(), a.value()), BrokerNative.C_VALUED);
            case BROKER -> {
                int b = broker(loop, fd, n, slots);
                if (loop.abandoned()) {
                    return false;
                }
                countBroker(loop, b);
            }
        }
        // Handed off: it has answered its own call; another loop serves the listener now.
        return !loop.handedOff;
    }

    /**
     * The broker answer on the policy's copy of the path: read once (here only if the policy did not),
     * looked up from that copy with O_PATH, admitted by the policy, then reopened and injected. The
     * result in the native encoding.
     */
    private int broker(Loop loop, int fd, Notification n, long slots) {
        int arg = n.brokerPathArg(); // -1: a call the broker does not serve, refused by the open
        // The policy's copy if it read one; else the open reads the path itself, once, into the same buffer.
        int len = arg < 0 ? 0 : n.pathReadOf(arg);
        int file = BrokerJni.open(fd, slots, n.pathAddress(), len, inDir);
        if (file < 0) {
            return file; // answered already (refused, failed, or the caller is gone)
        }
        n.adoptBrokerRead(arg); // so that admit sees that copy through readPath/path
        boolean admitted;
        try {
            admitted = policy.admit(n);
        } catch (Throwable t) {
            policyFailure.compareAndSet(null, t);
            fail(loop, EPERM);
            BrokerNative.hl_close(file); // the O_PATH descriptor: nothing was opened for reading
            int r = BrokerNative.hl_notif_error(fd, n.id(), EPERM);
            return r == 0 ? -EPERM : r == -ENOENT ? BrokerNative.BROKER_GONE : BrokerNative.BROKER_FAILED + r;
        }
        return admitted ? BrokerJni.send(fd, slots, file) : BrokerJni.refuse(fd, n.id(), file, EACCES);
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
            c[i] = counters.get(i) + late.get(i);
        }
        return SupervisorStats.of(c);
    }

    /**
     * The watchdog: hands off a loop stuck in a read past {@link BrokerNative#READ_DEADLINE_NS} and starts another;
     * gives up handed-off reads past the give-up deadline.
     */
    private void watch() {
        while (!stopping) {
            Loop l = live;
            // A short step while a read runs (its blocked time counts from the first sight of it) or a
            // handed-off thread is out, else one period.
            long started = l == null ? 0 : l.watch.getLong(0);
            LockSupport.parkNanos(started > 0 || abandoned.get() > 0 ? WATCH_STEP_NS : WATCH_PERIOD_NS);
            if (stopping) {
                continue;
            }
            if (giveUpParked() > BrokerNative.MAX_STUCK) {
                // Fail closed: more reads that never end than threads we are willing to lose.
                retire();
                counters.set(BrokerNative.C_ENDED, 1);
                return;
            }
            if (l == null || l != live || !handOff(l)) {
                continue;
            }
            // The stuck thread keeps its call; a new loop serves every other one.
            Loop next = new Loop(++generation);
            live = next;
            next.thread.start();
        }
    }

    /** Hands {@code l} off if its read has been blocked {@link BrokerNative#READ_DEADLINE_NS}; whether it did. */
    private boolean handOff(Loop l) {
        if (BrokerNative.hl_watch_check(l.watchAddress, BrokerNative.READ_DEADLINE_NS, checkAddress) <= 0) {
            return false;
        }
        synchronized (parked) {
            // Still in a read (a thread that left reads nothing), and room for it.
            if (parked.size() >= BrokerNative.MAX_PARKED || l.watch.getLong(0) <= 0) {
                return false;
            }
            abandoned.incrementAndGet();
            l.handedOff = true;
            parked.add(l);
        }
        late.incrementAndGet(BrokerNative.C_STALLED);
        return true;
    }

    /**
     * Gives up the handed-off reads that have lasted the give-up deadline, answering each call with
     * {@code EIO}; the number of given-up threads still out.
     */
    private int giveUpParked() {
        long[] ids;
        int n = 0;
        int out;
        synchronized (parked) {
            ids = new long[parked.size()];
            for (Loop l : parked) {
                if (!l.givenUp && BrokerNative.hl_watch_abandon(l.watchAddress, giveUpNs) > 0) {
                    l.givenUp = true;
                    stuck++;
                    ids[n++] = l.watch.getLong(16);
                }
            }
            out = stuck;
        }
        for (int i = 0; i < n; i++) {
            int r = BrokerNative.hl_notif_error(listener, ids[i], EIO);
            if (r == 0) {
                late.incrementAndGet(BrokerNative.C_ERRORED);
                late.incrementAndGet(BrokerNative.C_TIMED_OUT);
            } else if (r == -ENOENT) {
                late.incrementAndGet(BrokerNative.C_GONE);
            } else {
                fail(null, -r);
            }
        }
        return out;
    }

    /**
     * Stop gives up on {@code l} now, reading or not (its call, if any, is answered {@code ENOSYS} when
     * the listener closes). Its read's pid (or {@code WATCH_NOT_READING}) when abandoned, 0 when it had
     * left its loop already.
     */
    private long giveUp(Loop l) {
        abandoned.incrementAndGet();
        long pid;
        // 0: its watch moved between look and swap (a read began or ended); look again.
        while ((pid = BrokerNative.hl_watch_abandon(l.watchAddress, 0)) == 0) {
            Thread.onSpinWait();
        }
        if (pid == -EALREADY) {
            // It has left its loop (stop abandons only the serving loop, which nobody else abandons).
            abandoned.decrementAndGet();
            return 0;
        }
        late.incrementAndGet(BrokerNative.C_STALLED);
        return pid;
    }

    /** Closes the listener itself while its number stays taken (by /dev/null) for threads still out. */
    private synchronized void retire() {
        if (!retired && !closed) {
            BrokerNative.hl_retire_fd(listener);
            retired = true;
        }
    }

    /** Once stopped with no abandoned thread out: closes the descriptors. */
    private synchronized void closeIfIdle() {
        if (stopped && !closed && abandoned.get() == 0) {
            BrokerNative.hl_close(listener);
            BrokerNative.hl_close(stopFd);
            if (inDir >= 0) {
                BrokerNative.hl_close(inDir);
            }
            closed = true;
        }
    }

    @Override
    public synchronized SupervisorStats stop() {
        if (!stopped) {
            long deadline = System.nanoTime() + BrokerNative.STOP_DEADLINE_NS;
            stopping = true;
            BrokerNative.hl_eventfd_signal(stopFd);
            boolean interrupted = false;
            if (watchdog != null) {
                LockSupport.unpark(watchdog);
                interrupted |= joinBy(watchdog, deadline, null);
            }
            Loop l = live;
            if (l != null) {
                interrupted |= joinBy(l.thread, deadline, blocking ? l : null);
                if (l.thread.isAlive() && giveUp(l) == 0) {
                    interrupted |=
                            joinBy(l.thread, System.nanoTime() + BrokerNative.STOP_DEADLINE_NS, null); // it is leaving
                }
                live = null;
            }
            stopped = true;
            if (abandoned.get() > 0) {
                retire(); // waiting calls fail with ENOSYS now; the number is closed when the last thread leaves
            }
            closeIfIdle();
            last = snapshot();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return last;
    }

    /**
     * Joins {@code t} until {@code deadline} (nanoTime), signalling {@code blocked} every 10 ms; whether interrupted.
     */
    private static boolean joinBy(Thread t, long deadline, Loop blocked) {
        boolean interrupted = false;
        for (long left; t.isAlive() && (left = deadline - System.nanoTime()) > 0; ) {
            if (blocked != null) {
                blocked.signal(); // a signal landing just before the receive interrupts nothing: again
            }
            try {
                t.join(Math.max(1, Math.min(10, TimeUnit.NANOSECONDS.toMillis(left))));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }

    /** The first exception a policy threw (that call was answered with EPERM), or null. */
    public Throwable policyFailure() {
        return policyFailure.get();
    }

    /** The supervisor thread's id, for allocation checks. */
    long threadId() {
        Loop l = live;
        return l == null ? -1 : l.thread.getId();
    }
}
