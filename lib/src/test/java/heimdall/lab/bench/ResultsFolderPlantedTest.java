package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.sys.Planted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A results folder cannot be turned into a write elsewhere: planted links and FIFOs, foreign folders. */
class ResultsFolderPlantedTest {
    @TempDir
    Path tmp;

    @Test
    void aSymlinkedOutIsRefused() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Path results = Files.createDirectory(tmp.resolve("results"));
        Planted planted =
                Planted.in(outside, results).linkToDir(results.resolve("out")).watch();
        BadInput e = assertThrows(BadInput.class, () -> ResultsFolder.chosen(results.resolve("out")));
        assertTrue(
                e.getMessage().startsWith("--out " + results.resolve("out"))
                        && e.getMessage().contains("symbolic link"),
                e.getMessage());
        planted.assertUntouched("--out through a link");
    }

    @Test
    void linksAndFifosAtTheDefaultNamesAreSkippedNotUsed() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Path root = Files.createDirectory(tmp.resolve("results"));
        Planted planted = Planted.in(outside)
                .linkToDir(root.resolve("2026-11-30-vm-floor-cost"))
                .fifo(root.resolve("2026-11-30-vm-floor-cost-2"))
                .watch();
        ResultsFolder f = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> ResultsFolder.allocate(root, LocalDate.of(2026, 11, 30), "vm", "floor-cost"));
        f.writeJson("summary.json", List.of());
        assertEquals(root.resolve("2026-11-30-vm-floor-cost-3"), f.publish());
        planted.assertUntouched("default results folder");
    }

    @Test
    void filesPlantedInsideAreNeverWrittenThrough() throws Exception {
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        ResultsFolder f = ResultsFolder.chosen(tmp.resolve("out"));
        Planted planted = Planted.in(outside)
                .linkToFile(f.path().resolve("summary.json"))
                .fifo(f.path().resolve("table.md"))
                .linkToFile(f.path().resolve("samples.arrow"))
                .watch();
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThrows(RuntimeException.class, () -> f.writeJson("summary.json", List.of(1)));
            assertThrows(RuntimeException.class, () -> f.writeText("table.md", "x"));
            assertThrows(
                    RuntimeException.class, () -> SamplesFile.create(f.path().resolve("samples.arrow")));
            assertThrows(IllegalStateException.class, () -> f.newFile("summary.json"));
        });
        planted.assertUntouched("files in the results folder");
    }

    @Test
    void foldersOthersCanChangeAreRefused() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        BadInput e = assertThrows(BadInput.class, () -> ResultsFolder.chosen(open));
        assertTrue(e.getMessage().contains("others could change"), e.getMessage());

        Path shared = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        BadInput p = assertThrows(BadInput.class, () -> ResultsFolder.chosen(shared.resolve("out")));
        assertTrue(p.getMessage().contains("its parent " + shared), p.getMessage());
        assertEquals(false, Files.exists(shared.resolve("out")), "refused before anything was created");

        Files.setAttribute(shared, "unix:mode", 01777); // sticky, like /tmp: others cannot rename ours
        ResultsFolder ok = ResultsFolder.chosen(shared.resolve("out"));
        assertTrue(Files.isDirectory(ok.path()), "made (empty: plots/ comes with the plots)");
    }
}
