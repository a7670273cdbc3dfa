package heimdall.lab.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.Refusal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GraphFilesTest {
    static final Path FIXTURES = fixtures();

    static Path fixtures() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("fixtures/graphs"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException(
                    "fixtures/graphs not found above " + Path.of("").toAbsolutePath());
        }
        return p.resolve("fixtures/graphs");
    }

    static Path nodes(Path dir, String program) {
        return dir.resolve(program + GraphFiles.NODES_SUFFIX);
    }

    static Path edges(Path dir, String program) {
        return dir.resolve(program + GraphFiles.EDGES_SUFFIX);
    }

    @Test
    void checkedInAbcdfImportsWithItsPinAndEqualsTheGenerator() {
        GraphFiles.Imported imp = GraphFiles.readPinned(nodes(FIXTURES, "abcdf"), edges(FIXTURES, "abcdf"));
        assertTrue(imp.pinned());
        Graph expected = FixtureGraphs.abcdf();
        assertEquals(expected.sites(), imp.graph().sites());
        assertEquals(expected.edges(), imp.graph().edges());
        assertEquals(List.of("main", "signal:SIGUSR1"), imp.graph().entries());
        assertEquals(110, imp.graph().site(imp.graph().firsts(0)[0]).syscall());
    }

    @Test
    void regeneratingTheFixturesReproducesTheirPinnedBytes(@TempDir Path tmp) throws IOException {
        FixtureGraphs.main(new String[] {tmp.toString()});
        Pins pinned = Pins.load(FIXTURES.resolve(Pins.FILE_NAME));
        for (Path p : List.of(nodes(tmp, "abcdf"), edges(tmp, "abcdf"))) {
            assertEquals(
                    pinned.pinNamed(p.getFileName().toString()).orElseThrow(),
                    Pins.sha256(p),
                    p + " differs from the checked-in fixture");
        }
    }

    @Test
    void roundTripKeepsEverythingIncludingAgainEdgesAndLargeIds(@TempDir Path tmp) throws IOException {
        Graph g = Graph.builder()
                .site(4_000_000_000L, 0, "read", "loop", false, "thread:worker", "signal:SIGTERM")
                .site(3, 1, "wr\u00eete", "loop", true)
                .next(4_000_000_000L, 3)
                .again(3, 3)
                .build();
        GraphFiles.write(g, tmp, "rt");
        GraphFiles.Imported imp = GraphFiles.read(nodes(tmp, "rt"), edges(tmp, "rt"));
        assertEquals(g.sites(), imp.graph().sites());
        assertEquals(g.edges(), imp.graph().edges());
        assertFalse(imp.pinned(), "no SHA256SUMS beside: unpinned");
        assertEquals(Pins.sha256(nodes(tmp, "rt")), imp.nodesSha256(), "the digest is recorded all the same");
        assertThrows(BadInput.class, () -> GraphFiles.readPinned(nodes(tmp, "rt"), edges(tmp, "rt")));
    }

    private static Path copyFixture(Path tmp) throws IOException {
        for (String f : List.of("abcdf.exec.nodes.arrow", "abcdf.exec.edges.arrow", Pins.FILE_NAME)) {
            Files.copy(FIXTURES.resolve(f), tmp.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        return tmp;
    }

    @Test
    void pinMismatchIsBadInputNamingFileAndDigests(@TempDir Path tmp) throws IOException {
        copyFixture(tmp);
        Graph other = Graph.builder().site(1, 110, "A", "main", true, "main").build();
        GraphFiles.writeNodes(other.sites(), nodes(tmp, "abcdf"));
        BadInput e = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(tmp, "abcdf"), edges(tmp, "abcdf")));
        assertTrue(e.getMessage().contains("abcdf.exec.nodes.arrow: sha256: pinned 16acf004"), e.getMessage());
    }

    @Test
    void corruptFileIsBadInputNamingTheFile(@TempDir Path tmp) throws IOException {
        Files.writeString(nodes(tmp, "bad"), "this is not arrow");
        GraphFiles.writeEdges(List.of(), edges(tmp, "bad"));
        BadInput e = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(tmp, "bad"), edges(tmp, "bad")));
        assertTrue(
                e.getMessage().startsWith(nodes(tmp, "bad") + ": file: not a readable Arrow IPC file"), e.getMessage());

        // a real file cut short
        GraphFiles.write(FixtureGraphs.abcdf(), tmp, "cut");
        byte[] whole = Files.readAllBytes(edges(tmp, "cut"));
        Files.write(edges(tmp, "cut"), java.util.Arrays.copyOf(whole, whole.length / 2));
        BadInput cut = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(tmp, "cut"), edges(tmp, "cut")));
        assertTrue(cut.getMessage().startsWith(edges(tmp, "cut") + ": file:"), cut.getMessage());
    }

    @Test
    void wronglyTypedOrMissingColumnIsBadInputNamingTheColumn(@TempDir Path tmp) throws IOException {
        // site as signed int32 instead of uint32
        Schema schema = new Schema(List.of(
                new Field("site", FieldType.notNullable(new ArrowType.Int(32, true)), null),
                new Field("syscall", FieldType.nullable(new ArrowType.Int(32, true)), null)));
        Path f = nodes(tmp, "typed");
        try (BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
                var ch = Files.newByteChannel(
                        f, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
                ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
            ((IntVector) root.getVector("site")).allocateNew(1);
            ((IntVector) root.getVector("site")).set(0, 1);
            ((IntVector) root.getVector("syscall")).allocateNew(1);
            ((IntVector) root.getVector("syscall")).set(0, 110);
            root.setRowCount(1);
            w.start();
            w.writeBatch();
            w.end();
        }
        GraphFiles.writeEdges(List.of(), edges(tmp, "typed"));
        BadInput e = assertThrows(BadInput.class, () -> GraphFiles.read(f, edges(tmp, "typed")));
        assertTrue(e.getMessage().startsWith(f + ": site: has type int32, expected uint32"), e.getMessage());

        // edges file whose kind column is missing
        Schema edgeSchema = new Schema(List.of(
                new Field("src", FieldType.notNullable(new ArrowType.Int(32, false)), null),
                new Field("dst", FieldType.notNullable(new ArrowType.Int(32, false)), null),
                new Field("what", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
        Path ef = edges(tmp, "abcdf");
        GraphFiles.writeNodes(FixtureGraphs.abcdf().sites(), nodes(tmp, "abcdf"));
        try (BufferAllocator a = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(edgeSchema, a);
                var ch = Files.newByteChannel(
                        ef, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
                ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
            ((VarCharVector) root.getVector("what")).allocateNew(0);
            root.setRowCount(0);
            w.start();
            w.writeBatch();
            w.end();
        }
        BadInput m = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(tmp, "abcdf"), ef));
        assertTrue(m.getMessage().startsWith(ef + ": kind: column missing"), m.getMessage());
    }

    @Test
    void badEdgeKindAndDanglingEdgeAreBadInput(@TempDir Path tmp) throws IOException {
        GraphFiles.writeNodes(FixtureGraphs.abcdf().sites(), nodes(tmp, "k"));
        GraphFiles.writeEdges(List.of(new Edge(1, 99, EdgeKind.NEXT)), edges(tmp, "k"));
        BadInput d = assertThrows(BadInput.class, () -> GraphFiles.read(nodes(tmp, "k"), edges(tmp, "k")));
        assertTrue(
                d.getMessage().contains("k.exec.edges.arrow: dst: row 0: site 99 is not in the nodes file"),
                d.getMessage());
    }

    @Test
    void unmappedFunctionRefusesImportNamingTheSite(@TempDir Path tmp) throws IOException {
        List<Site> sites = new java.util.ArrayList<>(FixtureGraphs.abcdf().sites());
        sites.set(2, new Site(3, -1, "C", "resolve_user", List.of(), false)); // written as a null syscall
        GraphFiles.writeNodes(sites, nodes(tmp, "u"));
        GraphFiles.writeEdges(FixtureGraphs.abcdf().edges(), edges(tmp, "u"));
        Refusal r = assertThrows(Refusal.class, () -> GraphFiles.read(nodes(tmp, "u"), edges(tmp, "u")));
        assertTrue(
                r.getMessage()
                        .contains(
                                "1 of 7 sites are unmapped functions (null syscall), first site 3 (C in resolve_user)"),
                r.getMessage());
    }

    @Test
    void unknownSyscallRefuses() {
        Refusal r = assertThrows(
                Refusal.class,
                () -> Graph.builder().site(1, 600, "x", "f", false, "main").build());
        assertTrue(r.getMessage().contains("site 1 (x in f) calls unknown syscall 600"), r.getMessage());
    }

    @Test
    void malformedPinLineIsBadInput(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve(Pins.FILE_NAME), "nothex  abcdf.exec.nodes.arrow\n", StandardCharsets.UTF_8);
        BadInput e = assertThrows(BadInput.class, () -> Pins.load(tmp.resolve(Pins.FILE_NAME)));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
        assertArrayEquals(new int[0], new int[0]);
    }
}
