package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFolderTest {
    @TempDir Path tmp;

    @Test
    void allocatedFoldersAreNeverReused() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 30);
        ResultsFolder a = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        ResultsFolder b = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        ResultsFolder c = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        assertEquals("2026-11-30-vm-floor-cost", a.path().getFileName().toString());
        assertEquals("2026-11-30-vm-floor-cost-2", b.path().getFileName().toString());
        assertEquals("2026-11-30-vm-floor-cost-3", c.path().getFileName().toString());
        assertTrue(Files.isDirectory(a.path()));
        assertEquals(List.of(), list(a.path()), "nothing in it until there is something to keep");
    }

    @Test
    void chosenFolderMustBeEmptyOrAbsent() throws Exception {
        Path used = tmp.resolve("used");
        Files.createDirectories(used);
        Files.writeString(used.resolve("summary.json"), "[]");
        BadInput e = assertThrows(BadInput.class, () -> ResultsFolder.chosen(used));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
        assertEquals("[]", Files.readString(used.resolve("summary.json")), "nothing lost");

        ResultsFolder fresh = ResultsFolder.chosen(tmp.resolve("fresh"));
        assertTrue(Files.isDirectory(fresh.path()));
    }

    private static List<Path> list(Path dir) throws java.io.IOException {
        try (var s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void filesAreWrittenOnce() {
        ResultsFolder f = ResultsFolder.chosen(tmp.resolve("once"));
        f.writeJson("summary.json", List.of());
        assertThrows(RuntimeException.class, () -> f.writeJson("summary.json", List.of(1)));
        assertNotEquals(null, f.newFile("plots/a.png"));
    }
}
