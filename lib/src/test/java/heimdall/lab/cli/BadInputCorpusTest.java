package heimdall.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.testing.LabRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compact, seeded corpus of bad inputs (issue 29's list, then byte flips and cuts of samples.arrow,
 * summary.json, graph files and profiles) replayed through {@code ./lab} itself ({@link LabRun}): each
 * one the issue names exits 2 with a message that names the file (and the column or field), holds none
 * of Arrow's, Jackson's or Tablesaw's words or class names, and leaves nothing behind (no
 * distributions.json, no output folder or file). A seeded mutant may also be valid input (status 0);
 * then it is never anything but 0 or 2, and a refusal is held to the same rules.
 */
// a bound for a hang, not a speed claim: about 15 s of CPU, far longer on a loaded machine
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BadInputCorpusTest {
    /** What a message in our words never holds: a library's class, type name or sentence. */
    static final List<String> FORBIDDEN = List.of(
            "Exception",
            "VarCharVector",
            "IntVector",
            "INT_MAX",
            "offset buffer",
            "ARRAY",
            "OBJECT",
            "com.fasterxml",
            "org.apache",
            "tablesaw",
            "java.",
            "Cannot add column",
            "duplicate name",
            "position ",
            "internal error");

    @TempDir
    Path tmp;

    private final Random random = new Random(29);
    private int made;

    // ---- samples.arrow: the issue's cases ----

    @Test
    void theIssuesSamplesAreRefusedNamingFileAndColumnAndNothingIsWritten() throws IOException {
        List<Field> call = List.of(i32("row"), utf8("variant"), i32("run"), i64("ns"));
        refusedDistill(
                arrow(List.of(i32("row"), utf8("variant"), i32("run"), i64("ns"), i32("row")), 6, this::good),
                "row: two columns have this name");
        refusedDistill(arrow(List.of(i32("row"), utf8("variant"), i64("ns")), 6, this::good), "run: column missing");
        refusedDistill(arrow(List.of(i32("row"), utf8("variant"), i32("run")), 6, this::good), "ns: column missing");
        BiFunction<String, Integer, Object> extremes =
                (c, i) -> c.equals("ns") ? (i % 2 == 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : oneSeries(c);
        refusedDistill(
                arrow(call, 6, extremes),
                "ns: row 0, variant filtered: values from -9223372036854775808 to 9223372036854775807");
        refusedDistill(arrow(call, 6, (c, i) -> c.equals("ns") && i == 3 ? null : good(c, i)), "ns: holds 1 null");
        List<Field> batch = List.of(i32("row"), i32("sample"), f64("ns_per_event"));
        refusedDistill(
                arrow(batch, 6, (c, i) -> c.equals("ns_per_event") && i == 2 ? null : good(c, i)),
                "ns_per_event: row 2: null or NaN");
        refusedDistill(
                arrow(batch, 6, (c, i) -> c.equals("ns_per_event") && i == 4 ? Double.NaN : good(c, i)),
                "ns_per_event: row 4: null or NaN");
        refusedDistill(
                arrow(batch, 6, (c, i) -> c.equals("ns_per_event") && i == 1 ? Double.POSITIVE_INFINITY : good(c, i)),
                "ns_per_event: row 1: Infinity is not a measured value");
        refusedDistill(
                arrow(List.of(i32("row"), i32("sample"), utf8("label"), f64("v")), 6, this::good), "label: holds text");
        refusedDistill(
                arrow(List.of(i32("row"), i32("sample"), f64("v"), f64("v")), 6, this::good),
                "v: two columns have this name");
        refusedDistill(
                arrow(List.of(i32("row"), i32("sample"), f64("v"), f64("V")), 6, this::good),
                "V: two columns have this name but for letter case (v)");
        byte[] notUtf8 = "filt\u00e9red".getBytes(StandardCharsets.UTF_8);
        notUtf8[4] = (byte) 0xff;
        refusedDistill(
                arrow(call, 6, (c, i) -> c.equals("variant") && i == 5 ? notUtf8 : good(c, i)),
                "variant: row 5 (record batch 0): a text value that is not UTF-8");
        refusedDistill(decreasingOffsets(), "variant: row 2 (record batch 0): its value ends before it starts");
        byte[] good = arrow(call, 6, this::good);
        refusedDistill(
                patchedRowCount(good, 6, 1L << 40),
                "file: not a readable Arrow IPC file: record batch 0: claims more rows than a file can hold");
        refusedDistill(Arrays.copyOf(good, good.length - 9), "file: not a readable Arrow IPC file");
    }

    @Test
    void seededFlipsAndCutsOfSamplesAreRefusedCleanlyOrDistilled() throws IOException {
        byte[] good = arrow(List.of(i32("row"), utf8("variant"), i32("run"), i64("ns")), 40, this::good);
        byte[] batch = arrow(List.of(i32("row"), i32("sample"), f64("wall_ms")), 40, this::good);
        int refused = 0;
        for (byte[] base : List.of(good, batch)) {
            for (int k = 0; k < 40; k++) {
                byte[] b = k % 4 == 3 ? Arrays.copyOf(base, random.nextInt(base.length)) : flip(base, 1 + k % 3);
                refused += distillEither(b) ? 1 : 0;
            }
        }
        assertTrue(refused > 20, "most of the mutants are refused: " + refused);
    }

    // ---- results folders: summary.json through compare ----

    @Test
    void mutatedSummariesAreRefusedCleanlyByCompare() throws IOException {
        Path results = Fixtures.home().resolve("results");
        Path a = results.resolve("2026-11-30-vm-floor-cost");
        Path b = results.resolve("2026-11-30-vm-floor-cost-2");
        String summary = Files.readString(a.resolve("summary.json"));
        // a row that is a list, not an object: Jackson's "ARRAY" never reaches the user
        String listRow = summary.replaceFirst("\"rows\"\\s*:\\s*\\[", "\"rows\": [[1, 2], ");
        LabRun r = compare(a, b, "summary.json", listRow.getBytes(StandardCharsets.UTF_8), true);
        assertTrue(r.err().contains("expected an object, found a list"), r.err());
        byte[] bytes = summary.getBytes(StandardCharsets.UTF_8);
        int refused = 0;
        // few: a folder compare accepts is drawn (plots), which takes time; compare draws from summary.json
        for (int k = 0; k < 8; k++) {
            LabRun m = compare(a, b, "summary.json", k % 3 == 2 ? cut(bytes) : flip(bytes, 1), false);
            refused += m.status() == 2 ? 1 : 0;
        }
        assertTrue(refused > 3, "refused " + refused);
    }

    // ---- graphs and profiles ----

    @Test
    void mutatedGraphsAndProfilesAreRefusedCleanly() throws IOException {
        Path graphs = Fixtures.home().resolve("fixtures/graphs");
        byte[] nodes = Files.readAllBytes(graphs.resolve("abcdf.exec.nodes.arrow"));
        byte[] edges = Files.readAllBytes(graphs.resolve("abcdf.exec.edges.arrow"));
        int at = indexOf(nodes, "mainsignal".getBytes(StandardCharsets.US_ASCII));
        assertTrue(at > 0, "the fixture holds the function names");
        byte[] notUtf8 = nodes.clone();
        notUtf8[at + 1] = (byte) 0xff;
        LabRun r = graphInfo(notUtf8, edges, true);
        assertTrue(r.err().contains("a text value that is not UTF-8") && r.err().contains("row "), r.err());
        for (int k = 0; k < 24; k++) {
            boolean ofNodes = k % 2 == 0;
            byte[] m = k % 5 == 4 ? cut(ofNodes ? nodes : edges) : flip(ofNodes ? nodes : edges, 1 + k % 2);
            graphInfo(ofNodes ? m : nodes, ofNodes ? edges : m, false);
        }
        byte[] profile = Files.readAllBytes(Fixtures.home().resolve("fixtures/profiles/abcdf/x86_64-glibc.json"));
        for (int k = 0; k < 16; k++) {
            Path dir = fresh("profile");
            Path p = dir.resolve("profile.json");
            Files.write(p, k % 4 == 3 ? cut(profile) : flip(profile, 1));
            either(
                    p,
                    List.of(dir),
                    "bpf",
                    "compile",
                    p.toString(),
                    "-o",
                    dir.resolve("out.bpf").toString());
        }
    }

    // ---- running ./lab ----

    /** Distills a folder holding {@code samples}: exit 2 naming samples.arrow and {@code says}; nothing written. */
    private void refusedDistill(byte[] samples, String says) throws IOException {
        Path dir = folder(samples);
        Path file = dir.resolve("samples.arrow");
        LabRun r = lab(List.of(dir), "results", "distill", dir.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(file + ": " + says), "names " + file + " and '" + says + "':\n" + r.err());
    }

    /** Distills a mutant: 0 (and its distributions.json written), or refused cleanly; true when refused. */
    private boolean distillEither(byte[] samples) throws IOException {
        Path dir = folder(samples);
        LabRun r = either(dir.resolve("samples.arrow"), List.of(dir), "results", "distill", dir.toString());
        if (r.status() == 0) {
            assertTrue(Files.isRegularFile(dir.resolve("distributions.json")), r.out());
        }
        return r.status() != 0;
    }

    /** compare over a copy of {@code a} with {@code file} replaced, written to an output folder. */
    private LabRun compare(Path a, Path b, String file, byte[] bytes, boolean mustRefuse) throws IOException {
        Path dir = fresh("folder");
        for (String f : List.of("summary.json", "environment.json", "distributions.json")) {
            Files.copy(a.resolve(f), dir.resolve(f));
        }
        Files.write(dir.resolve(file), bytes);
        Path out = dir.getParent().resolve(dir.getFileName() + "-out");
        LabRun r = either(
                dir.resolve(file), List.of(dir, out), "compare", dir.toString(), b.toString(), "--out", out.toString());
        assertTrue(!mustRefuse || r.status() == 2, r.err());
        if (r.status() == 2) {
            assertFalse(Files.exists(out), "refused, yet " + out + " was made");
        }
        return r;
    }

    private LabRun graphInfo(byte[] nodes, byte[] edges, boolean mustRefuse) throws IOException {
        Path dir = fresh("graph");
        Path n = Files.write(dir.resolve("abcdf.exec.nodes.arrow"), nodes);
        Path e = Files.write(dir.resolve("abcdf.exec.edges.arrow"), edges);
        LabRun r = lab(List.of(dir), "graph", "info", n.toString(), e.toString(), "--unpinned");
        assertTrue(r.status() == 0 || r.status() == 1 || r.status() == 2, "status " + r.status() + ":\n" + r.err());
        assertTrue(!mustRefuse || r.status() == 2, r.err());
        if (r.status() == 2) {
            assertTrue(r.err().contains(n.toString()) || r.err().contains(e.toString()), r.err());
        }
        return r;
    }

    /** Runs {@code argv}: 0, or 2 naming {@code file} cleanly; either way the status is one of those. */
    private LabRun either(Path file, List<Path> watch, String... argv) throws IOException {
        LabRun r = lab(watch, argv);
        assertTrue(r.status() == 0 || r.status() == 2, "status " + r.status() + ":\n" + r.err());
        if (r.status() == 2) {
            assertTrue(r.err().contains(file.toString()), "names " + file + ":\n" + r.err());
        }
        return r;
    }

    /**
     * Runs {@code argv} through {@code ./lab}'s entry; a refusal's message holds no {@link #FORBIDDEN}
     * fragment and leaves {@code watch} as it was (nothing written, nothing left half-made).
     */
    private static LabRun lab(List<Path> watch, String... argv) throws IOException {
        Set<String> before = listing(watch);
        LabRun r = LabRun.of(argv);
        if (r.status() != 0) {
            for (String f : FORBIDDEN) {
                assertFalse(r.err().contains(f), "'" + f + "' in:\n" + r.err());
            }
            LabRun.assertClean(r.err());
            assertEquals(before, listing(watch), "a refusal left files behind:\n" + r.err());
        }
        return r;
    }

    private static Set<String> listing(List<Path> dirs) throws IOException {
        Set<String> all = new TreeSet<>();
        for (Path d : dirs) {
            if (Files.exists(d)) {
                try (Stream<Path> w = Files.walk(d)) {
                    w.forEach(p -> all.add(p.toString()));
                }
            }
        }
        return all;
    }

    // ---- the corpus ----

    private Path fresh(String kind) throws IOException {
        return Files.createDirectories(tmp.resolve(kind + "-" + made++));
    }

    /** A results folder (a committed floor-cost summary) holding {@code samples} as samples.arrow. */
    private Path folder(byte[] samples) throws IOException {
        Path dir = fresh("samples");
        Path src = Fixtures.home().resolve("results/2026-11-30-vm-floor-cost");
        Files.copy(src.resolve("summary.json"), dir.resolve("summary.json"));
        Files.write(dir.resolve("samples.arrow"), samples);
        return dir;
    }

    private byte[] flip(byte[] good, int times) {
        byte[] b = good.clone();
        for (int k = 0; k < times; k++) {
            int at = random.nextInt(b.length);
            b[at] = random.nextBoolean() ? (byte) random.nextInt(256) : (byte) (b[at] ^ (1 << random.nextInt(8)));
        }
        return b;
    }

    private byte[] cut(byte[] good) {
        return Arrays.copyOf(good, random.nextInt(good.length));
    }

    /** A value of a well-formed file: three rows, two variants, two runs. */
    private Object good(String column, int i) {
        return switch (column) {
            case "row" -> i % 3;
            case "variant", "label" -> i % 2 == 0 ? "filtered" : "none";
            case "run" -> (i / 6) % 2;
            case "sample" -> i;
            case "ns" -> 100L + i;
            default -> 1.5 + i;
        };
    }

    /** A value of a file of one series: row 0, filtered, run 0. */
    private static Object oneSeries(String column) {
        return switch (column) {
            case "variant" -> "filtered";
            default -> 0;
        };
    }

    private static Field i32(String name) {
        return Field.nullable(name, new ArrowType.Int(32, true));
    }

    private static Field i64(String name) {
        return Field.nullable(name, new ArrowType.Int(64, true));
    }

    private static Field f64(String name) {
        return Field.nullable(name, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    }

    private static Field utf8(String name) {
        return Field.nullable(name, ArrowType.Utf8.INSTANCE);
    }

    /** An uncompressed Arrow file of {@code n} rows, one batch, values from {@code value} (null: a null). */
    private static byte[] arrow(List<Field> fields, int n, BiFunction<String, Integer, Object> value) {
        return arrow(fields, n, value, root -> {});
    }

    private static byte[] arrow(
            List<Field> fields,
            int n,
            BiFunction<String, Integer, Object> value,
            java.util.function.Consumer<VectorSchemaRoot> tamper) {
        try (BufferAllocator alloc = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), alloc)) {
            root.allocateNew();
            for (FieldVector v : root.getFieldVectors()) {
                for (int i = 0; i < n; i++) {
                    Object o = value.apply(v.getName(), i);
                    if (o == null) {
                        v.setNull(i);
                    } else if (v instanceof IntVector iv) {
                        iv.setSafe(i, ((Number) o).intValue());
                    } else if (v instanceof BigIntVector bv) {
                        bv.setSafe(i, ((Number) o).longValue());
                    } else if (v instanceof Float8Vector fv) {
                        fv.setSafe(i, ((Number) o).doubleValue());
                    } else if (v instanceof VarCharVector sv) {
                        sv.setSafe(i, o instanceof byte[] b ? b : o.toString().getBytes(StandardCharsets.UTF_8));
                    }
                }
                v.setValueCount(n);
            }
            root.setRowCount(n);
            tamper.accept(root);
            Path f = Files.createTempFile("corpus", ".arrow");
            Files.delete(f);
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
                w.start();
                w.writeBatch();
                w.end();
            }
            byte[] bytes = Files.readAllBytes(f);
            Files.delete(f);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Per-call samples whose variant offsets go back at row 2 (its text "ends" before it starts). */
    private byte[] decreasingOffsets() {
        return arrow(List.of(i32("row"), utf8("variant"), i32("run"), i64("ns")), 6, this::good, root -> {
            var offsets = ((VarCharVector) root.getVector("variant")).getOffsetBuffer();
            offsets.setInt(3 * 4L, offsets.getInt(2 * 4L) - 1); // row 2 ends one byte before it starts
        });
    }

    /** {@code file} with every copy of its row count {@code rows} (int64) replaced by {@code patched}. */
    private static byte[] patchedRowCount(byte[] file, long rows, long patched) {
        byte[] b = file.clone();
        byte[] from = le64(rows);
        byte[] to = le64(patched);
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i + 8 <= b.length; i++) {
            if (Arrays.equals(b, i, i + 8, from, 0, 8)) {
                at.add(i);
            }
        }
        assertFalse(at.isEmpty(), "the row count is in the file");
        at.forEach(i -> System.arraycopy(to, 0, b, i, 8));
        return b;
    }

    private static byte[] le64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }
}
