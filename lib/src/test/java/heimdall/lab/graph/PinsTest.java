package heimdall.lab.graph;

import static heimdall.lab.graph.GraphFilesTest.edges;
import static heimdall.lab.graph.GraphFilesTest.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.sys.Planted;
import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins are security input: a pin verifies only the file it names, by its path beside SHA256SUMS; a
 * file named twice, a non-UTF-8 pin file, and anything but a regular file at SHA256SUMS are refused
 * with the reason; and SHA256SUMS is written only into a folder others cannot change.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PinsTest {
    @TempDir
    Path dir;

    private Path sums() {
        return dir.resolve(Pins.FILE_NAME);
    }

    /** abcdf's pair in {@code dir}, pinned with {@code lines} (each {@code %s}/{@code %e} the nodes/edges digest). */
    private void pair(String... lines) throws IOException {
        GraphFiles.write(FixtureGraphs.abcdf(), dir, "abcdf");
        String n = Pins.sha256(nodes(dir, "abcdf"));
        String e = Pins.sha256(edges(dir, "abcdf"));
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.replace("%n", n).replace("%e", e)).append('\n');
        }
        Files.writeString(sums(), b.toString());
    }

    private String refusal() {
        return assertThrows(BadInput.class, () -> GraphFiles.readPinned(nodes(dir, "abcdf"), edges(dir, "abcdf")))
                .getMessage();
    }

    @Test
    void aPinWithADirectoryPartOrAnAbsolutePathPinsThatFileNotTheOneBeside() throws IOException {
        for (String name : List.of(
                "other/dir/abcdf.exec.nodes.arrow",
                "/etc/abcdf.exec.nodes.arrow",
                dir + "/sub/../../abcdf.exec.nodes.arrow")) {
            pair("%n  " + name, "%e  abcdf.exec.edges.arrow");
            String m = refusal();
            assertTrue(m.startsWith(nodes(dir, "abcdf") + ": sha256: no pin for this file"), name + ": " + m);
        }
        // ./name is the same file, named by its path beside SHA256SUMS
        pair("%n  ./abcdf.exec.nodes.arrow", "%e *abcdf.exec.edges.arrow");
        assertTrue(
                GraphFiles.readPinned(nodes(dir, "abcdf"), edges(dir, "abcdf")).pinned());
    }

    @Test
    void aFileNamedTwiceIsRefusedWhicheverLineIsRight() throws IOException {
        String wrong = "0".repeat(64);
        for (String[] lines : List.of(
                new String[] {wrong + "  abcdf.exec.nodes.arrow", "%n  abcdf.exec.nodes.arrow"},
                new String[] {"%n  abcdf.exec.nodes.arrow", wrong + "  ./abcdf.exec.nodes.arrow"},
                new String[] {"%n  abcdf.exec.nodes.arrow", "%n  abcdf.exec.nodes.arrow"})) {
            pair(lines[0], lines[1], "%e  abcdf.exec.edges.arrow");
            String m = refusal();
            assertTrue(m.startsWith(sums() + ": line 2: 'abcdf.exec.nodes.arrow' is pinned twice (also on line 1)"), m);
        }
    }

    @Test
    void aNonUtf8PinFileIsRefusedInOurWords() throws IOException {
        pair("%n  abcdf.exec.nodes.arrow", "%e  abcdf.exec.edges.arrow");
        byte[] text = Files.readAllBytes(sums());
        byte[] bad = new byte[text.length + 2];
        System.arraycopy(text, 0, bad, 0, text.length);
        bad[text.length] = (byte) 0xff;
        bad[text.length + 1] = '\n';
        Files.write(sums(), bad);
        String m = refusal();
        assertEquals(sums() + ": file: not UTF-8 text (a pin file lists '<sha256 hex>  <file name>' lines)", m);
    }

    @Test
    void aPinFileThatIsADirectoryFifoOrLinkIsRefusedNotTakenForNoPins() throws Exception {
        GraphFiles.write(FixtureGraphs.abcdf(), dir, "abcdf");
        Files.createDirectory(sums());
        assertTrue(refusal().startsWith(sums() + ": not a regular file: is a directory"));
        Files.delete(sums());
        Planted.mkfifo(sums());
        assertTrue(refusal().startsWith(sums() + ": not a regular file: is a FIFO"));
        // unpinned reading is no way around it: the pin file is still read, and refused
        String m = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(dir, "abcdf"), edges(dir, "abcdf")))
                .getMessage();
        assertTrue(m.contains("is a FIFO"), m);
        Files.delete(sums());
        Path elsewhere = Files.writeString(
                Files.createTempFile(dir, "pins", ".txt"),
                Pins.line(nodes(dir, "abcdf")) + "\n" + Pins.line(edges(dir, "abcdf")) + "\n");
        Files.createSymbolicLink(sums(), elsewhere);
        assertTrue(refusal().startsWith(sums() + ": is a symbolic link; not followed"));
    }

    @Test
    void rewriteKeepsOtherLinesButRefusesAMalformedOrDoubledPinFile() throws IOException {
        pair("%n  abcdf.exec.nodes.arrow", "%e  abcdf.exec.edges.arrow", "1".repeat(64) + "  other.arrow");
        Pins.rewrite(dir, List.of(nodes(dir, "abcdf"), edges(dir, "abcdf")));
        String text = Files.readString(sums(), StandardCharsets.UTF_8);
        assertTrue(text.contains("1".repeat(64) + "  other.arrow\n"), text);
        assertEquals(3, text.lines().count(), text);
        Files.writeString(sums(), text + "1".repeat(64) + "  ./other.arrow\n");
        assertThrows(BadInput.class, () -> Pins.rewrite(dir, List.of(nodes(dir, "abcdf"))));
    }

    /** graph record's folder: shared ones (others may have planted SHA256SUMS there) are refused. */
    @Test
    void filesAreWrittenOnlyIntoAFolderOthersCannotChange() throws Exception {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(shared, "unix:mode", 01777);
        Planted.mkfifo(shared.resolve(Pins.FILE_NAME));
        BadInput e = assertThrows(BadInput.class, () -> SafeFiles.ownFolder("--out", shared));
        assertTrue(e.getMessage().startsWith("--out " + shared + ": writable by others (mode 1777)"), e.getMessage());
        Path link = Files.createSymbolicLink(dir.resolve("link"), Files.createDirectory(dir.resolve("target")));
        assertTrue(assertThrows(BadInput.class, () -> SafeFiles.ownFolder("--out", link))
                .getMessage()
                .contains("symbolic link"));
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        try {
            Files.setAttribute(theirs, "unix:uid", 65534);
        } catch (IOException notRoot) {
            // only root can give a folder away; the check below then does not apply
        }
        if ((Integer) Files.getAttribute(theirs, "unix:uid") == 65534) { // chown works as root only
            assertTrue(assertThrows(BadInput.class, () -> SafeFiles.ownFolder("--out", theirs))
                    .getMessage()
                    .contains("owned by uid 65534"));
        }
        // a new folder is made, and is ours
        Path fresh = shared.resolve("new");
        SafeFiles.ownFolder("--out", fresh);
        assertTrue(Files.isDirectory(fresh));
        assertFalse(Files.exists(fresh.resolve(Pins.FILE_NAME)));
    }
}
