package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.BadInput;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.sys.Planted;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published tables ({@code results/published/*.json}) are read as every file the harness reads: a link
 * planted at the name is not followed, a FIFO is not waited on, and each refusal names the file.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PublishedFilesTest {
    private static final List<Function<Path, Object>> READERS =
            List.of(PublishedFloorCost::read, PublishedAttachCost::read, PublishedKernelBitmap::read);

    @Test
    void theProjectsCopiesRead() {
        PublishedFloorCost.read();
        PublishedAttachCost.read();
        PublishedKernelBitmap.read();
        PublishedGraphLookup.read();
        assertTrue(Files.isRegularFile(Fixtures.resultsRoot().resolve("published/floor-cost.json")));
    }

    @Test
    void aLinkAtTheNameIsNotFollowed(@TempDir Path tmp) throws Exception {
        Path real = Fixtures.resultsRoot().resolve("published/floor-cost.json");
        Path link = Files.createSymbolicLink(tmp.resolve("floor-cost.json"), real);
        for (Function<Path, Object> read : READERS) {
            BadInput e = assertThrows(BadInput.class, () -> read.apply(link));
            assertTrue(e.getMessage().startsWith(link.toString()), e.getMessage());
        }
    }

    @Test
    void aFifoIsRefusedWithoutWaitingForAWriter(@TempDir Path tmp) throws Exception {
        Path fifo = tmp.resolve("attach-cost.json");
        Planted.mkfifo(fifo);
        for (Function<Path, Object> read : READERS) {
            BadInput e = assertThrows(BadInput.class, () -> read.apply(fifo));
            assertTrue(e.getMessage().contains("is a FIFO"), e.getMessage());
        }
    }

    @Test
    void aFileThatIsNotJsonIsBadInputNamingIt(@TempDir Path tmp) throws Exception {
        Path bad = Files.writeString(tmp.resolve("kernel-bitmap.json"), "{\"rows\": [");
        BadInput e = assertThrows(BadInput.class, () -> PublishedKernelBitmap.read(bad));
        assertEquals(true, e.getMessage().startsWith(bad.toString()), e.getMessage());
    }
}
