package heimdall.lab.broker;

import static heimdall.lab.Errno.EIO;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import heimdall.lab.broker.NotifyChildFixture.TimedOpen;
import heimdall.lab.testing.Fact;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A read that really blocks: the name lies in a page of a FUSE file whose server never answers READ
 * ({@code native/test/fuse-freeze.c}), so even the {@code /proc/PID/mem} read waits. The watchdog hands
 * it off after its 40 ms deadline: a new loop thread serves the other processes of the filter (within
 * 100 ms) and, once the read has lasted the give-up deadline (1 s here), the frozen call is answered
 * {@code EIO}; nobody is killed: the caller lives on and is served again. {@code stop()} returns within
 * 1 s while the read is still blocked. What it protects: a FUSE server that is the caller itself (or a
 * process of its own) freezes neither the other calls nor {@code stop()}. The stuck thread stays
 * blocked in the kernel (after stop too) until its server dies (with the caller's exit, or killed by
 * this test), and then ends, leaving no thread and no descriptor behind.
 */
class SupervisorFuseFreezeTest {
    private static final long SERVED_WITHIN_MS = 100;
    private static final long STOP_WITHIN_MS = 1_000;
    /** The give-up deadline here: short, so the test waits little for the frozen call's answer. */
    private static final Duration GIVE_UP = Duration.ofSeconds(1);

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        Path dev = Path.of("/dev/fuse");
        boolean device = Files.exists(dev) && !Files.isRegularFile(dev) && !Files.isDirectory(dev);
        Requires.that(
                KernelFacts.root(),
                new Fact("/dev/fuse", device, dev + (device ? " present" : " is missing")),
                fuseFilesystem());
        job = Job.create(tmp);
        BrokerFixtures.warmUp(job);
    }

    private static Fact fuseFilesystem() {
        Path filesystems = Path.of("/proc/filesystems");
        try {
            boolean has = Files.readAllLines(filesystems).stream()
                    .anyMatch(l -> l.strip().matches("(nodev\\s+)?fuse"));
            return new Fact("the fuse filesystem", has, filesystems + (has ? " lists fuse" : " does not list fuse"));
        } catch (IOException e) {
            return Fact.absent("the fuse filesystem", filesystems + ": " + e.getMessage());
        }
    }

    @ParameterizedTest
    @CsvSource({"native,false", "java-fixed,false", "java-policy,false", "native,true", "java-policy,true"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aReadThatNeverEndsFreezesNothingAndKillsNoOne(String which, boolean serverProcess) throws Exception {
        List<String> threadsBefore = SupervisorFreezeTest.supervisorThreads();
        long fdsBefore = BrokerFixtures.openFds();
        List<String> fdNamesBefore = BrokerFixtures.fdTargets();
        Path mount = Files.createDirectory(tmp.resolve("mnt"));
        SupervisorStats s;
        int server;
        try (NotifyChildFixture child = NotifyChildFixture.startFuseFreeze(mount, serverProcess, job.cwd())) {
            server = child.serverPid();
            assertEquals(serverProcess, server > 0, "server pid " + server);
            Supervisor sup = start(which, child.takeListener());
            try {
                assertEquals(Job.HELLO, child.open("hello.txt").text(), "not served before the frozen call");
                // The frozen call, and 20 ms later another process of the same filter, timing its own call.
                long frozenAt = System.nanoTime();
                int worker = child.freeze("hello.txt");
                TimedOpen timed = child.awaitTimedWorkerOpen(worker);
                OpenResult r = timed.result();
                long ms = TimeUnit.NANOSECONDS.toMillis(timed.ns());
                assertEquals(Job.HELLO, r.text(), "the other process not served: errno " + r.errno());
                assertTrue(
                        timed.ns() >= 0 && ms < SERVED_WITHIN_MS, "the other process was served after " + ms + " ms");
                assertTrue(BrokerFixtures.eventually(() -> sup.stats().stalled() == 1), "not counted: " + sup.stats());
                // Given up after GIVE_UP, not before: the frozen call answered EIO, its caller alive.
                assertEquals(EIO, child.awaitFuseFrozenOpen(30), "the frozen call's answer");
                long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozenAt);
                assertTrue(answeredMs >= GIVE_UP.toMillis(), "answered after " + answeredMs + " ms");
                assertTrue(child.alive(), "the frozen caller was killed");
                assertEquals(Job.HELLO, child.open("hello.txt").text(), "the caller not served after its frozen call");
                if (serverProcess) {
                    assertTrue(
                            ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false), "the server died");
                }
            } finally {
                long t0 = System.nanoTime();
                s = sup.stop();
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < STOP_WITHIN_MS, "stop took " + ms + " ms");
            }
            // Still blocked after stop (the server lives on): then its server dies, a process of its own
            // killed here, or the caller's thread when the fixture below exits.
            assertFalse(
                    SupervisorFreezeTest.supervisorThreads().equals(threadsBefore),
                    "the stuck read ended before its server did");
            if (serverProcess) {
                ProcessHandle.of(server).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        assertEquals(1, s.stalled(), s.toString());
        assertEquals(1, s.timedOut(), s.toString());
        assertEquals(1, s.errored(), s.toString());
        assertEquals(3, s.brokered(), s.toString());
        assertEquals(0, s.failures(), "errno " + s.lastErrno());
        // The read ends once the server is gone (with the caller's exit, or killed just now): the thread leaves.
        assertTrue(
                BrokerFixtures.eventually(
                        () -> SupervisorFreezeTest.supervisorThreads().equals(threadsBefore)),
                "supervisor threads left: " + SupervisorFreezeTest.supervisorThreads() + ", before " + threadsBefore);
        assertTrue(
                BrokerFixtures.eventually(() -> {
                    try {
                        return BrokerFixtures.openFds() <= fdsBefore;
                    } catch (IOException e) {
                        return false;
                    }
                }),
                "descriptors before: " + fdNamesBefore + ", after: " + BrokerFixtures.fdTargets());
    }

    private Supervisor start(String which, int listener) {
        return switch (which) {
            case "native" -> Supervisor.start(Supervisor.Kind.NATIVE, listener, options(), Answer.BROKER);
            case "java-fixed" -> Supervisor.start(Supervisor.Kind.JAVA, listener, options(), Answer.BROKER);
            default -> {
                byte[] secret = "secret".getBytes(StandardCharsets.UTF_8);
                yield Supervisor.start(
                        listener,
                        options(),
                        n -> n.readPath(1) > 0 && n.pathContains(secret) ? Answer.error(13) : Answer.BROKER);
            }
        };
    }

    private SupervisorOptions options() {
        return job.options().withReadGiveUp(GIVE_UP);
    }
}
