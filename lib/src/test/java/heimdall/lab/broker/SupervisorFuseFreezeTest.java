package heimdall.lab.broker;

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
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A read that really blocks: the name lies in a page of a FUSE file whose server never answers READ
 * ({@code native/test/fuse-freeze.c}), so even the {@code /proc/PID/mem} read waits. The watchdog
 * gives up on it after its deadline: the caller's process is killed, a new loop thread serves the
 * other processes of the filter (within 100 ms), {@code stop()} returns within 1 s. With the server a
 * thread of the caller, the kill ends the server and so the read: the abandoned thread ends by
 * itself. With the server in a process of its own, the kill frees nothing: the abandoned thread stays
 * blocked in the kernel (after stop too) until the server dies, and then ends, leaving no thread and
 * no descriptor behind.
 */
class SupervisorFuseFreezeTest {
    private static final long SERVED_WITHIN_MS = 100;
    private static final long STOP_WITHIN_MS = 1_000;

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
    void aReadThatNeverEndsIsAbandonedAndItsCallerKilled(String which, boolean serverProcess) throws Exception {
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
                int worker = child.freeze("hello.txt");
                TimedOpen timed = child.awaitTimedWorkerOpen(worker);
                OpenResult r = timed.result();
                long ms = TimeUnit.NANOSECONDS.toMillis(timed.ns());
                assertEquals(Job.HELLO, r.text(), "the other process not served: errno " + r.errno());
                assertTrue(
                        timed.ns() >= 0 && ms < SERVED_WITHIN_MS, "the other process was served after " + ms + " ms");
                assertTrue(BrokerFixtures.eventually(() -> !child.alive()), "the frozen caller was not killed");
                assertTrue(BrokerFixtures.eventually(() -> sup.stats().stalled() == 1), "not counted: " + sup.stats());
                if (serverProcess) {
                    // Killing the caller freed nothing: the server lives (the check after stop sees the blocked loop).
                    assertTrue(
                            ProcessHandle.of(server).map(ProcessHandle::isAlive).orElse(false),
                            "the server died with the caller");
                }
            } finally {
                long t0 = System.nanoTime();
                s = sup.stop();
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < STOP_WITHIN_MS, "stop took " + ms + " ms");
            }
            if (serverProcess) {
                // Still blocked after stop (the server lives while this fixture's stdin is open): then its server dies.
                assertFalse(
                        SupervisorFreezeTest.supervisorThreads().equals(threadsBefore),
                        "the stuck read ended before its server did");
                ProcessHandle.of(server).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        assertEquals(1, s.stalled(), s.toString());
        assertEquals(2, s.brokered(), s.toString());
        assertEquals(0, s.failures(), "errno " + s.lastErrno());
        // The read ends once the server is gone (killed with the caller, or just now): the thread leaves.
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
}
