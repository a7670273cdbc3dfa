package heimdall.lab.bench;

import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@code samples.arrow}: every per-call sample of a floor or broker reproduction, long format, one
 * Arrow IPC file compressed with ZSTD (a full floor-cost run holds about a hundred million samples).
 *
 * <p>Columns: {@code row} int32 (index into {@code summary.json}), {@code variant} utf8
 * ({@code "filtered"} or {@code "none"}, the same call with no filter), {@code run} int32 (0-based),
 * {@code seq} int32 (the call's position within its run, 0-based, warm-up excluded), {@code ns}
 * int64.
 */
public final class SamplesFile implements AutoCloseable {
    /** The file's schema. */
    public static final Schema SCHEMA = new Schema(List.of(
            Field.notNullable("row", new ArrowType.Int(32, true)),
            Field.notNullable("variant", ArrowType.Utf8.INSTANCE),
            Field.notNullable("run", new ArrowType.Int(32, true)),
            Field.notNullable("seq", new ArrowType.Int(32, true)),
            new Field("ns", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private static final int BATCH = 1 << 16;

    private final BufferAllocator allocator = new RootAllocator();
    private final FileChannel channel;
    private final VectorSchemaRoot root;
    private final ArrowFileWriter writer;
    private final IntVector row;
    private final VarCharVector variant;
    private final IntVector run;
    private final IntVector seq;
    private final BigIntVector ns;
    private int filled;
    /** Every sample appended, counted per row and variant: what the run draws from ({@link #counts}). */
    private final SampleCounts counts = new SampleCounts();

    private SamplesFile(Path file) throws IOException {
        channel = FileChannel.open(file, SafeFiles.newFileOptions());
        root = VectorSchemaRoot.create(SCHEMA, allocator);
        row = (IntVector) root.getVector("row");
        variant = (VarCharVector) root.getVector("variant");
        run = (IntVector) root.getVector("run");
        seq = (IntVector) root.getVector("seq");
        ns = (BigIntVector) root.getVector("ns");
        writer = new ArrowFileWriter(
                root,
                null,
                channel,
                null,
                IpcOption.DEFAULT,
                CommonsCompressionFactory.INSTANCE,
                CompressionUtil.CodecType.ZSTD);
        writer.start();
        allocateBatch();
    }

    /** Creates {@code file} (which must not exist) for writing. */
    public static SamplesFile create(Path file) {
        try {
            return new SamplesFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
    }

    /** Appends one run's samples (and counts them, {@link #counts}). */
    public void append(int rowIndex, String variantName, int runIndex, long[] samples) {
        counts.add(rowIndex, variantName, runIndex, samples);
        byte[] v = variantName.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < samples.length; i++) {
            row.set(filled, rowIndex);
            variant.setSafe(filled, v);
            run.set(filled, runIndex);
            seq.set(filled, i);
            ns.set(filled, samples[i]);
            if (++filled == BATCH) {
                flush();
            }
        }
    }

    /**
     * Every sample appended so far, per row and variant, exactly ({@link SampleCounts}): the
     * distributions a run draws and writes without reading this file back.
     */
    public SampleCounts counts() {
        return counts;
    }

    private void allocateBatch() {
        for (var vector : root.getFieldVectors()) {
            vector.setInitialCapacity(BATCH);
            vector.allocateNew();
        }
    }

    private void flush() {
        if (filled == 0) {
            return;
        }
        root.setRowCount(filled);
        try {
            writer.writeBatch();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write samples", e);
        }
        root.clear();
        allocateBatch();
        filled = 0;
    }

    @Override
    public void close() {
        try {
            flush();
            writer.end();
            writer.close();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot finish samples file", e);
        } finally {
            root.close();
            allocator.close();
        }
    }

    /** Reads every sample of one row and variant back, runs in order (for tests and analysis). */
    public static long[][] read(Path file, int rowIndex, String variantName) {
        Map<Integer, List<Long>> byRun = new TreeMap<>();
        try (BufferAllocator alloc = new RootAllocator();
                FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(ch, alloc, CommonsCompressionFactory.INSTANCE)) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot r = reader.getVectorSchemaRoot();
                IntVector rows = (IntVector) r.getVector("row");
                VarCharVector variants = (VarCharVector) r.getVector("variant");
                IntVector runs = (IntVector) r.getVector("run");
                BigIntVector values = (BigIntVector) r.getVector("ns");
                for (int i = 0; i < r.getRowCount(); i++) {
                    if (rows.get(i) == rowIndex
                            && variantName.equals(variants.getObject(i).toString())) {
                        byRun.computeIfAbsent(runs.get(i), k -> new ArrayList<>())
                                .add(values.get(i));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return byRun.values().stream()
                .map(l -> l.stream().mapToLong(Long::longValue).toArray())
                .toArray(long[][]::new);
    }
}
