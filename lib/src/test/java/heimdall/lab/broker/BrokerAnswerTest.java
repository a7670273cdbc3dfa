package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The broker and CONTINUE answers, with both supervisors, on a real notified child. */
class BrokerAnswerTest {
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
    void brokeredDescriptorReadsTheFileBeneathIn(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            OpenResult hello = child.open("hello.txt");
            assertTrue(hello.fd() >= 0, "fd " + hello.fd() + " errno " + hello.errno());
            // The child's cwd has its own hello.txt: reading in/'s proves the broker opened it.
            assertEquals(Job.HELLO, hello.text());
            assertEquals("data in sub\n", child.open("sub/data.txt").text());
            assertEquals(Job.HELLO, child.open("sub/../hello.txt").text(), ".. that stays inside in/");
            assertEquals("data in sub\n", child.open("link-in").text(), "a symlink inside in/");
            OpenResult missing = child.open("no-such-file");
            assertEquals(-1, missing.fd());
            assertEquals(2, missing.errno(), "ENOENT for a missing file beneath in/");
            SupervisorStats s = sup.stop();
            assertEquals(5, s.received());
            assertEquals(4, s.brokered());
            assertEquals(1, s.errored());
            assertEquals(0, s.refused());
            assertEquals(0, s.failures());
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void continueLetsTheRealOpenatRun(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.CONTINUE)) {
            // The real openat resolves against the child's cwd, not in/.
            assertEquals(Job.CWD_HELLO, child.open("hello.txt").text());
            assertEquals(Job.SECRET, child.open("../outside/secret.txt").text(), "CONTINUE decides nothing");
            assertEquals(2, child.open("no-such-file").errno());
            SupervisorStats s = sup.stop();
            assertEquals(3, s.received());
            assertEquals(3, s.continued());
            assertEquals(0, s.brokered());
        }
    }
}
