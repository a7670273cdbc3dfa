package heimdall.lab.cli;

import static heimdall.lab.cli.HonestFailuresTest.assertBadInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import heimdall.lab.bench.SamplesFile;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.graph.FixtureGraphs;
import heimdall.lab.graph.GraphFiles;
import heimdall.lab.graph.Pins;
import heimdall.lab.sys.Planted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared sticky folder where another user planted FIFOs and links at every name a command reads
 * (profile, observations, graph files, SHA256SUMS, summary.json, samples.arrow): each command exits 2
 * naming the file and the reason, without waiting on a FIFO (the timeout) and without writing anything
 * (the planted entries and the canaries outside are unchanged).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PlantedInputsTest {
    @TempDir
    Path tmp;

    Path outside;
    Path shared;

    @BeforeEach
    void sharedFolder() throws Exception {
        outside = Files.createDirectory(tmp.resolve("outside"));
        shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setAttribute(shared, "unix:mode", 01777);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static BpfCommandsTest.Outcome lab(String... argv) {
        return BpfCommandsTest.run(argv);
    }

    @Test
    void profilesAndObservations() throws Exception {
        Path fifo = shared.resolve("profile.json");
        Path link = shared.resolve("linked.json");
        Path obsFifo = shared.resolve("observations.json");
        Path obsLink = shared.resolve("obs-link.json");
        Planted planted = Planted.in(outside, shared)
                .fifo(fifo)
                .linkToFile(link)
                .fifo(obsFifo)
                .linkToFile(obsLink)
                .watch();
        String out = tmp.resolve("out.bpf").toString();
        for (String cmd : List.of("compile", "stats", "disasm")) {
            String[] o = cmd.equals("compile") ? new String[] {"-o", out} : new String[0];
            assertBadInput(
                    lab(concat(new String[] {"bpf", cmd, fifo.toString()}, o)),
                    fifo + ": not a regular file: is a FIFO");
            assertBadInput(
                    lab(concat(new String[] {"bpf", cmd, link.toString()}, o)),
                    link + ": is a symbolic link; not followed");
        }
        assertFalse(Files.exists(Path.of(out)));
        assertBadInput(lab("bpf", "disasm", shared.resolve("x.bpf").toString()), "x.bpf: cannot read: no such file");
        assertBadInput(lab("bpf", "compile", "", "-o", out), "empty file name");
        assertBadInput(lab("bpf", "stats", ""), "empty file name");
        assertBadInput(lab("profile", "gen", obsFifo.toString()), obsFifo + ": not a regular file: is a FIFO");
        assertBadInput(lab("profile", "gen", obsLink.toString()), obsLink + ": is a symbolic link");
        planted.assertUntouched("profiles read from a shared folder");
        // the real thing still works
        Path real = Fixtures.home().resolve("fixtures/profiles/abcdf/observations.json");
        assertEquals(0, lab("profile", "gen", real.toString()).status());
    }

    @Test
    void graphFilesAndTheirPins() throws Exception {
        Path graphs = Files.createDirectory(shared.resolve("graphs"));
        List<Path> written = GraphFiles.write(FixtureGraphs.abcdf(), graphs, "abcdf");
        Pins.rewrite(graphs, written);
        Path nodes = written.get(0);
        Path edges = written.get(1);
        assertEquals(0, lab("graph", "info", nodes.toString(), edges.toString()).status());
        Path sums = graphs.resolve(Pins.FILE_NAME);
        Files.move(sums, outside.resolve("saved-sums"));
        Planted planted = Planted.in(outside, graphs).fifo(sums).watch();
        assertBadInput(
                lab("graph", "info", nodes.toString(), edges.toString()), sums + ": not a regular file: is a FIFO");
        assertBadInput(lab("graph", "info", "--unpinned", nodes.toString(), edges.toString()), sums.toString(), "FIFO");
        planted.assertUntouched("graph info with a FIFO at SHA256SUMS");
        Files.delete(sums);
        Files.createSymbolicLink(sums, outside.resolve("saved-sums"));
        assertBadInput(lab("graph", "info", nodes.toString(), edges.toString()), sums + ": is a symbolic link");
        Files.delete(sums);
        Path moved = Files.move(nodes, outside.resolve("nodes.arrow"));
        Files.createSymbolicLink(nodes, moved);
        assertBadInput(
                lab("graph", "info", "--unpinned", nodes.toString(), edges.toString()), nodes + ": is a symbolic link");
        Files.delete(nodes);
        Planted.mkfifo(nodes);
        assertBadInput(
                lab("graph", "info", "--unpinned", nodes.toString(), edges.toString()), nodes + ": not a regular file");
    }

    /** graph record into a shared folder: refused before the command runs; the planted SHA256SUMS unread, unwritten. */
    @Test
    void graphRecordRefusesASharedFolder() throws Exception {
        Path planter =
                Files.writeString(shared.resolve(Pins.FILE_NAME + ".planted"), "0".repeat(64) + "  extra.arrow\n");
        Path sums = shared.resolve(Pins.FILE_NAME);
        Planted planted = Planted.in(outside, shared).fifo(sums).watch();
        assertBadInput(
                lab("graph", "record", "--out", shared.toString(), "--", "/bin/true"),
                "--out " + shared + ": writable by others (mode 1777)");
        planted.assertUntouched("graph record --out a shared folder");
        Files.delete(sums);
        Files.move(planter, sums);
        planted = Planted.in(Files.createDirectory(tmp.resolve("outside2")), shared)
                .watch();
        assertBadInput(lab("graph", "record", "--out", shared.toString(), "--", "/bin/true"), "writable by others");
        planted.assertUntouched("graph record with a planted regular SHA256SUMS");
    }

    @Test
    void resultsDistillReadsOnlyWhatIsThereAndWritesNothingWhenRefused() throws Exception {
        Path folder = Files.createDirectory(shared.resolve("results"));
        Files.writeString(folder.resolve("summary.json"), "[]");
        Path samples = folder.resolve("samples.arrow");
        Planted planted = Planted.in(outside, folder).fifo(samples).watch();
        assertBadInput(lab("results", "distill", folder.toString()), samples + ": not a regular file: is a FIFO");
        planted.assertUntouched("distill with a FIFO at samples.arrow");
        Files.delete(samples);
        Path real = outside.resolve("samples.arrow");
        try (SamplesFile f = SamplesFile.create(real)) {
            f.append(0, "filtered", 0, new long[] {5, 6, 7});
        }
        Files.createSymbolicLink(samples, real);
        assertBadInput(lab("results", "distill", folder.toString()), samples + ": is a symbolic link");
        Files.delete(samples);
        Files.delete(folder.resolve("summary.json"));
        Planted.mkfifo(folder.resolve("summary.json"));
        Files.copy(real, samples);
        assertBadInput(lab("results", "distill", folder.toString()), "summary.json: not a regular file: is a FIFO");
        assertFalse(Files.exists(folder.resolve("distributions.json")));
        Files.delete(folder.resolve("summary.json"));
        Files.writeString(folder.resolve("summary.json"), "[]");
        assertEquals(0, lab("results", "distill", folder.toString()).status());
    }
}
