package heimdall.lab.graph.prepared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading cache sizes from a sysfs-shaped directory, including what it lacks or garbles. */
class CacheSizesTest {
    @TempDir
    Path tmp;

    private void index(int i, String level, String type, String size) throws Exception {
        Path d = Files.createDirectories(tmp.resolve("index" + i));
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
    }

    @Test
    void readsL1dAndL2AndSkipsTheInstructionCache() throws Exception {
        index(0, "1", "Data", "48K");
        index(1, "1", "Instruction", "32K");
        index(2, "2", "Unified", "1024K");
        index(3, "3", "Unified", "32768K");
        CacheSizes c = CacheSizes.read(tmp);
        assertEquals(48 << 10, c.l1d());
        assertEquals(1 << 20, c.l2());
        assertEquals(tmp.toString(), c.source());
    }

    @Test
    void aMissingOrGarbledLevelIsAssumedAndSaysSo() throws Exception {
        index(0, "1", "Data", "lots");
        index(2, "2", "Unified", "2M");
        CacheSizes c = CacheSizes.read(tmp);
        assertEquals(CacheSizes.ASSUMED.l1d(), c.l1d());
        assertEquals(2 << 20, c.l2());
        assertTrue(c.source().contains("assumed"), c.source());
        assertEquals(CacheSizes.ASSUMED, CacheSizes.read(tmp.resolve("absent")));
    }

    @Test
    void sizesParseWithTheirUnits() {
        assertEquals(512, CacheSizes.parseSize("512"));
        assertEquals(32 << 10, CacheSizes.parseSize("32K"));
        assertEquals(8 << 20, CacheSizes.parseSize("8M"));
    }
}
