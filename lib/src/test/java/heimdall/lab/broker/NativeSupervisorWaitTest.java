package heimdall.lab.broker;

import static heimdall.lab.Errno.ENOSYS;
import static heimdall.lab.Errno.EPERM;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.BenchRun;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native supervisor's two waits: blocked in the kernel's receive (its default with a fixed
 * answer, stopped by a signal) and {@code poll()} before each receive. Each must answer every call,
 * stop promptly whether idle or busy, end by itself when the child is gone, and leave no thread.
 */
class NativeSupervisorWaitTest {
    private static final String THREAD_NAME = "hl-sup";

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
    }

    @AfterEach
    void noSupervisorThreadIsLeft() throws IOException {
        assertEquals(List.of(), supervisorThreads(), "supervisor threads still alive after the test");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyNotificationIsAnsweredInEitherWait(boolean pollWait) throws Exception {
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup = Supervisor.start(
                    Supervisor.Kind.NATIVE,
                    child.takeListener(),
                    job.options().withPollWait(pollWait),
                    Answer.CONTINUE);
            BenchRun run;
            SupervisorStats s;
            try {
                run = child.bench(5_000, 500, "hello.txt");
            } finally {
                s = assertTimeoutPreemptively(Duration.ofSeconds(10), sup::stop, "stop hung");
            }
            assertEquals(0, run.errors(), "errno " + run.firstErrno());
            assertEquals(5_500, s.received());
            assertEquals(5_500, s.continued());
            assertEquals(0, s.gone());
            assertEquals(0, s.failures());
            assertFalse(s.ended(), "the loop ended before stop");
        }
    }

    /** The answer reaches the caller, not only the counters: an errno, in either wait. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anErrorAnswerReachesTheCaller(boolean pollWait) throws Exception {
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup = Supervisor.start(
                    Supervisor.Kind.NATIVE,
                    child.takeListener(),
                    job.options().withPollWait(pollWait),
                    Answer.error(EPERM));
            try (sup) {
                for (int i = 0; i < 3; i++) {
                    OpenResult r = child.open("hello.txt");
                    assertEquals(-1, r.fd());
                    assertEquals(EPERM, r.errno());
                }
                assertEquals(3, sup.stop().errored());
            }
        }
    }

    /**
     * Stopped while blocked in the receive with nothing to do: stop returns promptly, the thread is
     * gone, and the child's next call fails with ENOSYS instead of waiting for an answer.
     */
    @ParameterizedTest
    @CsvSource({"continue,false", "continue,true", "broker,false"})
    void anIdleSupervisorStopsPromptly(String answerText, boolean pollWait) throws Exception {
        try (NotifyChildFixture child = job.child()) {
            Answer answer = Answer.parse(answerText, "answer");
            Supervisor sup = Supervisor.start(
                    Supervisor.Kind.NATIVE, child.takeListener(), job.options().withPollWait(pollWait), answer);
            assertTrue(child.open("hello.txt").fd() >= 0, "not served");
            assertEquals(1, supervisorThreads().size(), "one supervisor thread while running");
            Thread.sleep(50); // now it waits, in the receive or in poll()
            SupervisorStats s = assertTimeoutPreemptively(Duration.ofSeconds(10), sup::stop, "stop hung");
            assertEquals(1, s.received());
            assertEquals(0, s.failures());
            assertEquals(List.of(), supervisorThreads(), "the supervisor thread outlived stop");
            OpenResult r = child.open("hello.txt");
            assertEquals(-1, r.fd());
            assertEquals(ENOSYS, r.errno());
        }
    }

    /**
     * Start and stop at once, many times: a stop signal that lands before the loop has entered the
     * receive interrupts nothing, so stop must signal again. Each cycle gets a copy of one listener.
     */
    @Test
    void startAndImmediateStopNeverHangs() throws Exception {
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                    for (int i = 0; i < 300; i++) {
                        Supervisor sup = Supervisor.start(
                                Supervisor.Kind.NATIVE, Supervisor.duplicate(listener), job.options(), Answer.CONTINUE);
                        if (i % 3 == 1) {
                            Thread.onSpinWait();
                        } else if (i % 3 == 2) {
                            Thread.sleep(1);
                        }
                        SupervisorStats s = sup.stop();
                        assertEquals(0, s.failures());
                    }
                });
                // Still a working listener: a fresh supervisor on it answers.
                try (Supervisor sup = Supervisor.start(
                        Supervisor.Kind.NATIVE, Supervisor.duplicate(listener), job.options(), Answer.CONTINUE)) {
                    assertEquals(Job.CWD_HELLO, child.open("hello.txt").text());
                }
            } finally {
                BrokerNative.hl_close(listener);
            }
        }
    }

    /** Stopped while the child keeps calling: every call either answered or failed with ENOSYS, none hangs. */
    @Test
    void stopWhileBusyLeavesNoCallWaiting() throws Exception {
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup =
                    Supervisor.start(Supervisor.Kind.NATIVE, child.takeListener(), job.options(), Answer.CONTINUE);
            java.util.concurrent.CompletableFuture<BenchRun> busy =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return child.bench(200_000, 0, "hello.txt");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
            assertTrue(BrokerFixtures.eventually(() -> sup.stats().received() > 1_000), "the child never called");
            SupervisorStats s = assertTimeoutPreemptively(Duration.ofSeconds(10), sup::stop, "stop hung");
            BenchRun run = busy.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(0, s.failures(), "an answer failed during stop, errno " + s.lastErrno());
            assertEquals(s.received(), s.continued(), "a received call was not answered");
            assertTrue(run.errors() > 0, "no call failed after stop");
            assertEquals(ENOSYS, run.firstErrno());
            assertEquals(200_000, s.continued() + run.errors(), "calls neither answered nor failed");
        }
    }

    /** The child exits: the blocked receive returns, the loop ends by itself (ended), and stop is quick. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theLoopEndsWhenTheChildIsGone(boolean pollWait) throws Exception {
        Supervisor sup;
        try (NotifyChildFixture child = job.child()) {
            sup = Supervisor.start(
                    Supervisor.Kind.NATIVE,
                    child.takeListener(),
                    job.options().withPollWait(pollWait),
                    Answer.CONTINUE);
            assertTrue(child.open("hello.txt").fd() >= 0, "not served");
        }
        assertTrue(BrokerFixtures.eventually(() -> sup.stats().ended()), "the loop did not end: " + sup.stats());
        SupervisorStats s = assertTimeoutPreemptively(Duration.ofSeconds(10), sup::stop, "stop hung");
        assertEquals(1, s.continued());
        assertEquals(0, s.failures(), "errno " + s.lastErrno());
    }

    /**
     * The thread takes no signal of the embedding JVM: every signal blocked, but for the stop signal
     * in the blocking wait, whose handler (ours) is installed in this process.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theThreadTakesOnlyItsStopSignal(boolean pollWait) throws Exception {
        int stop = BrokerNative.hl_sup_stop_signal();
        assertTrue(stop >= 34 && stop <= 64, "not a real-time signal: " + stop);
        try (NotifyChildFixture child = job.child()) {
            try (Supervisor sup = Supervisor.start(
                    Supervisor.Kind.NATIVE,
                    child.takeListener(),
                    job.options().withPollWait(pollWait),
                    Answer.CONTINUE)) {
                List<Path> threads = supervisorThreads();
                assertEquals(1, threads.size());
                BigInteger blocked = mask(threads.get(0).resolve("status"), "SigBlk");
                BigInteger stopBit = BigInteger.ONE.shiftLeft(stop - 1);
                // Every standard and real-time signal the kernel lets a thread block (not SIGKILL, SIGSTOP).
                for (int sig = 1; sig <= 64; sig++) {
                    if (sig == 9 || sig == 19 || sig == 32 || sig == 33) {
                        continue; // SIGKILL, SIGSTOP; glibc's own cancellation and setxid signals
                    }
                    boolean isBlocked = blocked.testBit(sig - 1);
                    assertEquals(pollWait || sig != stop, isBlocked, "signal " + sig + " blocked: " + isBlocked);
                }
                if (!pollWait) {
                    assertTrue(
                            mask(Path.of("/proc/self/status"), "SigCgt")
                                            .and(stopBit)
                                            .signum()
                                    != 0,
                            "no handler for the stop signal");
                }
            }
        }
    }

    private static BigInteger mask(Path status, String field) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field + ":")) {
                return new BigInteger(line.substring(field.length() + 1).trim(), 16);
            }
        }
        throw new AssertionError(status + " has no " + field);
    }

    /** This process's threads named like the native supervisor's loop. */
    static List<Path> supervisorThreads() throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (Files.readString(task.resolve("comm")).strip().equals(THREAD_NAME)) {
                        found.add(task);
                    }
                } catch (java.nio.file.NoSuchFileException e) {
                    // the thread ended meanwhile
                } catch (IOException e) {
                    // ESRCH: the thread ended between the listing and the read (its task folder still listed)
                    if (!String.valueOf(e.getMessage()).contains("No such process")) {
                        throw e;
                    }
                }
            }
        }
        return found;
    }
}
