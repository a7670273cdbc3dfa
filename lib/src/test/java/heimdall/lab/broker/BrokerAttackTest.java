package heimdall.lab.broker;

import static heimdall.lab.Errno.EACCES;
import static heimdall.lab.Errno.ENAMETOOLONG;
import static heimdall.lab.Errno.ENOENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import heimdall.lab.broker.NotifyChildFixture.RaceResult;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hostile child against the broker, with both supervisors: a second thread that rewrites the name
 * while the supervisor looks at it, special files planted in {@code in/}, hard links, names at the
 * kernel's length limit.
 */
class BrokerAttackTest {
    private static final int O_DIRECTORY = 0200000;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    private static final int RACE_OPENS = 20_000;
    private static final String SECRET_INSIDE = "SECRET inside in/, denied by name\n";
    private static final String PUBLIC = "public\n";

    @TempDir
    Path tmp;

    Job job;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
        Files.writeString(job.in().resolve("secret.txt"), SECRET_INSIDE);
        Files.writeString(job.in().resolve("public.txt"), PUBLIC);
    }

    /** The example policy of {@link Policy}: names containing "secret" are denied, the rest brokered. */
    private static Policy denySecretByBytes() {
        byte[] secret = "secret".getBytes(StandardCharsets.UTF_8);
        return n -> n.nr() == Notification.OPENAT && n.readPath(1) > 0 && n.pathContains(secret)
                ? Answer.error(EACCES)
                : Answer.BROKER;
    }

    /** The same rule on the String view of the copy (reads it twice: still one copy). */
    private static Policy denySecretByString() {
        return n -> {
            String p = n.path(1);
            return p != null && p.contains("secret") && n.path(1).contains("secret")
                    ? Answer.error(EACCES)
                    : Answer.BROKER;
        };
    }

    /**
     * The same rule decided at admission, on the copy the broker's own read made (the policy never
     * reads the path in {@code decide}): the name it sees is the name that was opened.
     */
    private static Policy denySecretAtAdmission() {
        return new Policy() {
            @Override
            public Answer decide(Notification call) {
                return Answer.BROKER;
            }

            @Override
            public boolean admit(Notification call) {
                return !call.path(1).contains("secret") && Policy.super.admit(call);
            }
        };
    }

    /**
     * The flipping-name race against a name policy: the policy must decide on the name that is
     * opened. Before the read-once broker this served the denied file in about one open in forty.
     */
    @ParameterizedTest
    @ValueSource(strings = {"bytes", "string", "admission"})
    void aNameFlippedWhileThePolicyLooksNeverServesTheDeniedFile(String api) throws Exception {
        Policy policy = switch (api) {
            case "bytes" -> denySecretByBytes();
            case "string" -> denySecretByString();
            default -> denySecretAtAdmission();
        };
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(child.takeListener(), job.options(), policy)) {
            RaceResult r = child.race(RACE_OPENS, "public.txt", "secret.txt", "SECRET");
            assertEquals(0, r.marked(), "opens that returned the denied file: " + r);
            assertRaceRan(r);
            assertEquals(0, sup.stop().failures());
        }
    }

    /** The same race between a name beneath in/ and an escape, with each supervisor's fixed answer. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aNameFlippedToAnEscapeNeverServesTheFileOutside(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER);
                InotifyOpens outside = new InotifyOpens(job.outside())) {
            RaceResult r = child.race(RACE_OPENS, "public.txt", "../outside/secret.txt", "SECRET");
            assertEquals(0, r.marked(), "opens that returned the file outside in/: " + r);
            assertRaceRan(r);
            assertEquals(0, outside.opens(), "opens in outside/");
            assertEquals(0, sup.stop().failures());
        }
    }

    /** Both names were seen (some served, some refused) and nothing failed another way. */
    private static void assertRaceRan(RaceResult r) {
        assertEquals(RACE_OPENS, r.opens());
        assertEquals(r.opens(), r.marked() + r.served() + r.eacces() + r.enoent() + r.other(), r.toString());
        assertEquals(0, r.other(), "unexpected errno " + r.firstOtherErrno() + ": " + r);
        assertTrue(r.served() > 0, "the allowed name was never served: " + r);
        assertTrue(r.eacces() > 0, "the flipped name was never seen: " + r);
    }

    /**
     * A FIFO and a socket in {@code in/} are refused with {@code EACCES} at once: a worker's open of the
     * FIFO (which nobody writes) does not stall the parent's next call.
     */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aFifoOrSocketInInIsRefusedWithoutBlockingOtherCalls(Supervisor.Kind kind) throws Exception {
        mkfifo(job.in().resolve("fifo"));
        Files.createSymbolicLink(job.in().resolve("link-to-fifo"), Path.of("fifo"));
        try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            socket.bind(UnixDomainSocketAddress.of(job.in().resolve("sock")));
            int worker = child.forkOpen("fifo");
            assertEquals(Job.HELLO, child.open("hello.txt").text(), "a call after the FIFO's");
            OpenResult fifo = child.awaitWorkerOpen(worker);
            assertEquals(-1, fifo.fd(), "the FIFO was served");
            assertEquals(EACCES, fifo.errno());
            assertEquals(0, child.reap());
            for (String path : List.of("fifo", "link-to-fifo", "sock")) {
                assertRefused(child.open(path), path);
            }
            assertRefused(child.open("fifo", O_NONBLOCK | O_CLOEXEC), "fifo, O_NONBLOCK asked");
            SupervisorStats s = sup.stop();
            assertEquals(5, s.refused());
            assertEquals(1, s.brokered());
            assertEquals(0, s.failures());
        }
    }

    /** A device node in {@code in/} (here a copy of /dev/null) is never served. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aDeviceInInIsRefused(Supervisor.Kind kind) throws Exception {
        BrokerFixtures.assumeCapability(BrokerFixtures.CAP_MKNOD, "CAP_MKNOD (to create the device node)");
        run("mknod", job.in().resolve("null").toString(), "c", "1", "3");
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertRefused(child.open("null"), "a character device");
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            SupervisorStats s = sup.stop();
            assertEquals(1, s.errored());
            assertEquals(1, s.brokered());
            // Decided before opening: the O_PATH lookup succeeds even on a nodev mount, and it is the
            // broker's type check that refuses the node, never the driver's (or nodev's) open.
            assertEquals(1, s.refused(), "refused by the broker's own check");
        }
    }

    /** No directory by default, asked for with {@code O_DIRECTORY} or not (issue 29: a way out of a jail). */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aDirectoryIsRefusedByDefault(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertRefused(child.open("sub"), "a directory without O_DIRECTORY");
            assertRefused(child.open("sub", O_DIRECTORY | O_CLOEXEC), "sub with O_DIRECTORY");
            assertRefused(child.open(".", O_DIRECTORY | O_CLOEXEC), "in/ itself with O_DIRECTORY");
            assertRefused(child.open("missing", O_DIRECTORY | O_CLOEXEC), "O_DIRECTORY, before any lookup");
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            SupervisorStats s = sup.stop();
            assertEquals(4, s.refused());
            assertEquals(1, s.brokered());
        }
    }

    /** With the opt-in, directories only when the call asks for one with {@code O_DIRECTORY}. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void anAllowedDirectoryIsServedOnlyWhenAskedFor(Supervisor.Kind kind) throws Exception {
        Policy dirs = Policy.always(Answer.BROKER).allowingDirectories();
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), dirs)) {
            assertRefused(child.open("sub"), "a directory without O_DIRECTORY");
            assertTrue(child.open("sub", O_DIRECTORY | O_CLOEXEC).fd() >= 0, "sub with O_DIRECTORY");
            assertTrue(child.open(".", O_DIRECTORY | O_CLOEXEC).fd() >= 0, "in/ itself with O_DIRECTORY");
            SupervisorStats s = sup.stop();
            assertEquals(1, s.refused());
            assertEquals(2, s.brokered());
        }
    }

    /**
     * A hard link in {@code in/} to a file outside it is one of that file's names: refused (so is any
     * file with more than one link) unless the policy allows it.
     */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void aHardLinkIsRefusedByDefault(Supervisor.Kind kind) throws Exception {
        Files.createLink(job.in().resolve("linked-out.txt"), job.secret());
        Files.createLink(job.in().resolve("public-2.txt"), job.in().resolve("public.txt"));
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertRefused(child.open("linked-out.txt"), "a hard link to a file outside in/");
            assertRefused(child.open("public-2.txt"), "a file with two links");
            assertEquals(Job.HELLO, child.open("hello.txt").text());
            SupervisorStats s = sup.stop();
            assertEquals(2, s.refused());
            assertEquals(1, s.brokered());
        }
    }

    /** The policy sees the opened file's type and link count, and may allow hard links. */
    @Test
    void aPolicySeesTheOpenedFileAndMayAllowHardLinks() throws Exception {
        Files.writeString(job.in().resolve("twice.txt"), PUBLIC);
        Files.createLink(job.in().resolve("twice-2.txt"), job.in().resolve("twice.txt"));
        List<String> seen = new CopyOnWriteArrayList<>();
        Policy base = call -> Answer.BROKER;
        Policy recording = new Policy() {
            @Override
            public Answer decide(Notification call) {
                return Answer.BROKER;
            }

            @Override
            public boolean admit(Notification call) {
                seen.add(call.path(1) + " " + call.openedType() + " " + call.openedLinks()
                        + (call.openedType() == Notification.FileType.REGULAR ? " " + call.openedSize() : ""));
                return Policy.super.admit(call);
            }
        };
        try (NotifyChildFixture child = job.child();
                Supervisor sup =
                        Supervisor.start(child.takeListener(), job.options(), recording.allowingDirectories())) {
            assertRefused(child.open("twice-2.txt"), "two links, default admission");
            assertEquals(PUBLIC, child.open("public.txt").text());
            assertTrue(child.open("sub", O_DIRECTORY | O_CLOEXEC).fd() >= 0);
            assertRefused(child.open("fifo-missing"), ENOENT, "no such file: the policy is not asked");
            assertEquals(List.of("twice-2.txt REGULAR 2 7", "public.txt REGULAR 1 7", "sub DIRECTORY 2"), seen);
        }
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(child.takeListener(), job.options(), base.allowingHardLinks())) {
            assertEquals(PUBLIC, child.open("twice-2.txt").text(), "hard links allowed by the policy");
            mkfifo(job.in().resolve("fifo"));
            assertRefused(child.open("fifo"), "a FIFO, even when links are allowed");
            assertEquals(1, sup.stop().brokered());
        }
    }

    /** An admission that throws answers EPERM (the file is closed, not served) and the supervisor goes on. */
    @Test
    void anAdmissionThatThrowsAnswersEperm() throws Exception {
        Policy throwing = new Policy() {
            @Override
            public Answer decide(Notification call) {
                return Answer.BROKER;
            }

            @Override
            public boolean admit(Notification call) {
                if (call.path(1).startsWith("public")) {
                    throw new IllegalStateException("boom");
                }
                return true;
            }
        };
        try (NotifyChildFixture child = job.child()) {
            JavaSupervisor sup = (JavaSupervisor) Supervisor.start(child.takeListener(), job.options(), throwing);
            try (sup) {
                assertRefused(child.open("public.txt"), 1, "a throwing admission");
                assertEquals(Job.HELLO, child.open("hello.txt").text());
                SupervisorStats s = sup.stop();
                assertEquals(1, s.failures());
                assertEquals(1, s.brokered());
                assertEquals(0, s.refused());
                assertTrue(sup.policyFailure() instanceof IllegalStateException);
            }
        }
    }

    /**
     * Names up to the kernel's own limit (PATH_MAX 4096 with the NUL) are brokered; longer ones fail as the kernel
     * would.
     */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void namesUpToPathMaxAreAccepted(Supervisor.Kind kind) throws Exception {
        String longest = "./".repeat(2043) + "hello.txt"; // 4095 bytes and the NUL
        String tooLong = "./".repeat(2043) + "/hello.txt"; // 4096 bytes and the NUL
        assertEquals(4095, longest.length());
        assertEquals(4096, tooLong.length());
        try (NotifyChildFixture child = job.child();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            assertEquals(Job.HELLO, child.open(longest).text(), "a name of 4095 bytes");
            assertRefused(child.open(tooLong), ENAMETOOLONG, "a name of 4096 bytes");
            assertEquals(1, sup.stop().brokered());
        }
        // The kernel's own answers, without a filter, for the same two names.
        try (NotifyChildFixture plain =
                NotifyChildFixture.start(NotifyChildFixture.Options.in(job.in()).withFilter(false))) {
            assertEquals(Job.HELLO, plain.open(longest).text());
            assertEquals(ENAMETOOLONG, plain.open(tooLong).errno());
        }
    }

    private static void assertRefused(OpenResult r, String what) {
        assertRefused(r, EACCES, what);
    }

    private static void assertRefused(OpenResult r, int errno, String what) {
        assertEquals(-1, r.fd(), what + " was served");
        assertEquals(errno, r.errno(), what);
    }

    private static void mkfifo(Path p) throws Exception {
        run("mkfifo", p.toString());
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        assertEquals(0, p.waitFor(), String.join(" ", cmd));
    }
}
