package heimdall.lab.broker;

import static heimdall.lab.Errno.EFAULT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.FrozenWorker;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A child that tries to freeze its supervisor: the name its {@code openat} passes lies in a page
 * registered with userfaultfd and never served, and a forked child of it holds the same userfaultfd,
 * so that killing the caller would free nothing. Read with {@code process_vm_readv}, that name held
 * the one supervisor thread forever (every other call waited, {@code stop()} never returned); read
 * through {@code /proc/PID/mem} it is unreadable at once. Both supervisors: the frozen call fails with
 * {@code EFAULT}, every other call of the same filter is served within 100 ms, {@code stop()} returns
 * within 1 s, and no supervisor thread or descriptor is left.
 */
class SupervisorFreezeTest {
    private static final long SERVED_WITHIN_MS = 100;
    private static final long STOP_WITHIN_MS = 1_000;

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        BrokerFixtures.assumeUserfaultfd();
        job = Job.create(tmp);
        BrokerFixtures.warmUp(job);
    }

    /** native: the native broker; java-fixed: the Java one with BROKER; java-policy: a policy that reads the name. */
    @ParameterizedTest
    @ValueSource(strings = {"native", "java-fixed", "java-policy"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aNameInFrozenMemoryFreezesNothing(String which) throws Exception {
        List<String> threadsBefore = supervisorThreads();
        long fdsBefore = BrokerFixtures.openFds();
        List<String> fdNamesBefore = BrokerFixtures.fdTargets();
        SupervisorStats s;
        try (NotifyChildFixture child = job.child()) {
            Supervisor sup = start(which, child.takeListener());
            try {
                assertEquals(Job.HELLO, child.open("hello.txt").text(), "not served before the frozen call");
                FrozenWorker frozen = child.uffdOpen();
                assertTrue(
                        BrokerFixtures.eventually(() -> sup.stats().received() >= 2),
                        "the frozen call never reached the supervisor: " + sup.stats());
                // The parent, under the same filter, while the frozen worker's call is (or was) at the supervisor.
                for (int i = 0; i < 5; i++) {
                    long t0 = System.nanoTime();
                    OpenResult r = child.open("hello.txt");
                    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                    assertEquals(Job.HELLO, r.text(), "call " + i + " not served: errno " + r.errno());
                    assertTrue(ms < SERVED_WITHIN_MS, "call " + i + " took " + ms + " ms");
                }
                assertEquals(EFAULT, child.awaitFrozenOpen(frozen), "the frozen call's answer");
                // Another process of the same filter, forked after it.
                int worker = child.forkOpen("hello.txt");
                assertEquals(Job.HELLO, child.awaitWorkerOpen(worker).text());
                assertEquals(0, child.reap());
                assertEquals(0, child.reap());
                assertTrue(
                        ProcessHandle.of(frozen.holder())
                                .map(ProcessHandle::isAlive)
                                .orElse(false),
                        "the userfaultfd's holder should still live");
            } finally {
                long t0 = System.nanoTime();
                s = sup.stop();
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < STOP_WITHIN_MS, "stop took " + ms + " ms");
            }
        }
        assertEquals(0, s.failures(), "errno " + s.lastErrno());
        assertEquals(0, s.stalled(), "nothing was stuck, nothing abandoned");
        assertEquals(1, s.errored(), "the frozen call answered with an error: " + s);
        assertEquals(7, s.brokered(), s.toString());
        assertTrue(
                BrokerFixtures.eventually(() -> supervisorThreads().equals(threadsBefore)),
                "supervisor threads left: " + supervisorThreads() + ", before " + threadsBefore);
        assertTrue(
                BrokerFixtures.eventually(() -> openFdsOrMax() <= fdsBefore),
                "descriptors before: " + fdNamesBefore + ", after: " + BrokerFixtures.fdTargets());
    }

    private Supervisor start(String which, int listener) {
        return switch (which) {
            case "native" -> Supervisor.start(Supervisor.Kind.NATIVE, listener, job.options(), Answer.BROKER);
            case "java-fixed" -> Supervisor.start(Supervisor.Kind.JAVA, listener, job.options(), Answer.BROKER);
            default -> {
                byte[] secret = "secret".getBytes(StandardCharsets.UTF_8);
                yield Supervisor.start(
                        listener,
                        job.options(),
                        n -> n.readPath(1) > 0 && n.pathContains(secret) ? Answer.error(13) : Answer.BROKER);
            }
        };
    }

    private static long openFdsOrMax() {
        try {
            return BrokerFixtures.openFds();
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * This JVM's supervisor threads (native loops and watchdogs: {@code hl-sup*}; Java ones:
     * {@code heimdall-java-s*}, the kernel's 15-character cut of their names), sorted.
     */
    static List<String> supervisorThreads() {
        List<String> found = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    if (comm.startsWith("hl-sup") || comm.startsWith("heimdall-java-s")) {
                        found.add(comm);
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        found.sort(null);
        return found;
    }
}
