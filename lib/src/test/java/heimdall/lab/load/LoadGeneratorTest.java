package heimdall.lab.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.sys.Cpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {
    /** {@code Cpus_allowed_list} of one of our threads. */
    static List<Integer> affinity(int tid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return Cpus.parseList(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no Cpus_allowed_list for " + tid);
    }

    @Test
    void threadsRunOnTheAskedCpusAtTheAskedNiceAndNoneIsLeftAfterStop() throws Exception {
        List<Worker> workers = new ArrayList<>();
        for (int cpu : Cpus.allowed()) {
            workers.add(new Worker(Worker.Kind.SPIN, cpu, 7, 0.3));
            workers.add(new Worker(Worker.Kind.SYSCALL, cpu, 12, 0.3));
        }
        workers.add(new Worker(Worker.Kind.SPIN, -1, 19, 0.1));
        List<Integer> tids;
        LoadGenerator.Report report;
        try (LoadGenerator g = LoadGenerator.start(workers)) {
            tids = g.tids();
            assertEquals(workers.size(), tids.size());
            for (int i = 0; i < workers.size(); i++) {
                Worker w = workers.get(i);
                int tid = tids.get(i);
                assertTrue(Files.exists(Path.of("/proc/self/task/" + tid)), "thread " + tid + " runs in this process");
                if (w.cpu() >= 0) {
                    assertEquals(List.of(w.cpu()), affinity(tid), "pinned as asked: " + w);
                } else {
                    assertEquals(Cpus.allowed(), affinity(tid), "left to the scheduler: " + w);
                }
                assertEquals(w.nice(), LoadGenerator.niceOf(tid), "nice as asked: " + w);
            }
            Thread.sleep(100);
            report = g.stop();
            assertFalse(g.running());
        }
        for (int tid : tids) {
            assertFalse(Files.exists(Path.of("/proc/self/task/" + tid)), "thread " + tid + " is gone after stop");
        }
        assertEquals(workers.size(), report.workers().size());
        for (LoadGenerator.WorkerReport w : report.workers()) {
            assertTrue(w.loops() > 0, "worked: " + w);
            assertTrue(w.busyNs() > 0 && w.busyNs() <= w.elapsedNs(), "busy within its time: " + w);
            if (w.worker().cpu() >= 0) {
                assertEquals(w.worker().cpu(), w.cpuGranted());
            }
            assertEquals(w.worker().nice(), w.niceGranted());
        }
    }

    @Test
    void stopIsIdempotentAndCloseAfterStopIsANoOp() {
        LoadGenerator g = LoadGenerator.start(List.of(new Worker(Worker.Kind.SPIN, Cpus.measuring(), 0, 0.2)));
        LoadGenerator.Report a = g.stop();
        assertTrue(a == g.stop());
        g.close();
    }

    @Test
    void workersParseAndRefuseWhatCannotRun() {
        int cpu = Cpus.measuring();
        assertEquals(new Worker(Worker.Kind.SYSCALL, cpu, 10, 0.5), Worker.parse("syscall:" + cpu + ":10:0.5"));
        assertEquals(new Worker(Worker.Kind.SPIN, -1, 0, 1.0), Worker.parse("spin:any"));
        assertEquals(2, Worker.parseList("spin:" + cpu + ", syscall:any:5").size());
        assertEquals(
                Worker.parse("spin:" + cpu + ":3:0.25"),
                Worker.parse(Worker.parse("spin:" + cpu + ":3:0.25").toString()));
        assertThrows(BadInput.class, () -> Worker.parse("spin:1024"));
        assertThrows(BadInput.class, () -> Worker.parse("spin:" + cpu + ":20"));
        assertThrows(BadInput.class, () -> Worker.parse("spin:" + cpu + ":0:0"));
        assertThrows(BadInput.class, () -> Worker.parse("spin:" + cpu + ":0:1.5"));
        assertThrows(BadInput.class, () -> Worker.parse("dance:" + cpu));
        assertThrows(BadInput.class, () -> Worker.parse("spin"));
        assertEquals(2 * Cpus.allowed().size(), Worker.everyCpu(0).size());
    }
}
