package heimdall.lab.bench;

import heimdall.lab.sys.SafeFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@code samples.arrow} of the batch benchmarks (graph-lookup, lanes): one value per batch, long
 * format. Columns: {@code row} int32 (index into {@code summary.json}), {@code sample} int32 (0 is the
 * warm-up batch, kept and excluded from summaries), and a float64 value column named by the caller
 * ({@code ns_per_event} for graph-lookup).
 */
public final class BatchSamples {
    /** One batch's value. */
    public record Sample(int row, int sample, double value) {}

    private final String valueColumn;
    private final List<Sample> samples = new ArrayList<>();

    public BatchSamples(String valueColumn) {
        this.valueColumn = valueColumn;
    }

    public synchronized void add(int row, int sample, double value) {
        samples.add(new Sample(row, sample, value));
    }

    public synchronized List<Sample> all() {
        return List.copyOf(samples);
    }

    public Schema schema() {
        return new Schema(List.of(
                Field.notNullable("row", new ArrowType.Int(32, true)),
                Field.notNullable("sample", new ArrowType.Int(32, true)),
                Field.notNullable(valueColumn, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    }

    /** Writes every sample into a new file (one record batch). */
    public synchronized void write(Path file) {
        try (BufferAllocator alloc = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema(), alloc);
                FileChannel ch = FileChannel.open(file, SafeFiles.newFileOptions());
                ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
            IntVector row = (IntVector) root.getVector("row");
            IntVector sample = (IntVector) root.getVector("sample");
            Float8Vector value = (Float8Vector) root.getVector(valueColumn);
            int n = samples.size();
            row.allocateNew(n);
            sample.allocateNew(n);
            value.allocateNew(n);
            for (int i = 0; i < n; i++) {
                Sample s = samples.get(i);
                row.set(i, s.row());
                sample.set(i, s.sample());
                value.set(i, s.value());
            }
            root.setRowCount(n);
            w.start();
            w.writeBatch();
            w.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Reads a file written by {@link #write} (for tests and analysis). */
    public static List<Sample> read(Path file, String valueColumn) {
        List<Sample> out = new ArrayList<>();
        try (BufferAllocator alloc = new RootAllocator();
                FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(ch, alloc)) {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot r = reader.getVectorSchemaRoot();
                IntVector row = (IntVector) r.getVector("row");
                IntVector sample = (IntVector) r.getVector("sample");
                Float8Vector value = (Float8Vector) r.getVector(valueColumn);
                for (int i = 0; i < r.getRowCount(); i++) {
                    out.add(new Sample(row.get(i), sample.get(i), value.get(i)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return out;
    }

    /**
     * Summary of one row's measured batches (sample 0, the warm-up, excluded): median, min, max and
     * spread ((max - min) / median), noisy over {@link Stats#NOISY_SPREAD}.
     */
    public record Summary(double median, double min, double max, double spread, boolean noisy, int count) {
        public static Summary of(double[] measured) {
            if (measured.length == 0) {
                throw new IllegalArgumentException("no measured batches");
            }
            double[] s = measured.clone();
            Arrays.sort(s);
            int n = s.length;
            double median = n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
            double spread = median == 0 ? 0 : (s[n - 1] - s[0]) / median;
            return new Summary(median, s[0], s[n - 1], spread, spread > Stats.NOISY_SPREAD, n);
        }
    }
}
