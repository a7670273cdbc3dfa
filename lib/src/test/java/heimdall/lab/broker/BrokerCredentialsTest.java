package heimdall.lab.broker;

import static heimdall.lab.Errno.EACCES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The broker opens as its caller would (issue 29), on both supervisors: a child running as
 * {@code nobody} is refused a root-owned {@code 0600} file in {@code in/} and a file inside a
 * {@code 0700} root folder there, is still served a world-readable file, and, in a supplementary
 * group, a {@code 0640} file of that group; with {@link Policy#asSupervisor()} the supervisor's rights
 * serve all of them. The supervisor (root) keeps {@code CAP_DAC_OVERRIDE}, so each refusal also shows
 * the kernel dropping the file-system capabilities from the opening thread while its fsuid is not 0,
 * and the root calls served between them show it giving them back; no thread of this process is left
 * with another fsuid.
 */
@Timeout(120)
class BrokerCredentialsTest {
    private static final int CAP_SETUID = 7;
    private static final int CAP_SETGID = 6;
    private static final int NOBODY = 65534;
    private static final int GROUP = 4242;
    private static final long O_RDONLY_CLOEXEC = 02000000;
    private static final String ROOT_ONLY = "root-only.txt";
    private static final String LOCKED = "locked/inner.txt";
    private static final String PUBLIC = "public.txt";
    private static final String GROUP_FILE = "group.txt";

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        Requires.that(
                KernelFacts.capability(CAP_SETUID, "CAP_SETUID"), KernelFacts.capability(CAP_SETGID, "CAP_SETGID"));
        job = Job.create(tmp);
        Path in = job.in();
        write(in.resolve(ROOT_ONLY), "rw-------");
        Path locked = Files.createDirectory(in.resolve("locked"));
        write(in.resolve(LOCKED), "rw-r--r--");
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
        write(in.resolve(PUBLIC), "rw-r--r--");
        write(in.resolve(GROUP_FILE), "rw-r-----");
        Files.setAttribute(in.resolve(GROUP_FILE), "unix:gid", GROUP);
    }

    private static void write(Path p, String mode) throws IOException {
        Files.writeString(p, p.getFileName() + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }

    private NotifyChildFixture childAs(int... groups) throws IOException {
        return NotifyChildFixture.start(NotifyChildFixture.Options.in(job.cwd()).as(NOBODY, NOBODY, groups));
    }

    private static void assertServed(OpenResult r, String name) {
        assertServed(r, name, name);
    }

    private static void assertServed(OpenResult r, String name, String what) {
        assertTrue(r.fd() >= 0, what + " was refused: errno " + r.errno());
        assertEquals(Path.of(name).getFileName() + "\n", r.text(), what);
    }

    private static void assertRefused(OpenResult r, String name) {
        assertEquals(-1, r.fd(), name + " was served");
        assertEquals(EACCES, r.errno(), name);
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void nobodyReadsOnlyWhatNobodyMay(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = childAs();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertRefused(child.open(ROOT_ONLY), ROOT_ONLY);
            assertRefused(child.open(LOCKED), LOCKED);
            assertRefused(child.open(GROUP_FILE), GROUP_FILE + " (not in its group)");
            assertServed(child.open(PUBLIC), PUBLIC);
            assertEquals(0, sup.stop().failures());
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aSupplementaryGroupCounts(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = childAs(GROUP);
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertServed(child.open(GROUP_FILE), GROUP_FILE);
            assertRefused(child.open(ROOT_ONLY), ROOT_ONLY);
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void asSupervisorServesWithTheSupervisorsRights(Supervisor.Kind kind) throws Exception {
        Policy deputy = Policy.always(Answer.BROKER).asSupervisor();
        try (NotifyChildFixture child = childAs();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), deputy)) {
            assertServed(child.open(ROOT_ONLY), ROOT_ONLY);
            assertServed(child.open(LOCKED), LOCKED);
            assertServed(child.open(GROUP_FILE), GROUP_FILE);
        }
    }

    /**
     * One supervisor thread serves a root caller, then a worker that became nobody, then root again:
     * read per call, never cached, and the capabilities are back for root each time.
     */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void credentialsAreReadForEachCallAndGivenBack(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = NotifyChildFixture.start(NotifyChildFixture.Options.in(job.cwd()));
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            for (int round = 0; round < 3; round++) {
                assertServed(child.open(ROOT_ONLY), ROOT_ONLY, "as root, round " + round);
                assertServed(child.open(LOCKED), LOCKED, "as root, round " + round);
                int w = child.forkAs(NOBODY, NOBODY, new int[0], "openat", ROOT_ONLY, O_RDONLY_CLOEXEC);
                assertRefused(child.awaitWorkerOpen(w), ROOT_ONLY + " as nobody, round " + round);
                assertEquals(0, child.reap());
                w = child.forkAs(NOBODY, NOBODY, new int[] {GROUP}, "openat", GROUP_FILE, O_RDONLY_CLOEXEC);
                assertServed(child.awaitWorkerOpen(w), GROUP_FILE, "as nobody in its group, round " + round);
                assertEquals(0, child.reap());
            }
            assertEquals(List.of(), threadsNotRoot(), "threads of this process left with another fsuid or fsgid");
            SupervisorStats s = sup.stop();
            assertEquals(9, s.brokered());
            assertEquals(0, s.failures());
        }
    }

    /** Threads of this process whose fsuid or fsgid (the fourth Uid/Gid field) is not 0. */
    private static List<String> threadsNotRoot() throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(t.resolve("status"));
                } catch (IOException e) {
                    continue; // ended meanwhile
                }
                for (String l : lines) {
                    if (l.startsWith("Uid:") || l.startsWith("Gid:")) {
                        String[] f = l.split("\\s+");
                        if (!f[4].equals("0")) {
                            out.add(t.getFileName() + " " + l);
                        }
                    }
                }
            }
        }
        return out;
    }
}
