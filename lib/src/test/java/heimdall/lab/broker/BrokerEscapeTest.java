package heimdall.lab.broker;

import static heimdall.lab.Errno.EACCES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Paths that escape {@code in/} are refused with {@code EACCES} and nothing outside is opened: an
 * inotify watch on {@code outside/} counts every open there by any process (the same watch on
 * {@code in/} sees the broker's legitimate open, so the watch would catch one), and one escape leads
 * to a FIFO whose open would block the supervisor.
 */
class BrokerEscapeTest {

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void everyEscapeKindIsRefusedWithoutOpeningAnythingOutside(Supervisor.Kind kind) throws Exception {
        String secret = job.secret().toAbsolutePath().toString();
        List<String> escapes = List.of(
                "../outside/secret.txt", // ..
                "sub/../../outside/secret.txt", // .. after a real directory
                secret, // absolute, into a readable file
                "/etc/passwd", // absolute
                "/proc/self/root" + secret, // absolute, through a magic link
                "link-out", // a symlink in in/ pointing out (relative)
                "link-abs", // a symlink in in/ pointing out (absolute)
                "link-fifo"); // a symlink to a FIFO outside: opening it would block
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER);
                InotifyOpens outside = new InotifyOpens(job.outside());
                InotifyOpens in = new InotifyOpens(job.in())) {
            for (String path : escapes) {
                OpenResult r = child.open(path);
                assertEquals(-1, r.fd(), path + " was opened");
                assertEquals(EACCES, r.errno(), path);
            }
            assertEquals(0, outside.opens(), "opens in outside/ while escapes were refused");

            // Write access is refused too, and the file is left as it was.
            assertEquals(EACCES, child.open("hello.txt", 01 | 01000).errno(), "O_WRONLY|O_TRUNC");
            assertEquals(EACCES, child.open("created.txt", 02 | 0100).errno(), "O_RDWR|O_CREAT");
            assertEquals(Job.HELLO, Files.readString(job.in().resolve("hello.txt")));
            assertFalse(Files.exists(job.in().resolve("created.txt")));

            // Control: the watch sees the broker's own open beneath in/.
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            assertTrue(in.opens() >= 1, "the inotify watch saw no open of in/hello.txt");
            assertEquals(0, outside.opens());

            SupervisorStats s = sup.stop();
            assertEquals(escapes.size() + 2, s.refused());
            assertEquals(escapes.size() + 2, s.errored());
            assertEquals(1, s.brokered());
            assertEquals(0, s.failures());
        }
    }
}
