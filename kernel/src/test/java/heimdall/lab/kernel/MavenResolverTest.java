package heimdall.lab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.maven.model.interpolation.ModelInterpolator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
        for (String url : List.of(
                "file:///tmp/m2",
                "ftp://example.org/",
                "https:///nohost",
                "not a url",
                "/tmp",
                "http://example.org/")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> r.addRepository("x", url), url);
            assertTrue(e.getMessage().contains(url), e.getMessage());
        }
        r.addRepository("mine", "https://example.org/m2/");
        assertEquals(List.of("central", "mine"), List.copyOf(r.repositories().keySet()));
        assertTrue(r.repositories().get("central").startsWith("https://"));
    }

    /** A repository on this host that counts what it is asked: every answer is a 404. */
    static final class CountingServer implements AutoCloseable {
        final AtomicInteger requests = new AtomicInteger();
        final HttpServer server;

        CountingServer() throws Exception {
            // 127.0.0.2: this machine, but not a name Maven's blocker (nor ours) exempts, as a remote host is not
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0), 0);
            server.createContext("/", x -> {
                requests.incrementAndGet();
                x.sendResponseHeaders(404, -1);
                x.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.2:" + server.getAddress().getPort() + "/m2/";
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void plainHttpRepositoriesAreRefusedWithTheReasonBeforeAnythingIsFetched(@TempDir Path local) throws Exception {
        try (CountingServer http = new CountingServer();
                MavenResolver r = new MavenResolver(local)) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> r.addRepository("plain", http.url()));
            assertTrue(
                    e.getMessage().startsWith("repository 'plain' at " + http.url() + " is refused: plain http://"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("Maven blocks it since 3.8.1"), e.getMessage());
            assertEquals(List.of("central"), List.copyOf(r.repositories().keySet()), "not added");
            // the scheme is read case-blind: HTTP:// is the same plain connection
            assertThrows(IllegalArgumentException.class, () -> r.addRepository("plain", "HTTP://example.org/m2/"));
            assertEquals(0, http.requests.get(), "nothing fetched");
            // as in Maven, this machine by name is exempt: no one is on that path
            r.addRepository("here", "http://127.0.0.1:8081/m2/");
            r.addRepository("there", "http://localhost/m2/");
            assertEquals(
                    List.of("central", "here", "there"),
                    List.copyOf(r.repositories().keySet()));
        }
    }

    @Test
    void aPomsPlainHttpRepositoryIsRefusedNamingItBeforeAnyDependencyIsResolved(@TempDir Path local) throws Exception {
        try (CountingServer http = new CountingServer();
                MavenResolver r = new MavenResolver(local)) {
            List<String> added = new ArrayList<>();
            PomMagics pom = new PomMagics(r, added::add);
            String body = "<repositories><repository><id>mirror</id><url>" + http.url()
                    + "</url></repository></repositories>\n"
                    + "<dependency><groupId>org.example</groupId><artifactId>evil</artifactId>"
                    + "<version>1.0</version></dependency>";
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> pom.loadFromPomCell(List.of(), body));
            assertTrue(
                    e.getMessage()
                            .startsWith("the cell: <repository> mirror: repository 'mirror' at " + http.url()
                                    + " is refused: plain http://"),
                    e.getMessage());
            assertEquals(0, http.requests.get(), "nothing fetched");
            assertEquals(List.of(), added);
        }
    }

    @Test
    void centralMovedToPlainHttpIsRefusedBeforeAnythingIsFetched(@TempDir Path local) throws Exception {
        String key = ModelInterpolator.MAVEN_REPO_CENTRAL_KEY;
        String before = System.getProperty(key);
        try (CountingServer http = new CountingServer()) {
            System.setProperty(key, http.url());
            try (MavenResolver r = new MavenResolver(local)) {
                IllegalArgumentException e =
                        assertThrows(IllegalArgumentException.class, () -> r.resolve("org.example:evil:1.0"));
                assertTrue(
                        e.getMessage()
                                .startsWith("cannot resolve org.example:evil:1.0: repository 'central' at " + http.url()
                                        + " is refused: plain http://"),
                        e.getMessage());
                assertTrue(e.getMessage().endsWith("(Central's address comes from -D" + key + ")"), e.getMessage());
            }
            assertEquals(0, http.requests.get(), "nothing fetched");
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }
}
