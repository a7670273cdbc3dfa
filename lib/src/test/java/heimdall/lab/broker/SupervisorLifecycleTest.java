package heimdall.lab.broker;

import static heimdall.lab.Errno.ENOSYS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.BenchRun;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Callers that die, listeners that close, and what a supervisor leaves behind. */
class SupervisorLifecycleTest {
    private static final int SIGKILL = 9;

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
    }

    /**
     * A worker's call is held at the supervisor (the native test hook, or a Java policy that waits),
     * the worker is killed, and the answer meets a dead caller: counted as gone, and a second worker
     * and the parent are then served normally.
     */
    @ParameterizedTest
    @CsvSource({"NATIVE,broker", "NATIVE,continue", "JAVA,broker", "JAVA,continue"})
    void aCallerThatDiesWhileItsCallWaitsIsHandled(Supervisor.Kind kind, String answerText) throws Exception {
        Answer answer = Answer.parse(answerText, "answer");
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup;
            if (kind == Supervisor.Kind.NATIVE) {
                sup = Supervisor.start(kind, child.takeListener(), job.options(), answer);
                ((NativeSupervisor) sup).holdNext();
            } else {
                CountDownLatch first = new CountDownLatch(1);
                sup = Supervisor.start(child.takeListener(), job.options(), call -> {
                    if (first.getCount() > 0) {
                        first.countDown();
                        holding.countDown();
                        try {
                            release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return answer;
                });
            }
            try (sup) {
                int worker = child.forkOpen("hello.txt");
                if (kind == Supervisor.Kind.NATIVE) {
                    assertTrue(
                            BrokerFixtures.eventually(() -> sup.stats().held() == 1),
                            "the call never reached the supervisor");
                } else {
                    assertTrue(holding.await(10, TimeUnit.SECONDS), "the call never reached the policy");
                }
                ProcessHandle.of(worker).orElseThrow().destroyForcibly();
                assertEquals(SIGKILL, child.reap(), "the worker was not killed");
                if (kind == Supervisor.Kind.NATIVE) {
                    ((NativeSupervisor) sup).resume();
                } else {
                    release.countDown();
                }
                assertTrue(
                        BrokerFixtures.eventually(() -> sup.stats().gone() == 1),
                        "the dead caller was not counted: " + sup.stats());

                int second = child.forkOpen("hello.txt");
                OpenResult r = child.awaitWorkerOpen(second);
                assertTrue(r.fd() >= 0, "second worker not served: errno " + r.errno());
                assertEquals(0, child.reap());
                assertTrue(child.open("hello.txt").fd() >= 0, "parent not served");
                SupervisorStats s = sup.stop();
                assertEquals(3, s.received());
                assertEquals(2, s.answered());
                assertEquals(1, s.gone());
                assertEquals(0, s.failures());
            }
        }
    }

    /** The raw case: a call is received, never answered, and the listener is closed. */
    @Test
    void closingTheListenerFailsAWaitingCallWithEnosys() throws Exception {
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            ByteBuffer slots =
                    ByteBuffer.allocateDirect(BrokerNative.N_LONGS * 8).order(ByteOrder.nativeOrder());
            long addr = com.sun.jna.Pointer.nativeValue(com.sun.jna.Native.getDirectBufferPointer(slots));
            // The fixture replies only after its openat returns; ask from another thread.
            java.util.concurrent.CompletableFuture<OpenResult> pending =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return child.open("hello.txt");
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
            assertEquals(0, BrokerJni.recv(listener, -1, addr), "no notification arrived");
            assertEquals(Notification.OPENAT, (int) slots.getLong(BrokerNative.N_NR * 8));
            assertEquals(0, BrokerNative.hl_close(listener));
            OpenResult r = pending.get(30, TimeUnit.SECONDS);
            assertEquals(-1, r.fd());
            assertEquals(ENOSYS, r.errno());
            assertEquals(ENOSYS, child.open("hello.txt").errno(), "a later call");
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void afterStopTheChildsCallsFailWithEnosysInsteadOfHanging(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER);
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            sup.stop();
            OpenResult r = child.open("hello.txt");
            assertEquals(-1, r.fd());
            assertEquals(ENOSYS, r.errno());
        }
    }

    /** A supervisor given a duplicate: the child fails with ENOSYS only once both copies are closed. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aDuplicatedListenerClosesWhenEveryCopyIsClosed(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child()) {
            int original = child.takeListener();
            Supervisor sup = Supervisor.start(kind, Supervisor.duplicate(original), job.options(), Answer.BROKER);
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            sup.stop();
            // The original still holds the filter's listener open: the call waits until it closes.
            java.util.concurrent.CompletableFuture<OpenResult> pending =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return child.open("hello.txt");
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
            Thread.sleep(200);
            assertTrue(!pending.isDone(), "the call returned while a copy of the listener was open");
            BrokerNative.hl_close(original);
            assertEquals(ENOSYS, pending.get(30, TimeUnit.SECONDS).errno());
        }
    }

    @ParameterizedTest
    @CsvSource({"NATIVE,broker", "JAVA,broker", "NATIVE,continue", "JAVA,continue"})
    void noDescriptorLeaksOver20000Calls(Supervisor.Kind kind, String answerText) throws Exception {
        Answer answer = Answer.parse(answerText, "answer");
        long before = BrokerFixtures.openFds();
        long during;
        try (NotifyChildFixture child = NotifyChildFixture.start(NotifyChildFixture.Options.in(job.in()))) {
            Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), answer);
            long started = BrokerFixtures.openFds();
            // A short run first: a leak of one descriptor a call fails here, before the JVM's own limit.
            assertEquals(0, child.bench(500, 0, "hello.txt").errors());
            long early = BrokerFixtures.openFds();
            assertTrue(Math.abs(early - started) <= 3, "descriptors after 500 calls: " + started + " -> " + early);
            BenchRun run = child.bench(20_000, 0, "hello.txt");
            assertEquals(0, run.errors(), "errno " + run.firstErrno());
            during = BrokerFixtures.openFds();
            SupervisorStats s = sup.stop();
            assertEquals(20_500, answer == Answer.BROKER ? s.brokered() : s.continued());
            assertTrue(Math.abs(during - started) <= 3, "descriptors while running: " + started + " -> " + during);
        }
        long after = BrokerFixtures.openFds();
        assertTrue(Math.abs(after - before) <= 3, "descriptors: " + before + " before, " + after + " after");
    }

    /** The Java supervisor's loop allocates nothing per call (JNA direct calls, reusable view). */
    @ParameterizedTest
    @CsvSource({"broker", "continue"})
    void javaSupervisorAllocatesNothingPerCall(String answerText) throws Exception {
        Answer answer = Answer.parse(answerText, "answer");
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported(), "allocated-bytes counter unsupported");
        threads.setThreadAllocatedMemoryEnabled(true);
        try (NotifyChildFixture child = NotifyChildFixture.start(NotifyChildFixture.Options.in(job.in()))) {
            JavaSupervisor sup = (JavaSupervisor)
                    Supervisor.start(Supervisor.Kind.JAVA, child.takeListener(), job.options(), answer);
            try (sup) {
                child.bench(5_000, 5_000, "hello.txt"); // warm-up: JIT, class loading
                long before = threads.getThreadAllocatedBytes(sup.threadId());
                BenchRun run = child.bench(20_000, 0, "hello.txt");
                long after = threads.getThreadAllocatedBytes(sup.threadId());
                assertEquals(0, run.errors());
                assertTrue(
                        after - before < 20_000,
                        "the supervisor thread allocated " + (after - before) + " bytes over 20,000 calls");
            }
        }
    }
}
