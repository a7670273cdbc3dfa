package heimdall.lab.sys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A results folder is renamed into place only where nothing is: with {@code RENAME_NOREPLACE}, and on a
 * file system without it (9p, a guest's shared checkout) by claiming the name with an empty directory
 * first. Both ways leave whatever someone put at the name alone.
 */
class RenamesTest {
    @TempDir
    Path tmp;

    private Path folder(String name) throws Exception {
        Path d = Files.createDirectory(tmp.resolve(name));
        Files.writeString(d.resolve("summary.json"), "{}");
        return d;
    }

    @Test
    void noReplaceMovesOntoAnAbsentNameAndNeverOntoAnything() throws Exception {
        Path from = folder("from");
        assertTrue(Renames.renameNoReplace(from, tmp.resolve("to")));
        assertTrue(Files.isRegularFile(tmp.resolve("to/summary.json")));
        Path again = folder("again");
        Files.createDirectory(tmp.resolve("empty"));
        assertFalse(Renames.renameNoReplace(again, tmp.resolve("empty")), "an empty folder is not replaced");
        assertFalse(Renames.renameNoReplace(again, tmp.resolve("to")));
        assertTrue(Files.isDirectory(again), "nothing moved");
    }

    @Test
    void withoutTheFlagTheNameIsClaimedFirst() throws Exception {
        Path from = folder("from");
        assertTrue(Renames.claimThenRename(from, tmp.resolve("to")));
        assertTrue(Files.isRegularFile(tmp.resolve("to/summary.json")));
        assertFalse(Files.exists(from));

        Path next = folder("next");
        Files.createDirectory(tmp.resolve("empty"));
        assertFalse(
                Renames.claimThenRename(next, tmp.resolve("empty")), "an empty folder someone made is not replaced");
        Path target = Files.createDirectory(tmp.resolve("elsewhere"));
        Files.createSymbolicLink(tmp.resolve("link"), target);
        assertFalse(Renames.claimThenRename(next, tmp.resolve("link")), "a planted link is not followed or replaced");
        assertTrue(Files.isSymbolicLink(tmp.resolve("link")));
        assertEquals(0, target.toFile().list().length, "nothing was moved through the link");
        assertTrue(Files.isDirectory(next, LinkOption.NOFOLLOW_LINKS), "the folder stays where it was");
    }
}
