package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.broker.Answer;
import heimdall.lab.broker.Supervisor;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.reproduce.lanes.Lanes;
import heimdall.lab.sys.Cpus;
import heimdall.lab.sys.Host;
import heimdall.lab.sys.Planted;
import heimdall.lab.sys.Scratch;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12's attack: symlinks and FIFOs planted at every name floor-cost and lanes used to predict
 * ({@code <tmpdir>/heimdall-lab-job-<pid>/in/data.txt}, {@code <tmpdir>/heimdall-lab-lanes-<pid>/lanes-input.bin},
 * pid = this JVM's, the one the run has), in a private {@code java.io.tmpdir} and in {@code /tmp}. The real
 * code paths run; nothing outside the run's own folders is created or changed, nothing blocks, and the
 * scratch folders are gone afterwards, after a failure too.
 */
class PlantedNamesTest {
    @TempDir
    Path tmp;

    private Path tmpdir;
    private Path outside;
    private AutoCloseable restore;
    private final List<Path> inRealTmp = new ArrayList<>();
    private Planted planted;

    @BeforeEach
    void plant() throws Exception {
        long pid = ProcessHandle.current().pid();
        tmpdir = Files.createDirectory(
                tmp.resolve("tmpdir"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Planted.Builder b = Planted.in(outside, tmpdir);
        // the private tmpdir: links to a folder outside (the old code created in/data.txt and lanes-input.bin through
        // them)
        b.linkToDir(tmpdir.resolve("heimdall-lab-job-" + pid)).linkToDir(tmpdir.resolve("heimdall-lab-lanes-" + pid));
        for (long p = pid + 1; p <= pid + 4; p++) {
            b.fifo(tmpdir.resolve("heimdall-lab-job-" + p)).fifo(tmpdir.resolve("heimdall-lab-lanes-" + p));
        }
        // the real /tmp, where the old code wrote: FIFOs at this JVM's names (a run that opened one would hang)
        for (String name : List.of("heimdall-lab-job-" + pid, "heimdall-lab-lanes-" + pid)) {
            Path p = Path.of("/tmp", name);
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                b.fifo(p);
                inRealTmp.add(p);
            }
        }
        planted = b.watch();
        restore = Planted.tmpdir(tmpdir);
    }

    @AfterEach
    void unplant() throws Exception {
        restore.close();
        for (Path p : inRealTmp) {
            Files.deleteIfExists(p);
        }
    }

    @Test
    void lanesPreparesItsInputInAPrivateFolderAndRemovesIt() throws Exception {
        GraphBenchSettings s = GraphBenchSettings.of(
                Map.of("GRAPH_WORKLOAD_ITERS", "200", "GRAPH_WORKLOAD_THREADS", "1", "GRAPH_BENCH_SAMPLES", "1"), true);
        Path out = tmp.resolve("lanes");
        Lanes.Result r = assertTimeoutPreemptively(
                Duration.ofSeconds(120), () -> Lanes.run(s, ResultsFolder.chosen(out), line -> {}));
        assertEquals(List.of(), r.failures(), "every batch verified: the file read was the run's own");
        planted.assertUntouched("lanes");
    }

    @Test
    void lanesRemovesItsFolderWhenTheRunFailsAndNeverWritesThroughAPlantedResultName() throws Exception {
        GraphBenchSettings s = GraphBenchSettings.of(
                Map.of("GRAPH_WORKLOAD_ITERS", "100", "GRAPH_WORKLOAD_THREADS", "1", "GRAPH_BENCH_SAMPLES", "1"), true);
        Path out = tmp.resolve("lanes");
        ResultsFolder folder = ResultsFolder.chosen(out);
        // planted inside the results folder: the first file the run writes
        Path canary = outside.resolve("canary.txt");
        Files.createSymbolicLink(folder.path().resolve("summary.json"), canary); // inside the hidden temporary
        RuntimeException e = assertThrows(RuntimeException.class, () -> Lanes.run(s, folder, line -> {}));
        assertTrue(e.getMessage().contains("summary.json"), e.getMessage());
        planted.assertUntouched("lanes after a failure");
    }

    @Test
    void floorCostsJobFolderIsPrivateAndItsBrokeredRowRuns() throws Exception {
        Path in;
        try (Scratch job = Scratch.create(FloorCost.JOB_PREFIX)) {
            in = FloorCost.inDir(job);
            assertEquals(job.path().resolve("in"), in);
            assertEquals(tmpdir, job.path().getParent());
            FloorCost.Options o = new FloorCost.Options(
                    new FloorBench.Counts(1, 10, 20, 10, 30), Cpus.measuring(), Cpus.supervisor(), true);
            List<FloorRow> rows = FloorCost.rows(o, in);
            FloorRow brokered = rows.stream()
                    .filter(r -> r.brokered()
                            && r.broker().answer() == Answer.BROKER
                            && r.broker().supervisor() == Supervisor.Kind.NATIVE)
                    .findFirst()
                    .orElseThrow();
            assertTrue(
                    brokered.call()
                            .label()
                            .endsWith(in.resolve(FloorCost.DATA_FILE).toString()),
                    brokered.call().label());
            Requires.seccomp("user_notif");
            Path out = Files.createDirectory(tmp.resolve("fc"));
            List<FloorBench.Measured> m;
            try (SamplesFile samples = SamplesFile.create(out.resolve("samples.arrow"))) {
                m = FloorBench.run(
                        List.of(brokered), o.counts(), o.cpu(), in, samples, new Host.LoadSampler(), line -> {});
            }
            assertNull(m.get(0).failure(), "the brokered openat of the job's own file succeeds");
            assertEquals(1, m.get(0).runs().size());
        }
        assertFalse(Files.exists(in, LinkOption.NOFOLLOW_LINKS), "the job folder is removed with the run");
        planted.assertUntouched("floor-cost job");
    }

    @Test
    void rowsForDescriptionPointAtAFileThatCannotExist() {
        FloorCost.Options o = new FloorCost.Options(new FloorBench.Counts(1, 10, 20, 10, 30), 0, 0, true);
        for (FloorRow r : FloorCost.rows(o)) {
            if (r.callName().equals("openat")) {
                assertTrue(
                        r.call().label().endsWith("/dev/null/in/data.txt"),
                        r.call().label());
            }
        }
    }
}
