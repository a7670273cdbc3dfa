package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.PressureRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A correct program is never killed for its own memory-map lock (issue 29): {@code native/test/fork-pressure.c}
 * touches a 1 GiB heap, then one thread opens a file through the broker every 200 µs while the main
 * thread, every 20 ms, forks a helper that exits at once or mprotects the whole heap, in turn. Each fork
 * and mprotect holds the program's memory-map lock for writing for tens of milliseconds, and the
 * supervisor's read of the brokered path through {@code /proc/PID/mem} waits for that lock: the earlier
 * stuck-read rule killed such a program within a second or two. For {@link #SECONDS} (the 60 s)
 * under each supervisor, on an idle host and on a host whose every CPU a spinning thread of this test
 * keeps busy: the program lives to print its tallies, every open is answered with the file's bytes (no
 * error, no wrong content), every one counted brokered, no call answered by the long deadline, nothing
 * failed, and the listener still open. The four runs are sequential (about 4 × {@link #SECONDS} s): two
 * at once would make the "idle" host a busy one.
 */
class SupervisorForkPressureTest {
    /** The 60 s; an iteration run may pass a shorter one ({@code -Dheimdall.forkPressure.seconds=N}). */
    static final long SECONDS = Long.getLong("heimdall.forkPressure.seconds", 60);

    static final int HEAP_MIB = 1024;

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
    }

    @ParameterizedTest(name = "{0} supervisor, {1} host")
    @CsvSource({"native,idle", "java,idle", "native,loaded", "java,loaded"})
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aProgramThatForksWithABigHeapIsNeverKilled(String which, String host) throws Exception {
        byte[] hello = Job.HELLO.getBytes(StandardCharsets.UTF_8);
        List<Thread> spinners = new ArrayList<>();
        AtomicBoolean spin = new AtomicBoolean(true);
        if (host.equals("loaded")) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                Thread t = new Thread(() -> spinUntil(spin), "fork-pressure-load-" + i);
                t.setDaemon(true);
                t.start();
                spinners.add(t);
            }
        }
        SupervisorStats s;
        PressureRun r;
        try (NotifyChildFixture child = NotifyChildFixture.startForkPressure(HEAP_MIB, job.cwd())) {
            Supervisor.Kind kind = which.equals("native") ? Supervisor.Kind.NATIVE : Supervisor.Kind.JAVA;
            Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER);
            try {
                r = child.pressure("both", TimeUnit.SECONDS.toMillis(SECONDS), "hello.txt", hello);
                assertTrue(child.alive(), "the program died after its run");
                // A handed-off thread counts its answer a moment after the caller has it.
                long opens = r.opens();
                BrokerFixtures.eventually(() -> sup.stats().brokered() >= opens);
            } finally {
                s = sup.stop();
            }
        } finally {
            spin.set(false);
            for (Thread t : spinners) {
                t.join();
            }
        }
        String figures = String.format(
                Locale.ROOT,
                "%s supervisor, %s host, %d s: %d opens (longest %.1f ms), %d forks and mprotects (longest %.1f ms,"
                        + " mean %.1f ms); %s",
                which,
                host,
                SECONDS,
                r.opens(),
                r.openMaxNs() / 1e6,
                r.ops(),
                r.opMaxNs() / 1e6,
                r.opMeanNs() / 1e6,
                s);
        System.out.println(figures);
        assertTrue(r.opens() > 0 && r.ops() > 0, "nothing ran: " + figures);
        assertEquals(0, r.failedOps(), "the program's own forks or mprotects failed: " + figures);
        assertEquals(0, r.errors(), "opens failed (first errno " + r.firstErrno() + "): " + figures);
        assertEquals(0, r.wrong(), "opens served another file: " + figures);
        assertEquals(r.opens(), s.brokered(), "every open brokered: " + figures);
        assertEquals(0, s.timedOut(), "a call answered by the long deadline: " + figures);
        assertEquals(0, s.failures(), "errno " + s.lastErrno() + ": " + figures);
        assertFalse(s.ended(), "the listener was closed: " + figures);
    }

    private static void spinUntil(AtomicBoolean spin) {
        long x = 0;
        while (spin.get()) {
            x += System.nanoTime() & 1;
        }
        if (x == 42) {
            System.out.print(""); // keeps the loop's work observable
        }
    }
}
