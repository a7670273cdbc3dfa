package heimdall.lab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SamplesFileTest {
    @TempDir
    Path tmp;

    @Test
    void everySampleComesBackAcrossBatches() throws Exception {
        Path file = tmp.resolve("samples.arrow");
        long[] big = new long[200_000]; // spans several 64K batches
        for (int i = 0; i < big.length; i++) {
            big[i] = 100 + (i * 7919L) % 1000;
        }
        try (SamplesFile f = SamplesFile.create(file)) {
            f.append(0, "none", 0, new long[] {1, 2, 3});
            f.append(0, "filtered", 0, big);
            f.append(0, "filtered", 1, new long[] {5});
            f.append(1, "filtered", 0, new long[] {9, 8});
        }
        long[][] filtered = SamplesFile.read(file, 0, "filtered");
        assertEquals(2, filtered.length);
        assertArrayEquals(big, filtered[0]);
        assertArrayEquals(new long[] {5}, filtered[1]);
        assertArrayEquals(new long[][] {{1, 2, 3}}, SamplesFile.read(file, 0, "none"));
        assertArrayEquals(new long[][] {{9, 8}}, SamplesFile.read(file, 1, "filtered"));
        // ZSTD: the raw columns take 32 bytes a sample; compressed, these noisy ones take under 8
        assertEquals(true, Files.size(file) < big.length * 8L, "size " + Files.size(file));
    }

    @Test
    void neverOverwrites() throws Exception {
        Path file = tmp.resolve("samples.arrow");
        Files.writeString(file, "earlier results");
        assertThrows(RuntimeException.class, () -> SamplesFile.create(file));
        assertEquals("earlier results", Files.readString(file));
    }
}
