package heimdall.lab.analysis;

import heimdall.lab.BadInput;
import heimdall.lab.arrow.ArrowInput;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Reading a samples.arrow file: per-call samples in one streaming pass into a {@code long[]} per run
 * ({@link #readCallSamples}), any sample file into a table ({@link #readArrow}), and its schema alone
 * ({@link #columnsOf}). Every value is hostile input: types are checked on the schema before a batch,
 * nulls, negative indices, text outside its buffer and bytes that are not UTF-8 are bad input naming the
 * file and column. Apart from {@link Results}, which keeps what this reads, so that
 * {@link Distributions} (distilling a folder) reads the file the same way.
 */
final class SamplesReader {
    private SamplesReader() {}

    /** Arrow memory while samples.arrow is read: one batch at a time (65,536 rows, a few MB) and room to spare. */
    static final long SAMPLES_MEMORY = 512L << 20;

    private static final List<String> CALL_COLUMNS = DistillInput.CALL_COLUMNS;
    private static final ArrowType INT32 = new ArrowType.Int(32, true);
    private static final ArrowType INT64 = new ArrowType.Int(64, true);

    /** Whether samples.arrow holds per-call samples (row, variant, run, ns). */
    static boolean isCallSampleFile(Path file) {
        return columnsOf(file).containsAll(CALL_COLUMNS);
    }

    /** The columns of an Arrow file, in file order (its schema read, checked, and no batch). */
    static List<String> columnsOf(Path file) {
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            return in.columns();
        }
    }

    /**
     * One streaming pass over a floor-style samples file: (row, variant) -> runs -> samples. Each run
     * grows in fixed-size chunks and is copied once into an exact array, so the peak is the samples
     * themselves plus one run, never a doubling of everything.
     */
    static Map<SampleKey, long[][]> readCallSamples(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(file + ": missing (samples are written by ./lab reproduce)");
        }
        Map<SampleKey, TreeMap<Integer, Chunks>> acc = new LinkedHashMap<>();
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            if (!in.columns().containsAll(CALL_COLUMNS)) {
                throw BadInput.at(
                        file,
                        "(schema)",
                        "expected per-call samples (row, variant, run, ns), found "
                                + in.columns()
                                + "; use Results.samples() for other sample files");
            }
            // Types checked on the schema, before any batch: an int64 row is refused here, not cast midway.
            in.require("row", INT32, IntVector.class);
            in.require("variant", ArrowType.Utf8.INSTANCE, VarCharVector.class);
            in.require("run", INT32, IntVector.class);
            in.require("ns", INT64, BigIntVector.class);
            byte[] prevVariant = null;
            String prevName = null;
            int prevRow = -1;
            int prevRun = -1;
            Chunks current = null;
            VectorSchemaRoot root = in.root();
            try {
                while (in.next()) {
                    int n = in.rows();
                    IntVector rowV = (IntVector) root.getVector("row");
                    VarCharVector varV = (VarCharVector) root.getVector("variant");
                    IntVector runV = (IntVector) root.getVector("run");
                    BigIntVector nsV = (BigIntVector) root.getVector("ns");
                    for (var v : List.of(rowV, varV, runV, nsV)) {
                        if (v.getNullCount() > 0) {
                            throw BadInput.at(
                                    file,
                                    v.getName(),
                                    "holds " + v.getNullCount() + " null(s); every sample has a value");
                        }
                    }
                    var offsets = varV.getOffsetBuffer();
                    var data = varV.getDataBuffer();
                    var nsData = nsV.getDataBuffer();
                    for (int i = 0; i < n; i++) {
                        int row = rowV.get(i);
                        int run = runV.get(i);
                        if (row < 0 || run < 0) {
                            throw BadInput.at(
                                    file, row < 0 ? "row" : "run", "value " + Math.min(row, run) + " is negative");
                        }
                        int start = offsets.getInt((long) i * 4);
                        int end = offsets.getInt((long) (i + 1) * 4);
                        if (start < 0 || end < start || end > data.capacity()) {
                            throw BadInput.at(
                                    file, "variant", "sample " + i + ": its text lies outside the column's data");
                        }
                        boolean sameVariant = prevVariant != null && prevVariant.length == end - start;
                        for (int k = 0; sameVariant && k < prevVariant.length; k++) {
                            sameVariant = data.getByte(start + k) == prevVariant[k];
                        }
                        if (!sameVariant) {
                            prevVariant = new byte[end - start];
                            data.getBytes(start, prevVariant);
                            prevName = utf8(file, "variant", prevVariant);
                        }
                        if (current == null || !sameVariant || row != prevRow || run != prevRun) {
                            current = acc.computeIfAbsent(new SampleKey(row, prevName), k -> new TreeMap<>())
                                    .computeIfAbsent(run, k -> new Chunks());
                            prevRow = row;
                            prevRun = run;
                        }
                        if (!current.add(nsData.getLong((long) i * 8))) {
                            throw BadInput.at(
                                    file, "ns", "row " + row + ", run " + run + ": more samples than one run can hold");
                        }
                    }
                }
            } catch (IndexOutOfBoundsException | IllegalStateException e) {
                throw in.damaged(e); // an index outside a buffer that validation let through
            }
        }
        Map<SampleKey, long[][]> out = new LinkedHashMap<>();
        for (var e : acc.entrySet()) {
            long[][] runs = new long[e.getValue().size()][];
            int k = 0;
            for (Chunks c : e.getValue().values()) {
                runs[k++] = c.toArray();
            }
            out.put(e.getKey(), runs);
        }
        return out;
    }

    /** A growable list of longs in 64 Ki chunks; {@link #toArray} releases the chunks. */
    private static final class Chunks {
        private static final int SIZE = 1 << 16;
        private final List<long[]> full = new ArrayList<>();
        private long[] last = new long[256];
        private int fill;

        /** Adds {@code v}; false (nothing added) when the run is already as long as an array can be. */
        boolean add(long v) {
            if ((long) full.size() * SIZE + fill >= Integer.MAX_VALUE - 8) {
                return false;
            }
            if (fill == last.length) {
                if (last.length < SIZE) {
                    last = Arrays.copyOf(last, Math.min(SIZE, last.length * 4));
                } else {
                    full.add(last);
                    last = new long[SIZE];
                    fill = 0;
                }
            }
            last[fill++] = v;
            return true;
        }

        long[] toArray() {
            long n = (long) full.size() * SIZE + fill;
            if (n > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a run of " + n + " samples does not fit one array");
            }
            long[] out = new long[(int) n];
            int at = 0;
            for (long[] c : full) {
                System.arraycopy(c, 0, out, at, SIZE);
                at += SIZE;
            }
            System.arraycopy(last, 0, out, at, fill);
            full.clear();
            last = null;
            return out;
        }
    }

    /** Reads an Arrow IPC file of int32, int64, float64 and utf8 columns into a table. */
    static Table readArrow(Path file) {
        return readArrow(file, Long.MAX_VALUE);
    }

    /** As {@link #readArrow(Path)}, refusing files of more than {@code limit} rows. */
    static Table readArrow(Path file, long limit) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new BadInput(file + ": missing (samples are written by ./lab reproduce)");
        }
        long seen = 0;
        try (ArrowInput in = ArrowInput.open(file, SAMPLES_MEMORY)) {
            VectorSchemaRoot root = in.root();
            List<Column<?>> columns = new ArrayList<>();
            for (Field f : root.getSchema().getFields()) {
                columns.add(
                        switch (root.getVector(f.getName()).getMinorType()) {
                            case INT -> IntColumn.create(f.getName());
                            case BIGINT -> LongColumn.create(f.getName());
                            case FLOAT8 -> DoubleColumn.create(f.getName());
                            case VARCHAR -> StringColumn.create(f.getName());
                            default ->
                                throw BadInput.at(
                                        file,
                                        f.getName(),
                                        "unsupported column type " + ArrowInput.describe(f.getType())
                                                + " (samples hold int32, int64, float64 and utf8 columns)");
                        });
            }
            try {
                while (in.next()) {
                    int n = in.rows();
                    seen += n;
                    if (seen > limit) {
                        throw new IllegalStateException(file + ": more than " + limit
                                + " samples, too many for a table "
                                + "(a row each); use Results.samplesOf(row, variant), which keeps 8 bytes a sample");
                    }
                    Iterator<Column<?>> it = columns.iterator();
                    for (Field f : root.getSchema().getFields()) {
                        Column<?> c = it.next();
                        var v = root.getVector(f.getName());
                        for (int i = 0; i < n; i++) {
                            if (v.isNull(i)) {
                                c.appendMissing();
                            } else if (v instanceof IntVector iv) {
                                ((IntColumn) c).append(iv.get(i));
                            } else if (v instanceof BigIntVector bv) {
                                ((LongColumn) c).append(bv.get(i));
                            } else if (v instanceof Float8Vector fv) {
                                ((DoubleColumn) c).append(fv.get(i));
                            } else if (v instanceof VarCharVector sv) {
                                ((StringColumn) c).append(utf8(file, f.getName(), sv.get(i)));
                            }
                        }
                    }
                }
            } catch (IndexOutOfBoundsException e) {
                throw in.damaged(e); // an index outside a buffer that validation let through
            }
            return Table.create("samples", columns);
        }
    }

    /** A utf8 cell as text; bytes that are not UTF-8 are bad input naming the column, never replaced. */
    private static String utf8(Path file, String column, byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw BadInput.at(file, column, "not UTF-8 text");
        }
    }
}
