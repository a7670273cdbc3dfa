package heimdall.lab.graph;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.Refusal;
import heimdall.lab.arrow.ArrowInput;
import heimdall.lab.sys.SafeFiles;
import heimdall.lab.sys.Signals;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Import and export of the executable syscall projection, one Arrow IPC file pair per program.
 *
 * <p>{@code <program>.exec.nodes.arrow}: {@code site} uint32, {@code syscall} int32 (null where the
 * site is an unmapped function), {@code name} utf8, {@code function} utf8, {@code first_of}
 * list&lt;utf8&gt; (entries that start at the site; {@code signal:<NAME>} for handlers),
 * {@code terminal} bool. {@code <program>.exec.edges.arrow}: {@code src}, {@code dst} uint32,
 * {@code kind} utf8 ({@code next} or {@code again}). Either file may hold several record batches;
 * other columns are ignored; a null {@code first_of} means the site starts no entry.
 *
 * <p>The files are read as hostile input: through {@link HostileFiles} (no link followed at the name,
 * no FIFO waited on, regular files only, at most {@link #MAX_FILE_BYTES}), once, and parsed from that
 * copy by {@link ArrowInput} (blocks, row counts and buffers checked against the file before Arrow
 * allocates for them; the columns' types checked on the schema before any batch).
 *
 * <p>Errors: a pin mismatch, a file Arrow cannot read, a missing or wrongly typed column, a null in a
 * column that may not hold one, text that is not UTF-8, a bad edge kind, a nodes file with no sites,
 * an entry other than {@code main}, {@code thread:<creator>} or {@code signal:<NAME>} of a signal a
 * handler can catch: {@link BadInput} naming the file, the column and the reason. Sites with a null syscall: a {@link
 * Refusal} naming them and how many there are; the graph
 * is never imported with those sites dropped or allowed.
 */
public final class GraphFiles {
    private GraphFiles() {}

    /** Suffix of a nodes file. */
    public static final String NODES_SUFFIX = ".exec.nodes.arrow";
    /** Suffix of an edges file. */
    public static final String EDGES_SUFFIX = ".exec.edges.arrow";

    /**
     * An imported graph with how it was checked.
     *
     * @param nodesSha256 the SHA-256 of the nodes file's bytes that were imported (pinned or not)
     * @param edgesSha256 likewise for the edges file
     * @param pinned whether both files were listed in the {@code SHA256SUMS} beside them (and matched)
     * @param nanos wall time of the import (read, digest, pin check, validation)
     */
    public record Imported(
            Graph graph, Path nodes, Path edges, String nodesSha256, String edgesSha256, boolean pinned, long nanos) {}

    /**
     * Imports a pair, checking each file against the {@code SHA256SUMS} beside it when that file lists
     * it; a file no pin lists imports unpinned ({@link Imported#pinned()} false). For callers that were
     * told to accept unpinned graphs ({@code --unpinned}); the default is {@link #readPinned}.
     */
    public static Imported read(Path nodes, Path edges) {
        return read(nodes, edges, false);
    }

    /**
     * Imports a pair that must be pinned in the {@code SHA256SUMS} beside each file: a file with no pin
     * is bad input, as is a digest that differs from its pin.
     */
    public static Imported readPinned(Path nodes, Path edges) {
        return read(nodes, edges, true);
    }

    /** {@link #readPinned} when {@code requirePins}, else {@link #read}. */
    public static Imported read(Path nodes, Path edges, boolean requirePins) {
        long t0 = System.nanoTime();
        // Each file is read once: the digest, the pin check and the import all use the same bytes.
        byte[] nodeBytes = bytes(nodes);
        byte[] edgeBytes = bytes(edges);
        String nodesSha = Pins.sha256(nodeBytes);
        String edgesSha = Pins.sha256(edgeBytes);
        boolean nodesPinned = checkPin(nodes, nodesSha, requirePins);
        boolean edgesPinned = checkPin(edges, edgesSha, requirePins);
        List<Site> sites = readNodes(nodes, nodeBytes);
        List<Edge> edgeList = readEdges(edges, edgeBytes);
        Graph g = Graph.of(sites, edgeList, nodes.toString(), edges.toString());
        return new Imported(g, nodes, edges, nodesSha, edgesSha, nodesPinned && edgesPinned, System.nanoTime() - t0);
    }

    /** Graph files larger than this are refused as bad input (they are read whole, once). */
    public static final long MAX_FILE_BYTES = 1L << 30;

    private static byte[] bytes(Path file) {
        // No link followed at the name, no FIFO waited on, regular files only, at most MAX_FILE_BYTES.
        return HostileFiles.read(file, MAX_FILE_BYTES);
    }

    /** Whether {@code file} (whose bytes have digest {@code sha}) is pinned; a differing pin is bad input. */
    private static boolean checkPin(Path file, String sha, boolean required) {
        Optional<Pins> pins = Pins.beside(file);
        Optional<String> pin = pins.flatMap(p -> p.pinFor(file));
        if (pin.isEmpty()) {
            if (required) {
                throw BadInput.at(
                        file,
                        "sha256",
                        "no pin for this file in "
                                + file.toAbsolutePath().getParent().resolve(Pins.FILE_NAME) + " (its digest is " + sha
                                + "); unpinned graphs are imported only when asked (--unpinned)");
            }
            return false;
        }
        if (!pin.get().equals(sha)) {
            throw BadInput.at(
                    file,
                    "sha256",
                    "pinned " + pin.get() + " in " + pins.get().source() + " but the file's digest is " + sha);
        }
        return true;
    }

    private static final ArrowType UINT32 = new ArrowType.Int(32, false);
    private static final ArrowType INT32 = new ArrowType.Int(32, true);

    static Schema nodesSchema() {
        return new Schema(List.of(
                new Field("site", FieldType.notNullable(UINT32), null),
                new Field("syscall", FieldType.nullable(INT32), null),
                new Field("name", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field("function", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                new Field(
                        "first_of",
                        FieldType.notNullable(ArrowType.List.INSTANCE),
                        List.of(new Field("item", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null))),
                new Field("terminal", FieldType.notNullable(ArrowType.Bool.INSTANCE), null)));
    }

    static Schema edgesSchema() {
        return new Schema(List.of(
                new Field("src", FieldType.notNullable(UINT32), null),
                new Field("dst", FieldType.notNullable(UINT32), null),
                new Field("kind", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
    }

    private interface BatchReader {
        void read(VectorSchemaRoot root, int rows);
    }

    /** Arrow memory for a file of {@code n} bytes: its bodies, and validity buffers no larger than them. */
    private static long memoryFor(long n) {
        return 2 * n + (16L << 20);
    }

    /**
     * Reads a graph file's batches through {@link ArrowInput} (blocks, row counts and buffers checked
     * against the file before Arrow allocates); {@code columns} checks the schema before any batch.
     */
    private static void readFile(Path file, byte[] bytes, Consumer<ArrowInput> columns, BatchReader each) {
        try (ArrowInput in = ArrowInput.of(file, bytes, memoryFor(bytes.length))) {
            columns.accept(in);
            while (in.next()) {
                try {
                    each.read(in.root(), in.rows());
                } catch (BadInput | Refusal e) {
                    throw e;
                } catch (IndexOutOfBoundsException | IllegalStateException | IllegalArgumentException e) {
                    throw in.damaged(e);
                }
            }
        }
    }

    private static void noNull(FieldVector v, Path file, int r, int row) {
        if (v.isNull(r)) {
            throw BadInput.at(file, v.getName(), "row " + row + " is null");
        }
    }

    /** A utf8 cell as text; bytes that are not UTF-8 are bad input, never replaced. */
    private static String text(Path file, String column, int row, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw BadInput.at(file, column, "row " + row + ": not UTF-8 text");
        }
    }

    /**
     * An entry name as a graph file may hold it (DESIGN.md, "Graph files"): {@code main}, a thread role
     * {@code thread:<creator>}, or a signal handler {@code signal:<NAME>} of a Linux signal
     * ({@code SIGUSR1}, {@code SIGRTMIN+3}); anything else is bad input, not a role of its own.
     */
    static String entryName(Path file, int row, String e) {
        if (e.equals("main") || e.startsWith("thread:") && e.length() > "thread:".length()) {
            return e;
        }
        if (Graph.isSignal(e)) {
            String sig = e.substring(Graph.SIGNAL_PREFIX.length());
            for (int n = 1; n <= 64; n++) {
                if (Signals.name(n).equals(sig) && n != Signals.SIGKILL && n != 19) {
                    return e;
                }
            }
            throw BadInput.at(
                    file,
                    "first_of",
                    "row " + row + ": '" + e + "' names no signal a handler can catch"
                            + " (signal:SIGUSR1, signal:SIGRTMIN+3, ...)");
        }
        throw BadInput.at(
                file,
                "first_of",
                "row " + row + ": entry '" + e + "' is none of main, thread:<creator>," + " signal:<NAME>");
    }

    /** Reads a nodes file (no pin check); see the class comment for the errors. */
    public static List<Site> readNodes(Path file) {
        return readNodes(file, bytes(file));
    }

    private static List<Site> readNodes(Path file, byte[] bytes) {
        List<Site> sites = new ArrayList<>();
        List<String> unmapped = new ArrayList<>();
        int[] rowBase = {0};
        readFile(
                file,
                bytes,
                in -> {
                    in.require("site", UINT32, UInt4Vector.class);
                    in.require("syscall", INT32, IntVector.class);
                    in.require("name", ArrowType.Utf8.INSTANCE, VarCharVector.class);
                    in.require("function", ArrowType.Utf8.INSTANCE, VarCharVector.class);
                    ListVector list = in.require("first_of", ArrowType.List.INSTANCE, ListVector.class);
                    in.require("terminal", ArrowType.Bool.INSTANCE, BitVector.class);
                    if (!(list.getDataVector() instanceof VarCharVector)) {
                        throw BadInput.at(
                                file,
                                "first_of",
                                "items have type "
                                        + ArrowInput.describe(
                                                list.getDataVector().getField().getType())
                                        + ", expected utf8");
                    }
                },
                (root, rows) -> {
                    UInt4Vector site = (UInt4Vector) root.getVector("site");
                    IntVector syscall = (IntVector) root.getVector("syscall");
                    VarCharVector name = (VarCharVector) root.getVector("name");
                    VarCharVector function = (VarCharVector) root.getVector("function");
                    ListVector firstOf = (ListVector) root.getVector("first_of");
                    BitVector terminal = (BitVector) root.getVector("terminal");
                    VarCharVector items = (VarCharVector) firstOf.getDataVector();
                    for (int r = 0; r < rows; r++) {
                        int row = rowBase[0] + r;
                        noNull(site, file, r, row);
                        noNull(name, file, r, row);
                        noNull(function, file, r, row);
                        noNull(terminal, file, r, row);
                        long id = UInt4Vector.getNoOverflow(site.getDataBuffer(), r);
                        String nm = text(file, "name", row, name.get(r));
                        String fn = text(file, "function", row, function.get(r));
                        List<String> entries = new ArrayList<>();
                        if (!firstOf.isNull(r)) {
                            int from = firstOf.getElementStartIndex(r);
                            int to = firstOf.getElementEndIndex(r);
                            if (from < 0 || to < from || to > items.getValueCount()) {
                                throw BadInput.at(
                                        file,
                                        "first_of",
                                        "row " + row + ": its entries " + from + ".." + to + " lie outside the list's "
                                                + items.getValueCount() + " items");
                            }
                            for (int k = from; k < to; k++) {
                                if (items.isNull(k)) {
                                    throw BadInput.at(file, "first_of", "row " + row + ": null entry name");
                                }
                                entries.add(entryName(file, row, text(file, "first_of", row, items.get(k))));
                            }
                        }
                        if (syscall.isNull(r)) {
                            unmapped.add("site " + id + " (" + nm + " in " + fn + ")");
                            continue;
                        }
                        sites.add(new Site(id, syscall.get(r), nm, fn, entries, terminal.get(r) == 1));
                    }
                    rowBase[0] += rows;
                });
        if (sites.isEmpty() && unmapped.isEmpty()) {
            throw BadInput.at(
                    file, "site", "no sites: a projection without sites allows no call (is this the graph meant?)");
        }
        if (!unmapped.isEmpty()) {
            throw new Refusal(file + ": " + unmapped.size() + " of " + (sites.size() + unmapped.size())
                    + " sites are unmapped functions (null syscall), first " + unmapped.get(0)
                    + (unmapped.size() > 1
                            ? "; also " + String.join(", ", unmapped.subList(1, Math.min(5, unmapped.size())))
                                    + (unmapped.size() > 5 ? ", ..." : "")
                            : "")
                    + "; the projection must resolve them before it can be followed");
        }
        return sites;
    }

    /** Reads an edges file (no pin check); see the class comment for the errors. */
    public static List<Edge> readEdges(Path file) {
        return readEdges(file, bytes(file));
    }

    private static List<Edge> readEdges(Path file, byte[] bytes) {
        List<Edge> edges = new ArrayList<>();
        int[] rowBase = {0};
        readFile(
                file,
                bytes,
                in -> {
                    in.require("src", UINT32, UInt4Vector.class);
                    in.require("dst", UINT32, UInt4Vector.class);
                    in.require("kind", ArrowType.Utf8.INSTANCE, VarCharVector.class);
                },
                (root, rows) -> {
                    UInt4Vector src = (UInt4Vector) root.getVector("src");
                    UInt4Vector dst = (UInt4Vector) root.getVector("dst");
                    VarCharVector kind = (VarCharVector) root.getVector("kind");
                    for (int r = 0; r < rows; r++) {
                        int row = rowBase[0] + r;
                        noNull(src, file, r, row);
                        noNull(dst, file, r, row);
                        noNull(kind, file, r, row);
                        String k = text(file, "kind", row, kind.get(r));
                        EdgeKind ek = EdgeKind.parse(k);
                        if (ek == null) {
                            throw BadInput.at(file, "kind", "row " + row + ": '" + k + "' is neither next nor again");
                        }
                        edges.add(new Edge(
                                UInt4Vector.getNoOverflow(src.getDataBuffer(), r),
                                UInt4Vector.getNoOverflow(dst.getDataBuffer(), r),
                                ek));
                    }
                    rowBase[0] += rows;
                });
        return edges;
    }

    /**
     * Writes a graph as {@code <dir>/<program>.exec.nodes.arrow} and {@code ...edges.arrow} (one record
     * batch each), replacing existing files.
     *
     * @return the two paths, nodes first
     */
    public static List<Path> write(Graph graph, Path dir, String program) throws IOException {
        Files.createDirectories(dir);
        Path nodes = dir.resolve(program + NODES_SUFFIX);
        Path edges = dir.resolve(program + EDGES_SUFFIX);
        writeNodes(graph.sites(), nodes);
        writeEdges(graph.edges(), edges);
        return List.of(nodes, edges);
    }

    /** Writes a nodes file; {@code syscall} values below 0 are written as null (unmapped functions). */
    public static void writeNodes(List<Site> sites, Path file) throws IOException {
        try (BufferAllocator alloc = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(nodesSchema(), alloc)) {
            int n = sites.size();
            UInt4Vector site = (UInt4Vector) root.getVector("site");
            IntVector syscall = (IntVector) root.getVector("syscall");
            VarCharVector name = (VarCharVector) root.getVector("name");
            VarCharVector function = (VarCharVector) root.getVector("function");
            ListVector firstOf = (ListVector) root.getVector("first_of");
            BitVector terminal = (BitVector) root.getVector("terminal");
            site.allocateNew(n);
            syscall.allocateNew(n);
            name.allocateNew(n);
            function.allocateNew(n);
            terminal.allocateNew(n);
            firstOf.allocateNew();
            VarCharVector items = (VarCharVector) firstOf.getDataVector();
            int item = 0;
            for (int i = 0; i < n; i++) {
                Site s = sites.get(i);
                site.set(i, (int) s.id());
                if (s.syscall() >= 0) {
                    syscall.set(i, s.syscall());
                } else {
                    syscall.setNull(i);
                }
                name.setSafe(i, s.name().getBytes(StandardCharsets.UTF_8));
                function.setSafe(i, s.function().getBytes(StandardCharsets.UTF_8));
                terminal.set(i, s.terminal() ? 1 : 0);
                firstOf.startNewValue(i);
                for (String e : s.firstOf()) {
                    items.setSafe(item++, e.getBytes(StandardCharsets.UTF_8));
                }
                firstOf.endValue(i, s.firstOf().size());
            }
            items.setValueCount(item);
            root.setRowCount(n);
            writeRoot(root, file);
        }
    }

    /** Writes an edges file. */
    public static void writeEdges(List<Edge> edges, Path file) throws IOException {
        try (BufferAllocator alloc = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(edgesSchema(), alloc)) {
            int n = edges.size();
            UInt4Vector src = (UInt4Vector) root.getVector("src");
            UInt4Vector dst = (UInt4Vector) root.getVector("dst");
            VarCharVector kind = (VarCharVector) root.getVector("kind");
            src.allocateNew(n);
            dst.allocateNew(n);
            kind.allocateNew(n);
            for (int i = 0; i < n; i++) {
                Edge e = edges.get(i);
                src.set(i, (int) e.src());
                dst.set(i, (int) e.dst());
                kind.setSafe(i, e.kind().wire().getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(n);
            writeRoot(root, file);
        }
    }

    private static void writeRoot(VectorSchemaRoot root, Path file) throws IOException {
        // Replaced whole (a temporary renamed over it), and a link or FIFO at the name is refused.
        SafeFiles.replace(file, out -> {
            try (ArrowFileWriter w = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
                w.start();
                w.writeBatch();
                w.end();
            }
        });
    }
}
