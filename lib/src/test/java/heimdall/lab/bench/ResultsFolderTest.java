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
        assertTrue(Files.isDirectory(a.path()));
        assertEquals(List.of(a.path().resolve(".heimdall-creator")), list(a.path()), "nothing but the creator's mark until published");
        assertEquals(List.of(a.path(), b.path(), c.path()).stream().sorted().toList(), list(tmp), "only the hidden temporaries so far");
        // the names are taken when published: in the order of publishing, each the next free one
        assertEquals("2026-11-30-vm-floor-cost", b.publish().getFileName().toString());
        assertEquals("2026-11-30-vm-floor-cost-2", a.publish().getFileName().toString());
        assertEquals("2026-11-30-vm-floor-cost-3", c.publish().getFileName().toString());
        assertEquals(List.of(), list(a.path()), "published without the mark");
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
            return s.sorted().toList();
        }
    }

    @Test
    void filesAreWrittenOnce() {
        ResultsFolder f = ResultsFolder.chosen(tmp.resolve("once"));
        f.writeJson("summary.json", List.of());
        assertThrows(RuntimeException.class, () -> f.writeJson("summary.json", List.of(1)));
        assertNotEquals(null, f.newFile("plots/a.png"));
    }

    /** Every reproduction writes environment.json and table.md through one path: the stop marked alike. */
    @Test
    @SuppressWarnings("unchecked")
    void environmentAndTableCarryTheStopTheSameWayForEveryone() throws Exception {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        ResultsFolder whole = ResultsFolder.chosen(tmp.resolve("whole"));
        whole.writeEnvironment("lanes", java.util.Optional.empty(), java.util.Map.of("cpu", 1));
        whole.writeTable(java.util.Optional.empty(), "fewer batches than asked", "| a |\n");
        java.util.Map<String, Object> env = json.readValue(whole.path().resolve("environment.json").toFile(), java.util.Map.class);
        assertEquals(List.of("reproduction", "interrupted", "interruption", "cpu"), List.copyOf(env.keySet()));
        assertEquals(false, env.get("interrupted"));
        assertEquals("| a |\n", Files.readString(whole.path().resolve("table.md")), "a whole run's table is as given");

        ResultsFolder cut = ResultsFolder.chosen(tmp.resolve("cut"));
        var stop = java.util.Optional.of(Interruption.Cause.NOTEBOOK);
        cut.writeEnvironment("host-load", stop, java.util.Map.of());
        cut.writeTable(stop, "rows have fewer runs than asked (runs_completed in summary.json)", "| a |\n");
        env = json.readValue(cut.path().resolve("environment.json").toFile(), java.util.Map.class);
        assertEquals(true, env.get("interrupted"));
        assertEquals(Interruption.Cause.NOTEBOOK.said(), env.get("interruption"));
        String table = Files.readString(cut.path().resolve("table.md"));
        String said = Interruption.Cause.NOTEBOOK.said();
        assertTrue(table.startsWith("**" + Character.toUpperCase(said.charAt(0)) + said.substring(1)
                + ": rows have fewer runs than asked (runs_completed in summary.json).**\n\n| a |"), table);

        ResultsFolder clash = ResultsFolder.chosen(tmp.resolve("clash"));
        assertThrows(IllegalArgumentException.class,
                () -> clash.writeEnvironment("lanes", java.util.Optional.empty(), java.util.Map.of("interrupted", false)),
                "a reproduction cannot contradict the writer's stop flag");
    }
}
