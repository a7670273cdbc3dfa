package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.bench.SamplesFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * samples.arrow mutated as the fuzzing of issue 20 did (int64 {@code row}, truncated, empty, flipped
 * bytes, patched row counts, columns of other types, nulls): {@code results distill} and the sample
 * readers of {@link Results} answer each with bad input naming the file (and the column where one is
 * at fault), never another exception, quickly, and distill writes nothing.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SamplesMutationTest {
    @TempDir
    Path tmp;

    /** "ok", or the bad input's message (checked to name the file and hold no exception names). */
    private static String outcome(Path file, Supplier<?> read) {
        long t0 = System.nanoTime();
        try {
            read.get();
            return "ok";
        } catch (BadInput b) {
            String m = b.getMessage();
            assertTrue(m.startsWith(file.toString()), m);
            for (String internal : List.of("Exception", "recordBatchFB", "BigIntVector", "IntVector", "\tat ")) {
                assertFalse(m.contains(internal), "a class name in the message: " + m);
            }
            return m;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            throw new AssertionError(file + ": not bad input: " + e, e);
        } finally {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 10_000, "one read took " + ms + " ms");
        }
    }

    /** Distills {@code dir}; on refusal checks nothing was written. */
    private static String distill(Path dir) {
        Path samples = dir.resolve("samples.arrow");
        String o = outcome(samples, () -> Distributions.distill(dir));
        if (o.equals("ok")) {
            try {
                Files.delete(dir.resolve(Distributions.FILE));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        } else {
            assertFalse(
                    Files.exists(dir.resolve(Distributions.FILE)), "distill refused but wrote " + Distributions.FILE);
        }
        return o;
    }

    @Test
    void theMutantsTheIssueListsAreBadInputNamingTheFileAndColumn() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path samples = dir.resolve("samples.arrow");
        Results results = Results.load(dir);

        write(samples, "row", 64, "variant", 0, "run", 32, "ns", 64);
        String o = distill(dir);
        assertTrue(o.startsWith(samples + ": row: has type int64, expected int32"), o);
        o = outcome(samples, () -> Results.load(dir).samplesOf(0, "filtered"));
        assertTrue(o.startsWith(samples + ": row: has type int64"), o);

        write(samples, "row", 32, "variant", 32, "run", 32, "ns", 64);
        assertTrue(distill(dir).startsWith(samples + ": variant: has type int32, expected utf8"));
        write(samples, "row", 32, "variant", 0, "run", 32, "ns", 32);
        assertTrue(distill(dir).startsWith(samples + ": ns: has type int32, expected int64"));
        write(samples, "row", 32, "variant", 0, "ns", 64);
        o = distill(dir);
        assertTrue(
                o.startsWith(samples + ": run: column missing: per-call samples have row, variant, run, ns"),
                "without run it is neither per-call nor batch samples (its reader would refuse the text column): " + o);

        Files.write(samples, new byte[0]);
        assertTrue(distill(dir).startsWith(samples + ": file: not a readable Arrow IPC file"));
        assertTrue(outcome(samples, results::hasCallSamples)
                .startsWith(samples + ": file: not a readable Arrow IPC file"));
        Files.writeString(samples, "ARROW1 but not really");
        assertTrue(distill(dir).startsWith(samples + ": file: not a readable Arrow IPC file"));
    }

    @Test
    void everyCutAndFlipOfAnUncompressedFileIsBadInputOrTheSamples() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path samples = dir.resolve("samples.arrow");
        byte[] good = Files.readAllBytes(samples);
        List<Integer> cuts = new ArrayList<>();
        for (int len = 0; len < good.length; len += len < 300 || len > good.length - 300 ? 1 : 997) {
            cuts.add(len);
        }
        for (int len : cuts) {
            Files.write(samples, Arrays.copyOf(good, len));
            String o = outcome(samples, () -> SamplesReader.readCallSamples(samples));
            assertTrue(o.startsWith(samples + ": "), "cut at " + len + ": " + o);
        }
        int refused = 0;
        for (int at = 0; at < good.length; at += at < 400 || at > good.length - 400 ? 1 : 401) {
            byte[] b = good.clone();
            b[at] ^= (byte) 0xff;
            Files.write(samples, b);
            refused += outcome(samples, () -> SamplesReader.readCallSamples(samples))
                            .equals("ok")
                    ? 0
                    : 1;
        }
        assertTrue(refused > 50, "flips in the metadata are refused: " + refused);
        Files.write(samples, good);
        assertEquals(good.length, Files.size(samples));
        assertEquals("ok", distill(dir));
    }

    @Test
    void flipsInACompressedMultiBatchFileAreBadInputOrTheSamples() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path samples = dir.resolve("samples.arrow");
        Files.delete(samples);
        try (SamplesFile f = SamplesFile.create(samples)) {
            long[] run = new long[40_000];
            for (int i = 0; i < run.length; i++) {
                run[i] = 100 + (i * 7919L) % 1000;
            }
            f.append(0, "filtered", 0, run);
            f.append(0, "filtered", 1, run);
        }
        byte[] good = Files.readAllBytes(samples);
        int refused = 0;
        for (int at = 0; at < good.length; at += at < 600 || at > good.length - 600 ? 5 : 1009) {
            for (int mask : new int[] {0xff, 0x10}) {
                byte[] b = good.clone();
                b[at] ^= (byte) mask;
                Files.write(samples, b);
                refused += outcome(samples, () -> SamplesReader.readCallSamples(samples))
                                .equals("ok")
                        ? 0
                        : 1;
            }
        }
        assertTrue(refused > 50, "refused " + refused);
    }

    @Test
    void rowCountsPatchedToHugeValuesAreRefusedQuickly() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path samples = dir.resolve("samples.arrow");
        byte[] good = Files.readAllBytes(samples);
        long rows = SamplesReader.readCallSamples(samples).values().stream()
                .flatMap(Arrays::stream)
                .mapToLong(r -> r.length)
                .sum();
        List<Integer> at = find(good, le64(rows));
        at.removeIf(k -> !inBatchMetadata(good, k));
        assertFalse(at.isEmpty(), "the row count " + rows + " is in the file");
        for (long patched : new long[] {Integer.MAX_VALUE, 1L << 40, -1, rows * 8 + 9}) {
            for (int k : at) {
                byte[] b = good.clone();
                System.arraycopy(le64(patched), 0, b, k, 8);
                Files.write(samples, b);
                String o = distill(dir);
                // A small count may still fit the buffers (or land on a buffer's offset): a valid file then.
                assertTrue(patched == rows * 8 + 9 || o.startsWith(samples + ": "), patched + " at " + k + ": " + o);
            }
        }
    }

    @Test
    void nullsAndNegativeRowsAreBadInputNamingTheColumn() throws Exception {
        Path dir = SyntheticResults.floorFolder(tmp.resolve("floor"));
        Path samples = dir.resolve("samples.arrow");
        try (BufferAllocator a = new RootAllocator();
                IntVector row = new IntVector("row", a);
                VarCharVector variant = new VarCharVector("variant", a);
                IntVector run = new IntVector("run", a);
                BigIntVector ns = new BigIntVector("ns", a)) {
            row.allocateNew(2);
            variant.allocateNew(2);
            run.allocateNew(2);
            ns.allocateNew(2);
            for (int i = 0; i < 2; i++) {
                row.set(i, 0);
                variant.setSafe(i, "filtered".getBytes(StandardCharsets.UTF_8));
                run.set(i, 0);
            }
            ns.set(0, 5);
            ns.setNull(1);
            writeRoot(samples, List.of(row, variant, run, ns), 2);
            assertTrue(distill(dir).startsWith(samples + ": ns: holds 1 null(s)"));
            ns.set(1, 6);
            row.set(1, -3);
            writeRoot(samples, List.of(row, variant, run, ns), 2);
            assertTrue(distill(dir).startsWith(samples + ": row: value -3 is negative"));
        }
    }

    /** Writes samples with columns {@code name, bits} pairs: 32/64 integers, 0 utf8. Two rows. */
    private static void write(Path file, Object... columns) throws IOException {
        BufferAllocator a = new RootAllocator();
        List<FieldVector> vs = new ArrayList<>();
        for (int c = 0; c < columns.length; c += 2) {
            String name = (String) columns[c];
            int bits = (Integer) columns[c + 1];
            FieldVector v = switch (bits) {
                case 32 -> new IntVector(name, a);
                case 64 -> new BigIntVector(name, a);
                default -> new VarCharVector(name, a);
            };
            v.setInitialCapacity(2);
            v.allocateNew();
            for (int i = 0; i < 2; i++) {
                if (v instanceof IntVector iv) {
                    iv.set(i, 0);
                } else if (v instanceof BigIntVector bv) {
                    bv.set(i, 100 + i);
                } else {
                    ((VarCharVector) v).setSafe(i, "filtered".getBytes(StandardCharsets.UTF_8));
                }
            }
            vs.add(v);
        }
        writeRoot(file, vs, 2);
        vs.forEach(FieldVector::close);
        a.close();
    }

    private static void writeRoot(Path file, List<FieldVector> vectors, int n) throws IOException {
        for (var v : vectors) {
            v.setValueCount(n);
        }
        Files.deleteIfExists(file);
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                ArrowFileWriter w = new ArrowFileWriter(root, null, ch)) {
            root.setRowCount(n);
            w.start();
            w.writeBatch();
            w.end();
        }
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
        return at;
    }
}
