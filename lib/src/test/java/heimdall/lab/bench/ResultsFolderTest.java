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
    @TempDir
    Path tmp;

    @Test
    void allocatedFoldersAreNeverReused() throws Exception {
        LocalDate day = LocalDate.of(2026, 11, 30);
        ResultsFolder a = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        ResultsFolder b = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        ResultsFolder c = ResultsFolder.allocate(tmp, day, "vm", "floor-cost");
        assertTrue(Files.isDirectory(a.path()));
        assertEquals(
                List.of(a.path().resolve(".heimdall-creator")),
                list(a.path()),
                "nothing but the creator's mark until published");
        assertEquals(
                List.of(a.path(), b.path(), c.path()).stream().sorted().toList(),
                list(tmp),
                "only the hidden temporaries so far");
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
        java.util.Map<String, Object> env =
                json.readValue(whole.path().resolve("environment.json").toFile(), java.util.Map.class);
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
        assertTrue(
                table.startsWith("**" + Character.toUpperCase(said.charAt(0)) + said.substring(1)
                        + ": rows have fewer runs than asked (runs_completed in summary.json).**\n\n| a |"),
                table);

        ResultsFolder clash = ResultsFolder.chosen(tmp.resolve("clash"));
        assertThrows(
                IllegalArgumentException.class,
                () -> clash.writeEnvironment(
                        "lanes", java.util.Optional.empty(), java.util.Map.of("interrupted", false)),
                "a reproduction cannot contradict the writer's stop flag");
    }

    /** Nothing at the target until published; published whole; never over anything that is not an empty folder. */
    @Test
    void theFolderAppearsOnlyWhenPublishedAndNeverOverAnything() throws Exception {
        Path absent = tmp.resolve("absent");
        ResultsFolder a = ResultsFolder.chosen(absent);
        a.writeText("table.md", "x");
        assertFalse(Files.exists(absent), "nothing at --out while the run writes");
        assertTrue(
                a.path().getFileName().toString().startsWith(".absent.partial-"),
                a.path().toString());
        assertEquals(
                "rwx------",
                java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(a.path())));
        assertEquals(absent, a.publish());
        assertEquals(List.of(absent.resolve("table.md")), list(absent), "the mark is gone, the file is there");
        assertEquals(absent, a.publish(), "idempotent");

        Path mine = Files.createDirectory(tmp.resolve("mine"));
        ResultsFolder m = ResultsFolder.chosen(mine);
        m.writeText("table.md", "y");
        assertEquals(List.of(), list(mine), "the user's empty folder stays empty while the run writes");
        assertEquals(mine, m.publish(), "rename(2) onto the still empty folder");
        assertEquals("y", Files.readString(mine.resolve("table.md")));

        Path filled = Files.createDirectory(tmp.resolve("filled"));
        ResultsFolder f = ResultsFolder.chosen(filled);
        f.writeText("table.md", "z");
        Files.writeString(filled.resolve("theirs"), "someone's"); // after the check, before publishing
        heimdall.lab.Refusal e = assertThrows(heimdall.lab.Refusal.class, f::publish);
        assertTrue(
                e.getMessage().contains("no longer empty")
                        && e.getMessage().contains(f.path().toString()),
                e.getMessage());
        assertEquals(List.of(filled.resolve("theirs")), list(filled), "never mixed into, never replaced");
        assertEquals("z", Files.readString(f.path().resolve("table.md")), "what was measured is kept in the temporary");
        assertFalse(Files.exists(f.path().resolve(heimdall.lab.sys.CreatorMark.NAME)), "unmarked: never swept");

        Path raced = tmp.resolve("raced");
        ResultsFolder r = ResultsFolder.chosen(raced);
        Files.createDirectory(raced); // an empty folder appears where there was none: not ours to replace
        assertThrows(heimdall.lab.Refusal.class, r::publish);
        assertEquals(List.of(), list(raced));
        r.abandon();

        ResultsFolder gone = ResultsFolder.chosen(tmp.resolve("gone"));
        gone.writeText("table.md", "w");
        gone.abandon();
        assertFalse(Files.exists(gone.path()), "abandoned: the temporary goes whole");
        assertFalse(Files.exists(tmp.resolve("gone")));
    }

    /** A temporary a SIGKILLed run left (marked by a dead process) is removed by the next run in the same parent. */
    @Test
    void aKilledRunsTemporaryIsSweptByTheNextRun() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Path left = Files.createDirectory(
                tmp.resolve(".out.partial-0123456789abcdef"),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Files.writeString(left.resolve("samples.arrow"), "part of a run");
        Files.writeString(
                left.resolve(heimdall.lab.sys.CreatorMark.NAME),
                "heimdall-lab creator\npid " + p.pid()
                        + "\nstart 1\nboot "
                        + Files.readString(Path.of("/proc/sys/kernel/random/boot_id"))
                                .strip() + "\npidns "
                        + Files.readSymbolicLink(Path.of("/proc/self/ns/pid")) + "\n");
        Path notOurs = Files.createDirectory(tmp.resolve(".other.partial-1"));
        Files.writeString(notOurs.resolve("keep"), "no mark");
        ResultsFolder live = ResultsFolder.chosen(tmp.resolve("first"));
        ResultsFolder next = ResultsFolder.chosen(tmp.resolve("out"));
        assertFalse(Files.exists(left), "the dead run's temporary is swept");
        assertTrue(Files.exists(notOurs.resolve("keep")), "an unmarked look-alike is left alone");
        assertTrue(Files.isDirectory(live.path()), "a live run's temporary is left alone");
        live.abandon();
        next.abandon();
    }
}
