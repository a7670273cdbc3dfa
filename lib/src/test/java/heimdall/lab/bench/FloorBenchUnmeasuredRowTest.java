package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import heimdall.lab.child.Call;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.floor.Floor;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.Profile;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a reproduction, a row whose children exit with status 0 without measuring (the measured call is
 * {@code exit_group}, which abcdf's floor allows) is a failed row with the reason, not a success with
 * no samples; the rows beside it still complete.
 */
class FloorBenchUnmeasuredRowTest {
    @TempDir
    Path dir;

    @Test
    void aRowWhoseChildExitsZeroWithoutMeasuringFails() throws Exception {
        // A kernel fact: the floor's default action must exist in this kernel.
        Path avail = Path.of("/proc/sys/kernel/seccomp/actions_avail");
        assumeTrue(
                Files.isReadable(avail)
                        && List.of(Files.readString(avail).trim().split("\\s+")).contains("kill_process"),
                "needs seccomp with kill_process (" + avail + ")");
        Profile abcdf = Fixtures.profile("abcdf");
        Floor floor = Floors.staticFloor("static floor, abcdf", abcdf);
        List<FloorRow> rows = List.of(
                new FloorRow("static floor, abcdf", floor, Call.GETPPID, null, null),
                new FloorRow("static floor, abcdf", floor, Call.syscall(231), null, null));
        FloorBench.Counts counts = new FloorBench.Counts(2, 10, 50, 5, 20);
        List<String> progress = new ArrayList<>();
        List<FloorBench.Measured> measured;
        Path in = Files.createDirectories(dir.resolve("in"));
        try (SamplesFile samples = SamplesFile.create(dir.resolve("samples.arrow"))) {
            measured =
                    FloorBench.run(rows, counts, Cpus.measuring(), in, samples, new Host.LoadSampler(), progress::add);
        }
        FloorBench.Measured exited = measured.get(1);
        assertNotNull(exited.failure(), "a row that measured nothing passed:\n" + String.join("\n", progress));
        assertTrue(
                exited.failure().contains("before it finished measuring")
                        && exited.failure().contains("0 of 50 samples"),
                exited.failure());
        assertTrue(exited.runs().isEmpty());
        heimdall.lab.results.FloorCostRow summary = FloorSummary.of(exited);
        assertEquals("failed", summary.status());
        assertNull(measured.get(0).failure(), measured.get(0).failure());
        assertEquals(2, measured.get(0).runs().size());
        assertEquals(0, MeasuredChild.live());
    }
}
