package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.SamplesFile;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.testing.SmallTmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every writer on a full disk (a 64 KiB tmpfs filled up, a real ENOSPC from the kernel) leaves nothing
 * behind but its message: no part-written file, no temporary, no results folder, and a file it was to
 * replace is left as it was.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FullDiskTest {
    @TempDir
    Path tmp;

    SmallTmpfs disk;

    @BeforeEach
    void mount() throws Exception {
        Path at = Files.createDirectory(tmp.resolve("disk"));
        disk = SmallTmpfs.mount(at, 64);
    }

    @AfterEach
    void unmount() throws Exception {
        if (disk != null) {
            disk.close();
        }
    }

    Path profile() throws IOException {
        Path p = tmp.resolve("p.json");
        Files.writeString(p, """
                {"defaultAction": "SCMP_ACT_KILL_PROCESS", "syscalls": [
                  {"names": ["getppid", "exit_group", "read", "write", "openat", "close", "mmap", "brk"],
                   "action": "SCMP_ACT_ALLOW"}]}""");
        return p;
    }

    /** Exit 2, the message names {@code named} and the full disk, no stack trace, and the disk as before. */
    void assertNothingLeft(TreeSet<String> before, BpfCommandsTest.Outcome o, String named) throws IOException {
        assertEquals(2, o.status(), "status; stderr:\n" + o.err());
        assertTrue(o.err().contains(named), "names " + named + ":\n" + o.err());
        assertTrue(o.err().toLowerCase(java.util.Locale.ROOT).contains("no space left on device"), o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace:\n" + o.err());
        assertEquals(before, disk.listing(), "what the writer left on the full disk");
    }

    @Test
    void bpfCompileLeavesNoPartOfItsOutput() throws Exception {
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        Path out = disk.path().resolve("p.bpf");
        assertNothingLeft(
                before,
                BpfCommandsTest.run("bpf", "compile", profile().toString(), "-o", out.toString()),
                out.toString());
    }

    @Test
    void aReplacedOutputKeepsItsOldContent() throws Exception {
        Path out = disk.path().resolve("p.bpf");
        byte[] old = "the previous output\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Files.write(out, old);
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        assertNothingLeft(
                before,
                BpfCommandsTest.run("bpf", "compile", profile().toString(), "-o", out.toString()),
                out.toString());
        assertArrayEquals(old, Files.readAllBytes(out), "the old file, whole");
    }

    @Test
    void profileGenLeavesNoEmptyFile() throws Exception {
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        Path observations = Fixtures.home().resolve("fixtures/profiles/abcdf/observations.json");
        Path out = disk.path().resolve("profile.json");
        assertNothingLeft(
                before,
                BpfCommandsTest.run("profile", "gen", observations.toString(), "-o", out.toString()),
                out.toString());
    }

    @Test
    void bpfStatsOutLeavesNoFolder() throws Exception {
        disk.fill(8192); // room for the hidden folder's mark, not for the results
        TreeSet<String> before = disk.listing();
        Path out = disk.path().resolve("stats");
        assertNothingLeft(
                before, BpfCommandsTest.run("bpf", "stats", profile().toString(), "--out", out.toString()), "stats");
    }

    @Test
    void compareLeavesNeitherAPlotNorAFolder() throws Exception {
        Path a = Fixtures.resultsRoot().resolve("2026-11-30-vm-13");
        Path b = Fixtures.resultsRoot().resolve("2026-11-30-vm-8");
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        Path png = disk.path().resolve("added.png");
        assertNothingLeft(
                before,
                BpfCommandsTest.run("compare", a.toString(), b.toString(), "-o", png.toString()),
                png.toString());
        disk.fill(8192);
        before = disk.listing();
        Path out = disk.path().resolve("cmp");
        assertNothingLeft(
                before, BpfCommandsTest.run("compare", a.toString(), b.toString(), "--out", out.toString()), "cmp");
    }

    @Test
    void distillLeavesNoInvalidDistributionsToRefuseLater() throws Exception {
        Path dir = Files.createDirectory(disk.path().resolve("run"));
        Files.writeString(
                dir.resolve("summary.json"), "[{\"what\": \"x\", \"call\": \"getppid\"}]"); // as DistributionsTest
        Random rnd = new Random(3);
        try (SamplesFile s = SamplesFile.create(dir.resolve("samples.arrow"))) {
            long[] run = new long[2000];
            for (int i = 0; i < run.length; i++) {
                run[i] = 100 + rnd.nextInt(100_000);
            }
            s.append(0, "filtered", 0, run);
        }
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        assertNothingLeft(before, BpfCommandsTest.run("results", "distill", dir.toString()), "distributions.json");
        // with room again, the same distill succeeds: nothing was left for it to refuse
        Files.delete(disk.path().resolve("filler"));
        assertEquals(
                0, BpfCommandsTest.run("results", "distill", dir.toString()).status());
        assertTrue(Files.size(dir.resolve("distributions.json")) > 0);
    }

    @Test
    void floorCostLeavesNoSamplesFileAndNoFolder() throws Exception {
        heimdall.lab.testing.Requires.seccomp("kill_process", "errno", "allow");
        disk.fill(8192);
        TreeSet<String> before = disk.listing();
        Path out = disk.path().resolve("fc");
        BpfCommandsTest.Outcome o = BpfCommandsTest.run(
                "reproduce", "floor-cost", "--quick", "--no-broker", "--runs", "2", "--out", out.toString());
        assertTrue(o.status() == 2 || o.status() == 1, "status " + o.status() + "; stderr:\n" + o.err());
        assertTrue(o.err().toLowerCase(java.util.Locale.ROOT).contains("no space left on device"), o.err());
        assertEquals(before, disk.listing(), "what floor-cost left on the full disk");
    }

    @Test
    void safeFilesWriteNewLeavesNothingAndRefusesWhatIsThere() throws Exception {
        disk.fill(0);
        TreeSet<String> before = disk.listing();
        Path f = disk.path().resolve("new.bin");
        assertThrows(IOException.class, () -> SafeFiles.writeNew(f, new byte[10_000]));
        assertEquals(before, disk.listing());
        Files.delete(disk.path().resolve("filler"));
        SafeFiles.writeNew(f, new byte[] {1});
        assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> SafeFiles.writeNew(f, new byte[] {2}));
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(f));
        assertEquals(new TreeSet<>(java.util.List.of("new.bin")), disk.listing(), "no temporary left");
    }
}
