package heimdall.lab.graph;

import static heimdall.lab.graph.GraphFilesTest.edges;
import static heimdall.lab.graph.GraphFilesTest.nodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graph files mutated the way the fuzzing that found issue 20 mutated them: cut at every few bytes,
 * every byte flipped, row counts patched to 2^31-1, entries no graph may hold, no sites at all.
 * Import answers each with the graph, a {@link BadInput} naming the file or a {@link Refusal};
 * never another exception, never a message quoting Arrow's exceptions, always quickly.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GraphFilesMutationTest {
    @TempDir
    Path dir;

    /** One import's outcome: "ok", "refused" or the bad input's message; anything else fails the test. */
    private static String outcome(Path nodes, Path edges) {
        long t0 = System.nanoTime();
        try {
            GraphFiles.read(nodes, edges);
            return "ok";
        } catch (Refusal r) {
            return "refused";
        } catch (BadInput b) {
            String m = b.getMessage();
            assertTrue(m.startsWith(nodes.toString()) || m.startsWith(edges.toString()), m);
            for (String internal : List.of("Exception", "recordBatchFB", "Error:", "\tat ")) {
                assertFalse(m.contains(internal), "Arrow's words in the message: " + m);
            }
            return m;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            throw new AssertionError("not bad input: " + e, e);
        } finally {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "one import took " + ms + " ms");
        }
    }

    /** A chain of {@code n} sites: main starts at the first, each calls getpid, the last may end. */
    static Graph chain(int n) {
        Graph.Builder b = Graph.builder();
        for (int i = 1; i <= n; i++) {
            b.site(i, 39, "s" + i, "f", i == n, i == 1 ? new String[] {"main"} : new String[0]);
            if (i > 1) {
                b.next(i - 1, i);
            }
        }
        return b.build();
    }

    private Path[] pair(Graph g, String program) throws IOException {
        GraphFiles.write(g, dir, program);
        return new Path[] {nodes(dir, program), edges(dir, program)};
    }

    @Test
    void everyCutOfEitherFileIsBadInput() throws IOException {
        Path[] good = pair(FixtureGraphs.abcdf(), "abcdf");
        for (int which = 0; which < 2; which++) {
            byte[] bytes = Files.readAllBytes(good[which]);
            Path[] cut = pair(FixtureGraphs.abcdf(), "cut");
            for (int len = 0; len < bytes.length; len++) {
                Files.write(cut[which], Arrays.copyOf(bytes, len));
                String o = outcome(cut[0], cut[1]);
                assertTrue(o.startsWith(cut[which] + ": "), "cut at " + len + " of " + bytes.length + ": " + o);
            }
        }
    }

    @Test
    void everyFlippedByteIsTheGraphBadInputOrARefusal() throws IOException {
        Path[] good = pair(FixtureGraphs.abcdf(), "abcdf");
        int bad = 0;
        for (int which = 0; which < 2; which++) {
            byte[] bytes = Files.readAllBytes(good[which]);
            Path[] flipped = pair(FixtureGraphs.abcdf(), "flip");
            for (int at = 0; at < bytes.length; at++) {
                for (int mask : at % 5 == 0 ? new int[] {0xff, 0x80, 0x01} : new int[] {0xff}) {
                    byte[] b = bytes.clone();
                    b[at] ^= (byte) mask;
                    Files.write(flipped[which], b);
                    bad += outcome(flipped[0], flipped[1]).equals("ok") ? 0 : 1;
                }
            }
        }
        assertTrue(bad > 100, "most flips break the file: " + bad);
    }

    @Test
    void rowCountsPatchedPastTheFileAreRefusedBeforeAnythingIsAllocated() throws IOException {
        int n = 333; // a count whose 8 bytes are easy to find in the batch's metadata
        for (int which = 0; which < 2; which++) {
            Path[] p = pair(chain(n), "rows");
            byte[] bytes = Files.readAllBytes(p[which]);
            List<Integer> at = find(bytes, le64(which == 0 ? n : n - 1));
            at.removeIf(k -> !inBatchMetadata(bytes, k));
            assertFalse(at.isEmpty(), "row count found in the file");
            for (long patched : new long[] {Integer.MAX_VALUE, 1L << 40, -1, n + 1}) {
                for (int k : at) {
                    byte[] b = bytes.clone();
                    System.arraycopy(le64(patched), 0, b, k, 8);
                    Files.write(p[which], b);
                    String o = outcome(p[0], p[1]);
                    // One row more fits the buffers' padding: a valid file, whose import says what it is.
                    assertTrue(patched == n + 1 || o.startsWith(p[which] + ": "), patched + " at " + k + ": " + o);
                }
            }
        }
    }

    @Test
    void entriesOtherThanMainThreadRolesAndCatchableSignalsAreRefused() throws Exception {
        for (String entry : List.of(
                "bogus",
                "signal:SIGFOO",
                "signal:",
                "signal:SIGKILL",
                "thread:",
                "Main",
                "signal:sigusr1",
                "signal:SIGSTOP",
                "signal:signal 99")) {
            Path[] p = {nodes(dir, "entries"), edges(dir, "entries")};
            Files.deleteIfExists(p[0]);
            GraphFiles.writeNodes(List.of(new Site(1, 39, "s", "f", List.of("main", entry), true)), p[0]);
            GraphFiles.writeEdges(List.of(), p[1]);
            String o = outcome(p[0], p[1]);
            assertTrue(o.startsWith(p[0] + ": first_of: row 0: "), entry + ": " + o);
            Object[] info = GraphInfoCommandTest.main(p[0].toString(), p[1].toString(), "--unpinned");
            assertEquals(2, info[0], entry + ": " + info[1]);
            assertTrue(((String) info[1]).contains("first_of"), (String) info[1]);
        }
        for (String entry : List.of("thread:worker", "signal:SIGUSR1", "signal:SIGRTMIN+3", "signal:SIGCHLD")) {
            Graph g = Graph.of(List.of(new Site(1, 39, "s", "f", List.of("main", entry), true)), List.of(), "n", "e");
            Path[] p = pair(g, "entries");
            assertEquals("ok", outcome(p[0], p[1]), entry);
        }
    }

    @Test
    void aGraphWithNoSitesIsRefused() throws IOException {
        Path n = nodes(dir, "empty");
        Path e = edges(dir, "empty");
        GraphFiles.writeNodes(List.of(), n);
        GraphFiles.writeEdges(List.of(), e);
        String o = outcome(n, e);
        assertTrue(o.startsWith(n + ": site: no sites"), o);
    }

    @Test
    void aLinkOrFifoAtAGraphFileIsRefusedWithoutWaiting() throws Exception {
        Path[] p = pair(FixtureGraphs.abcdf(), "abcdf");
        Path real = Files.move(p[0], dir.resolve("elsewhere.arrow"));
        Files.createSymbolicLink(p[0], real);
        assertTrue(outcome(p[0], p[1]).startsWith(p[0] + ": is a symbolic link; not followed"));
        Files.delete(p[0]);
        heimdall.lab.sys.Planted.mkfifo(p[0]);
        assertTrue(outcome(p[0], p[1]).startsWith(p[0] + ": not a regular file: is a FIFO"));
        assertThrows(BadInput.class, () -> GraphFiles.readNodes(p[0]));
    }

    /** Whether byte {@code k} of {@code file} lies in a record batch's metadata (not its body). */
    static boolean inBatchMetadata(byte[] file, int k) {
        try (org.apache.arrow.memory.BufferAllocator a = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.ipc.ArrowFileReader r = new org.apache.arrow.vector.ipc.ArrowFileReader(
                        new org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel(file), a)) {
            for (var b : r.getRecordBlocks()) {
                if (k >= b.getOffset() && k < b.getOffset() + b.getMetadataLength()) {
                    return true;
                }
            }
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] le64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    private static List<Integer> find(byte[] hay, byte[] needle) {
        List<Integer> at = new ArrayList<>();
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            at.add(i);
        }
        if (at.isEmpty()) {
            fail("pattern not found");
        }
        return at;
    }
}
