package heimdall.lab.child;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Signals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The round-trip floor: a ping-pong child and its partner thread, the child pinned or free on a CPU
 * set; the partner ends with the child and nothing leaks.
 */
class PingPongTest {
    static final long N = 2_000;

    private static long allowedSet() {
        long m = 0;
        for (int c : Cpus.allowed()) {
            m |= 1L << c;
        }
        return m;
    }

    /** Every placement the floor-cost reference uses: each gives N positive samples, every byte answered. */
    @Test
    void eachPlacementGivesNRoundTrips() {
        int child = Cpus.measuring();
        int other = Cpus.supervisor();
        record Place(int childCpu, long childSet, int partnerCpu, long partnerSet) {}
        for (Place p : List.of(
                new Place(child, 0, other, 0),
                new Place(child, 0, child, 0),
                new Place(-1, allowedSet(), -1, allowedSet()),
                new Place(-1, 0, -1, 0))) {
            ChildSpec spec = ChildSpec.of(Call.PINGPONG, 100, N);
            spec = p.childSet() != 0 ? spec.withCpuSet(p.childSet()) : spec.withCpu(p.childCpu());
            try (RunningChild c = MeasuredChild.start(spec)) {
                c.startPartner(p.partnerCpu(), p.partnerSet());
                ChildResult r = c.await();
                assertTrue(r.completed(), p + ": " + r.fate().describe());
                assertEquals(N, r.samples().length, p.toString());
                assertTrue(Arrays.stream(r.samples()).allMatch(s -> s > 0), p + ": a sample was not positive");
                if (p.childCpu() >= 0) {
                    assertEquals(p.childCpu(), r.cpuGranted(), p.toString());
                } else {
                    assertTrue(Cpus.allowed().contains(r.cpuGranted()), p + ": ran on " + r.cpuGranted());
                }
            }
        }
    }

    /**
     * A ping-pong then openat: N samples, every byte answered, and the openat really opens the file
     * (its last result a descriptor); a missing file gives ENOENT, not a silent success.
     */
    @Test
    void aPingPongThenOpenatOpensTheFileAfterEachRoundTrip(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("data.txt"), "x");
        for (java.nio.file.Path path : List.of(file, dir.resolve("absent.txt"))) {
            ChildSpec spec = ChildSpec.of(Call.pingPongThenOpenat(path), 10, N).withCpu(Cpus.measuring());
            try (RunningChild c = MeasuredChild.start(spec)) {
                c.startPartner(Cpus.measuring(), 0);
                ChildResult r = c.await();
                assertTrue(r.completed(), r.fate().describe());
                assertEquals(N, r.samples().length);
                assertTrue(Arrays.stream(r.samples()).allMatch(s -> s > 0), "a sample was not positive");
                if (path.equals(file)) {
                    assertTrue(r.lastReturn() >= 0, "openat failed: " + r.lastOutcome());
                } else {
                    assertEquals(-1, r.lastReturn());
                    assertEquals(2, r.lastErrno(), "ENOENT");
                }
            }
        }
    }

    /** Without its partner the child waits for its first answer; closing it kills it, and nothing is left. */
    @Test
    void withoutAPartnerTheChildWaitsAndCloseEndsIt() throws Exception {
        RunningChild c = MeasuredChild.start(ChildSpec.of(Call.PINGPONG, 0, 10));
        try (c) {
            assertTrue(c.awaitPhase(Phase.MEASURE, Duration.ofSeconds(10)), "child stuck in " + c.phase());
            Thread.sleep(50);
            assertTrue(c.alive(), "the child should still wait for its answer");
        }
        assertEquals(
                Signals.SIGKILL,
                assertInstanceOf(Fate.Killed.class, c.await().fate()).signal());
    }

    /** Killing the child mid-run ends the partner (its pipe closes): no thread or descriptor stays behind. */
    @Test
    void aKilledChildEndsItsPartnerAndLeaksNothing() throws Exception {
        MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10)); // the spawner thread exists before counting
        int fds = fds("self/fd");
        assertEquals(0, partners(), "partner threads before the test");
        for (int i = 0; i < 10; i++) {
            try (RunningChild c = MeasuredChild.start(ChildSpec.of(Call.PINGPONG, 1_000_000_000L, 10))) {
                c.startPartner(-1, 0);
                assertTrue(c.awaitPhase(Phase.WARMUP, Duration.ofSeconds(10)), "child stuck in " + c.phase());
                c.kill();
                assertEquals(
                        Signals.SIGKILL,
                        assertInstanceOf(Fate.Killed.class, c.await().fate()).signal());
            }
        }
        for (int i = 0; i < 5; i++) {
            try (RunningChild c = MeasuredChild.start(ChildSpec.of(Call.PINGPONG, 0, 50))) {
                c.startPartner(-1, 0);
                assertTrue(c.await().completed());
            }
        }
        assertEquals(fds, fds("self/fd"), "descriptors left open");
        assertEquals(0, partners(), "partner threads left running");
    }

    /** The runner holds its two pipe ends at 5 and 6 besides 3 and 4, and nothing else. */
    @Test
    void theChildHoldsOnlyItsRegionSocketAndPipeEnds() throws Exception {
        try (RunningChild c = MeasuredChild.start(ChildSpec.of(Call.PINGPONG, 0, 10))) {
            assertTrue(c.awaitPhase(Phase.MEASURE, Duration.ofSeconds(10)), "child stuck in " + c.phase());
            List<Integer> fds = new ArrayList<>();
            try (Stream<Path> s = Files.list(Path.of("/proc/" + c.pid() + "/fd"))) {
                s.forEach(p -> fds.add(Integer.parseInt(p.getFileName().toString())));
            }
            fds.removeIf(n -> n <= 2);
            assertEquals(List.of(3, 4, 5, 6), fds.stream().sorted().toList());
            c.startPartner(-1, 0);
            assertTrue(c.await().completed());
        }
    }

    @Test
    void aPartnerOnlyForAPingPongAndOnlyOnce() throws Exception {
        try (RunningChild c = MeasuredChild.start(ChildSpec.of(Call.GETPPID, 0, 10))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.startPartner(-1, 0));
            assertTrue(e.getMessage().contains("ping-pong"), e.getMessage());
        }
        try (RunningChild c = MeasuredChild.start(ChildSpec.of(Call.PINGPONG, 0, 10))) {
            c.startPartner(-1, 0);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.startPartner(-1, 0));
            assertTrue(e.getMessage().contains("EINVAL"), e.getMessage());
            assertTrue(c.await().completed());
        }
    }

    /** A CPU set goes with cpu -1; a set of CPUs the process may not use ends the child while pinning. */
    @Test
    void cpuSetsAreCheckedAndASetOfNoUsableCpuEndsTheChildWhilePinning() {
        BadInput bad = assertThrows(
                BadInput.class,
                () -> new ChildSpec(
                        0,
                        List.of(),
                        Call.GETPPID,
                        0,
                        1,
                        ChildSpec.Mode.PER_CALL,
                        false,
                        ChildSpec.ListenerTransfer.SCM_RIGHTS,
                        0,
                        0,
                        1L));
        assertTrue(bad.getMessage().contains("cpuSet"), bad.getMessage());
        assertEquals(
                0, ChildSpec.of(Call.GETPPID, 0, 1).withCpuSet(3).withCpu(1).cpuSet(), "withCpu drops the set");
        int absent = IntStream.range(0, 64)
                .filter(c -> !Cpus.allowed().contains(c))
                .findFirst()
                .orElseThrow();
        ChildResult r = MeasuredChild.run(ChildSpec.of(Call.GETPPID, 0, 10).withCpuSet(1L << absent));
        Fate.Exited e = assertInstanceOf(Fate.Exited.class, r.fate());
        assertEquals(66, e.code());
        assertEquals(Phase.PIN, e.phase());
    }

    private static int fds(String dir) throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/" + dir))) {
            return (int) s.count();
        }
    }

    /** Threads of this process named as libheimdall names a partner. */
    private static long partners() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/task"))) {
            return s.filter(t -> {
                        try {
                            return Files.readString(t.resolve("comm")).trim().equals("hl-pong");
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .count();
        }
    }

    @AfterAll
    static void noChildRemains() {
        assertEquals(0, MeasuredChild.live(), "children started and never reaped");
    }
}
