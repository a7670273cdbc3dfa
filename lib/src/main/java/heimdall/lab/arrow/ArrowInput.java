package heimdall.lab.arrow;

import heimdall.lab.BadInput;
import heimdall.lab.HostileFiles;
import heimdall.lab.Io;
import heimdall.lab.Printable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseRepeatedValueVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.InvalidArrowFileException;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.apache.arrow.vector.validate.ValidateUtil;

/**
 * An Arrow IPC file read as hostile input, one record batch at a time.
 *
 * <p>Arrow trusts the lengths a file declares; a file patched to say 2^31-1 rows, a block beyond
 * the end or a buffer too short for its rows makes it allocate gigabytes, loop for seconds, or throw
 * its own exceptions ({@code NullPointerException}, {@code NegativeArraySizeException}). Here, before
 * Arrow allocates for it: every record block must lie inside the file; a batch's row count (and every
 * column's) must be at most {@link #MAX_BATCH_ROWS}, and in an uncompressed file at most eight a byte
 * of its body; all memory Arrow takes is bounded ({@code memoryLimit}); dictionary-encoded columns are
 * refused (no file of ours has one). After a batch is loaded, {@link ValueVectorUtility#validateFull}
 * checks every buffer and offset against the row count, column by column. Two columns of one name
 * (letter case aside) are refused: which would a reader by name get? Callers check the columns they
 * read with {@link #require} before the first batch.
 *
 * <p>Every failure is {@link BadInput} in our words ({@link ArrowWords}), never Arrow's message:
 * {@code "<file>: file: not a readable Arrow IPC file: <where>: <why>"}, or {@code "<file>: <column>: <why>"}
 * for a column ({@code "s.arrow: variant: row 70000 (record batch 1): a text value that is not UTF-8"};
 * rows are counted from 0 over the whole file).
 */
public final class ArrowInput implements AutoCloseable {
    /**
     * Rows in one record batch, at most: ours write 65,536 (samples) or one batch per graph file (a
     * 1 GiB edges file holds about 90 million); the memory limit bounds what such a batch may take.
     */
    public static final int MAX_BATCH_ROWS = 1 << 28;

    private final Path file;
    private final long size;
    private final BufferAllocator allocator;
    private final Checked reader;
    private final VectorSchemaRoot root;
    private final List<ArrowBlock> blocks;
    private int next;
    /** Rows in the batches before the one last loaded: a row's number in the file. */
    private long rowsBefore;

    private ArrowInput(Path file, SeekableByteChannel channel, long memoryLimit, CompressionCodec.Factory codecs) {
        this.file = file;
        BufferAllocator alloc = null;
        Checked r = null;
        try {
            size = channel.size();
            alloc = new RootAllocator(memoryLimit);
            r = new Checked(channel, alloc, codecs);
            root = r.getVectorSchemaRoot();
            blocks = List.copyOf(r.getRecordBlocks());
            for (int b = 0; b < blocks.size(); b++) {
                ArrowBlock block = blocks.get(b);
                long end = block.getOffset() + block.getMetadataLength() + block.getBodyLength();
                if (block.getOffset() < 0
                        || block.getMetadataLength() < 0
                        || block.getBodyLength() < 0
                        || end > size
                        || end < 0) {
                    throw damaged("record batch " + b, "lies outside the file (" + size + " bytes)");
                }
            }
        } catch (BadInput e) {
            closeQuietly(r, alloc);
            throw e;
        } catch (IOException | RuntimeException | StackOverflowError | AssertionError e) {
            closeQuietly(r, alloc);
            throw translate("footer and schema", e);
        }
        this.allocator = alloc;
        this.reader = r;
    }

    /**
     * Opens {@code file} through {@link HostileFiles#channel} (no link followed, regular files only),
     * ZSTD and LZ4 bodies allowed (samples.arrow is compressed).
     */
    public static ArrowInput open(Path file, long memoryLimit) {
        FileChannel ch = HostileFiles.channel(file);
        try {
            return new ArrowInput(file, ch, memoryLimit, CommonsCompressionFactory.INSTANCE);
        } catch (RuntimeException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the refusal is what counts
            }
            throw e;
        }
    }

    /** Reads a file already in memory ({@code bytes}, read once by the caller), uncompressed bodies only. */
    public static ArrowInput of(Path file, byte[] bytes, long memoryLimit) {
        return new ArrowInput(
                file, new ByteArrayReadableSeekableByteChannel(bytes), memoryLimit, CompressionCodec.Factory.INSTANCE);
    }

    public Schema schema() {
        return root.getSchema();
    }

    /** The columns' names, in file order. */
    public List<String> columns() {
        return root.getSchema().getFields().stream().map(Field::getName).toList();
    }

    /** Whether the file has a column {@code name} (of any type). */
    public boolean has(String name) {
        return root.getVector(name) != null;
    }

    /**
     * Checks column {@code name} has type {@code want} (for a list, its item type too, when given) and
     * returns its vector, of {@code type}; bad input naming the file and column otherwise. Call before
     * the first {@link #next}: a column is checked on the schema, never found wrong midway.
     */
    public <V extends FieldVector> V require(String name, ArrowType want, Class<V> type) {
        FieldVector v = root.getVector(name);
        if (v == null) {
            throw BadInput.at(file, name, "column missing (columns present: " + columns() + ")");
        }
        ArrowType got = v.getField().getType();
        if (!got.equals(want) || !type.isInstance(v)) {
            throw BadInput.at(file, name, "has type " + describe(got) + ", expected " + describe(want));
        }
        return type.cast(v);
    }

    /** Loads the next record batch, checked (see the class comment); false after the last. */
    public boolean next() {
        if (next >= blocks.size()) {
            return false;
        }
        int b = next++;
        try {
            reader.batchNumber = b;
            rowsBefore += root.getRowCount();
            reader.loadRecordBatch(blocks.get(b));
            long first = rowsBefore;
            for (FieldVector v : root.getFieldVectors()) {
                validate(v, v.getName(), row -> "row " + (first + row) + " (record batch " + b + ")", b);
            }
            return true;
        } catch (BadInput e) {
            throw e;
        } catch (IOException | RuntimeException | StackOverflowError | AssertionError e) {
            throw translate("record batch " + b, e);
        }
    }

    /**
     * Validates one column's buffers against the batch ({@link ValueVectorUtility#validateFull}),
     * its nested columns first, so a failure names the column at fault and the row where it is (for a
     * nested column, the row its value belongs to, when the list offsets say so), in our words
     * ({@link ArrowWords}).
     */
    private void validate(FieldVector v, String name, ArrowWords.Place place, int batch) {
        for (FieldVector child : v.getChildrenFromFields()) {
            String childName = child.getName();
            ArrowWords.Place inner = position -> {
                long row = ownerRow(v, position);
                return row < 0
                        ? "value " + position + " of its nested values (record batch " + batch + ")"
                        : place.at(row);
            };
            validate(child, "$data$".equals(childName) ? name + "[]" : name + "." + childName, inner, batch);
        }
        try {
            ValueVectorUtility.validateFull(v);
        } catch (ValidateUtil.ValidateException e) {
            String why = ArrowWords.invalidColumn(e.getMessage(), place);
            throw new BadInput(Printable.of(file) + ": " + Printable.of(name) + ": " + why, e);
        }
    }

    /**
     * The row of {@code parent} (a list or struct column) that holds value {@code position} of its
     * child, or -1 when its offsets (not yet validated) do not say: read only inside the buffer.
     */
    private static long ownerRow(FieldVector parent, long position) {
        if (parent instanceof StructVector) {
            return position;
        }
        if (!(parent instanceof BaseRepeatedValueVector list)) {
            return -1;
        }
        var offsets = list.getOffsetBuffer();
        int rows = list.getValueCount();
        if (offsets == null || offsets.capacity() < (rows + 1L) * BaseRepeatedValueVector.OFFSET_WIDTH) {
            return -1;
        }
        for (int r = 0; r < rows; r++) {
            int start = offsets.getInt((long) r * BaseRepeatedValueVector.OFFSET_WIDTH);
            int end = offsets.getInt((long) (r + 1) * BaseRepeatedValueVector.OFFSET_WIDTH);
            if (start <= position && position < end) {
                return r;
            }
        }
        return -1;
    }

    /**
     * Bad input for an Arrow exception thrown while the caller read the batch last loaded (an index
     * outside a buffer that validation did not cover): the caller catches Arrow's runtime exceptions
     * around its reading and throws this, so none escapes as itself.
     */
    public BadInput damaged(RuntimeException e) {
        return translate("record batch " + (next - 1), e);
    }

    /** Rows in the batch last loaded. */
    public int rows() {
        return root.getRowCount();
    }

    /** The batch last loaded; its vectors are replaced by {@link #next}. */
    public VectorSchemaRoot root() {
        return root;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() {
        closeQuietly(reader, allocator);
    }

    private BadInput damaged(String where, String why) {
        return BadInput.at(file, "file", "not a readable Arrow IPC file: " + where + ": " + why);
    }

    /** Arrow's failures in our words: where it failed, and why when Arrow's message says it plainly. */
    private BadInput translate(String where, Throwable e) {
        String why;
        if (e instanceof InvalidArrowFileException) {
            why = "not an Arrow IPC file, or cut short (its magic number or footer is missing or damaged)";
        } else if (e instanceof ValidateUtil.ValidateException) {
            why = "its buffers do not hold the rows it declares";
        } else if (e instanceof OutOfMemoryException) {
            why = "declares more data than the limit for this kind of file";
        } else if (e instanceof AssertionError) {
            // Arrow's own assertions on the lengths it was given (with -ea): the file's, not ours
            why = "its lengths contradict each other";
        } else if (e instanceof StackOverflowError) {
            why = "its schema nests too deeply";
        } else if (e instanceof IOException io) {
            String arrows = ArrowWords.unreadable(io);
            why = io instanceof EOFException ? "truncated" : arrows != null ? arrows : "cannot read: " + Io.reason(io);
        } else {
            why = "damaged or truncated (its metadata or a buffer does not hold together)";
        }
        return new BadInput(Printable.of(file) + ": file: not a readable Arrow IPC file: " + where + ": " + why, e);
    }

    /** A column type as our messages name it ({@code int32}, {@code float(double)}, {@code utf8}), not Arrow's. */
    public static String describe(ArrowType t) {
        if (t instanceof ArrowType.Int i) {
            return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
        }
        if (t instanceof ArrowType.FloatingPoint f) {
            return "float(" + f.getPrecision().name().toLowerCase(Locale.ROOT) + ")";
        }
        return t.getTypeID().name().toLowerCase(Locale.ROOT);
    }

    private static void closeQuietly(ArrowFileReader r, BufferAllocator alloc) {
        try {
            if (r != null) {
                r.close();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing a reader of a damaged file may fail too; the allocator below frees what it held
        }
        if (alloc != null) {
            try {
                alloc.close();
            } catch (RuntimeException leaked) {
                // Arrow reports buffers it could not account for; the refusal already said why
            }
        }
    }

    /** The reader with the checks that must run before Arrow allocates for what a file declares. */
    private final class Checked extends ArrowFileReader {
        int batchNumber;

        Checked(SeekableByteChannel in, BufferAllocator alloc, CompressionCodec.Factory codecs) {
            super(in, alloc, codecs);
        }

        @Override
        protected Schema readSchema() throws IOException {
            Schema s = super.readSchema();
            Map<String, String> names = new HashMap<>(); // by the name in lower case: the name
            for (Field f : s.getFields()) {
                noDictionary(f);
                // Arrow keeps both; a reader by name would see the first, and a table (whose names ignore
                // case) refuses the second
                String before = names.putIfAbsent(f.getName().toLowerCase(Locale.ROOT), f.getName());
                if (before != null) {
                    throw BadInput.at(
                            file,
                            f.getName(),
                            before.equals(f.getName())
                                    ? "two columns have this name; each column's name must be its own"
                                    : "two columns have this name but for letter case (" + Printable.of(before)
                                            + "); each column's name must be its own, whatever the case");
                }
            }
            return s;
        }

        private void noDictionary(Field f) {
            if (f.getDictionary() != null) {
                throw BadInput.at(file, f.getName(), "dictionary-encoded; the file's columns are plain");
            }
            f.getChildren().forEach(this::noDictionary);
        }

        @Override
        protected void loadRecordBatch(ArrowRecordBatch batch) {
            String why = null;
            boolean compressed =
                    batch.getBodyCompression().getCodec() != CompressionUtil.CodecType.NO_COMPRESSION.getType();
            long body = batch.computeBodyLength();
            long bound = compressed ? MAX_BATCH_ROWS : Math.min(MAX_BATCH_ROWS, 8 * body + 8);
            if (batch.getLength() < 0 || batch.getLength() > bound) {
                why = "declares " + batch.getLength() + " rows, more than " + bound + " its " + body
                        + " bytes can hold";
            }
            for (ArrowFieldNode n : batch.getNodes()) {
                if (why == null
                        && (n.getLength() < 0
                                || n.getLength() > bound
                                || n.getNullCount() < 0
                                || n.getNullCount() > n.getLength())) {
                    why = "declares a column of " + n.getLength() + " values (" + n.getNullCount()
                            + " null), more than "
                            + bound + " its " + body + " bytes can hold";
                }
            }
            if (why != null) {
                batch.close();
                throw damaged("record batch " + batchNumber, why);
            }
            super.loadRecordBatch(batch);
        }
    }
}
