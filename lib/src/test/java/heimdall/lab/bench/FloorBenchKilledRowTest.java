package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.child.Call;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Profile;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end through {@link FloorBench}: rows whose floor kills the measured call (abcdf's floor
 * never allows {@code getpid}), one static and one brokered, are reported failed with the signal and
 * the call, and are not run again; the other rows, brokered ones included, still complete; no child
 * is left running or unreaped afterwards.
 */
class FloorBenchKilledRowTest {
    @TempDir
    Path dir;

    @Test
    void aRowKilledByItsFloorFailsWithSignalAndCallAndTheOthersComplete() throws IOException {
        requireSeccomp();
        Profile abcdf = Fixtures.profile("abcdf");
        Floor staticFloor = Floors.staticFloor("static floor, abcdf", abcdf);
        Floor threeAnswers = Floors.threeAnswers("three answers, abcdf", abcdf, Set.of("openat"));
        Path in = Files.createDirectories(dir.resolve("in"));
        Call openat = Call.openat(Files.writeString(in.resolve("data.txt"), "data\n"));
        int cpu = Cpus.measuring();
        FloorRow.Brokering native_ =
                new FloorRow.Brokering(Supervisor.Kind.NATIVE, Answer.CONTINUE, "own CPU", Cpus.supervisor(), false);
        List<FloorRow> rows = List.of(
                new FloorRow("static floor, abcdf", staticFloor, Call.GETPPID, null, null),
                new FloorRow("static floor, abcdf", staticFloor, Call.GETPID, null, null),
                new FloorRow("three answers, abcdf", threeAnswers, Call.GETPID, native_, null),
                new FloorRow("three answers, abcdf", threeAnswers, openat, native_, null));
        FloorBench.Counts counts = new FloorBench.Counts(2, 10, 50, 5, 20);
        List<String> progress = new ArrayList<>();
        List<FloorBench.Measured> measured;
        try (SamplesFile samples = SamplesFile.create(dir.resolve("samples.arrow"))) {
            measured = FloorBench.run(rows, counts, cpu, in, samples, new Host.LoadSampler(), progress::add);
        }

        for (int killed : new int[] {1, 2}) {
            FloorBench.Measured m = measured.get(killed);
            assertNotNull(m.failure(), rows.get(killed).label() + " did not fail");
            assertTrue(
                    m.failure().contains("SIGSYS") && m.failure().contains("getpid"),
                    "the failure names the signal and the call: " + m.failure());
            assertTrue(m.runs().isEmpty(), "a killed run left samples");
            assertEquals(2, m.baseline().size(), "the unfiltered baseline of getpid still ran");
            heimdall.lab.results.FloorCostRow summary = FloorSummary.of(m);
            assertEquals("failed", summary.status());
            assertEquals(m.failure(), summary.failure());
            String label = rows.get(killed).label();
            assertEquals(
                    1,
                    progress.stream()
                            .filter(p -> p.contains(label + ":") && p.contains("FAILED"))
                            .count(),
                    "a failed row is tried once, not in every round:\n" + String.join("\n", progress));
        }
        for (int ok : new int[] {0, 3}) {
            FloorBench.Measured m = measured.get(ok);
            assertNull(m.failure(), rows.get(ok).label() + ": " + m.failure());
            assertEquals(2, m.runs().size());
            long want = rows.get(ok).brokered() ? counts.brokerCount() : counts.count();
            assertTrue(m.runs().stream().allMatch(r -> r.length == want), "every run has its samples");
            assertEquals("ok", FloorSummary.of(m).status());
        }
        assertTrue(
                measured.get(3).supervisor().stream().allMatch(s -> s.received() >= counts.brokerCount()),
                "the supervisor answered the brokered row's calls: "
                        + measured.get(3).supervisor());

        assertEquals(0, MeasuredChild.live(), "children started and not reaped");
        assertEquals(List.of(), runnerChildren(), "runner processes left behind");
    }

    /** Children of this JVM that are heimdall-runner processes, running or zombie. */
    private static List<String> runnerChildren() throws IOException {
        String me = Long.toString(ProcessHandle.current().pid());
        List<String> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .toList()) {
                List<String> status;
                try {
                    status = Files.readAllLines(p.resolve("status"));
                } catch (IOException gone) {
                    continue;
                }
                boolean mine = status.stream().anyMatch(l -> l.matches("PPid:\\s+" + me));
                boolean runner = status.stream().anyMatch(l -> l.startsWith("Name:") && l.contains("heimdall-runne"));
                if (mine && runner) {
                    out.add(p.getFileName() + " "
                            + status.stream()
                                    .filter(l -> l.startsWith("State:"))
                                    .findFirst()
                                    .orElse(""));
                }
            }
        }
        return out;
    }

    private static void requireSeccomp() {
        Requires.seccomp("kill_process", "user_notif");
    }
}
