package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Coordinates and repositories are checked before anything touches the network or the disk. */
class MavenResolverTest {
    @Test
    void coordinatesThatWouldLeaveTheLocalRepositoryAreRefused() {
        for (String bad : List.of(
                "..:x:1",
                "a..b:x:1",
                ".a:x:1",
                "a:..:1",
                "a:x:..",
                "a/b:x:1",
                "a:x\\y:1",
                "a:x:1/../../etc",
                "a:x",
                "a:b:c:d:e:f",
                "a::1",
                "nonsense")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> MavenResolver.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("bad coordinates '" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void goodCoordinatesParse() {
        assertEquals(
                "commons-text",
                MavenResolver.parse("org.apache.commons:commons-text:1.12.0").getArtifactId());
        assertEquals("tests", MavenResolver.parse("g.h:a:jar:tests:1.0").getClassifier());
        assertEquals("[1.0,2.0)", MavenResolver.parse("g:a:[1.0,2.0)").getVersion());
    }

    @Test
    void repositoriesNeedAnIdAndAnHttpUrl() {
        MavenResolver r = new MavenResolver(Path.of("/nonexistent"));
        assertThrows(IllegalArgumentException.class, () -> r.addRepository("a/b", "https://example.org/"));
        assertThrows(IllegalArgumentException.class, () -> r.addRepository("..", "https://example.org/"));
        for (String url : List.of("file:///tmp/m2", "ftp://example.org/", "https:///nohost", "not a url", "/tmp")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> r.addRepository("x", url), url);
            assertTrue(e.getMessage().contains(url), e.getMessage());
        }
        r.addRepository("mine", "https://example.org/m2/");
        assertEquals(List.of("central", "mine"), List.copyOf(r.repositories().keySet()));
        assertTrue(r.repositories().get("central").startsWith("https://"));
    }
}
