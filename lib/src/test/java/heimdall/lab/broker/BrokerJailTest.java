package heimdall.lab.broker;

import static heimdall.lab.Errno.EACCES;
import static heimdall.lab.Errno.EINVAL;
import static heimdall.lab.Errno.EROFS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bpf.Compiler;
import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.Escape;
import heimdall.lab.floor.Floors;
import heimdall.lab.testing.Fact;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The jail of issue 29, replayed on both supervisors: a child in a mount namespace of its own (its root
 * an empty tmpfs, the old root detached, {@code pivot_root}), running as {@code nobody} under the
 * default broker floor ({@link Floors#brokerFloor()}, compiled by the project), asks the broker for
 * {@code open(".", O_RDONLY|O_DIRECTORY)} and for a real folder of {@code in/}, {@code fchdir}s to what
 * it gets, climbs with {@code chdir("..")}, and tries the host: {@code stat("etc/shadow")}, a folder and
 * a symlink in a world-writable host folder, a connect to a host Unix socket, an exec of a host binary,
 * and the {@code *at} calls on the descriptor ({@code openat(fd, "..")}, {@code fstatat(fd, "..")},
 * {@code fstatat} up to {@code etc/shadow}, {@code mkdirat}) and, root of a user and mount namespace of its
 * own, a bind mount from the descriptor and a read-write remount of it. By default the open is refused
 * ({@code EACCES}); with {@link Policy#allowingDirectories()} the descriptor is a detached read-only
 * clone that leads nowhere above itself. Either way 0 host paths are reached, and the host folder and
 * socket see nothing. The control (a host directory the child kept open across the jail, what a
 * brokered directory was before) reaches the host, so the attack is real.
 */
@Timeout(120)
class BrokerJailTest {
    private static final int CAP_SYS_ADMIN = 21;
    private static final int NOBODY = 65534;
    private static final Path HOST_BINARY = Path.of("/usr/bin/true");

    @TempDir
    Path tmp;

    Job job;
    Path floor;
    Path hostDir;
    Path hostSocket;
    ServerSocketChannel server;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        Requires.that(KernelFacts.capability(CAP_SYS_ADMIN, "CAP_SYS_ADMIN"));
        // Every host path the child tries is one nobody could reach if it got out: the folders on the
        // way searchable, the host folder and socket world-writable.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        job = Job.create(tmp);
        floor = tmp.resolve("broker-floor.bpf");
        Files.write(floor, Compiler.compile(Floors.brokerFloor()).toBytes());
        hostDir = Files.createDirectory(tmp.resolve("host"));
        Files.setPosixFilePermissions(hostDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        hostSocket = hostDir.resolve("sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(hostSocket));
        server.configureBlocking(false);
        Files.setPosixFilePermissions(hostSocket, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private NotifyChildFixture jailedChild() throws IOException {
        return NotifyChildFixture.start(NotifyChildFixture.Options.in(job.cwd())
                .withProgram(floor)
                .jailed()
                .as(NOBODY, NOBODY));
    }

    private List<String> hostDirEntries() throws IOException {
        try (Stream<Path> s = Files.list(hostDir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private void assertHostUntouched(String what) throws IOException {
        assertEquals(List.of("sock"), hostDirEntries(), what + ": the host folder changed");
        assertNull(server.accept(), what + ": the host socket was connected to");
    }

    /** The attack is real: a host directory descriptor, kept open across the jail, leads out. */
    @Test
    void aHostDirectoryDescriptorLeadsOutOfTheJail() throws Exception {
        try (NotifyChildFixture child = jailedChild();
                Supervisor sup =
                        Supervisor.start(Supervisor.Kind.NATIVE, child.takeListener(), job.options(), Answer.BROKER)) {
            Escape e = child.escape("=inherited", hostDir, hostSocket, HOST_BINARY);
            assertEquals(0, e.step("shadow"), "the control climbed to the host's etc/shadow: " + e);
            assertEquals(0, e.step("mkdir"), "the control made a folder in the host's: " + e);
            assertEquals(0, e.step("symlink"), e.toString());
            assertEquals(0, e.step("connect"), e.toString());
            assertEquals(1, e.step("above"), e.toString());
            assertTrue(e.host() >= 5, e.toString());
            assertTrue(Files.isDirectory(hostDir.resolve("made-by-child"), LinkOption.NOFOLLOW_LINKS));
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void byDefaultNoDirectoryIsHandedOver(Supervisor.Kind kind) throws Exception {
        try (NotifyChildFixture child = jailedChild();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)) {
            for (String dir : List.of(".", "sub")) {
                Escape e = child.escape(dir, hostDir, hostSocket, HOST_BINARY);
                assertEquals(EACCES, e.step("open"), dir + ": the directory was handed over: " + e);
                assertEquals(0, e.host(), dir + ": host paths reached: " + e);
                assertHostUntouched(dir);
            }
            SupervisorStats s = sup.stop();
            assertEquals(2, s.refused());
            assertEquals(0, s.brokered());
            assertEquals(0, s.failures());
        }
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void anAllowedDirectoryLeadsNowhereAboveItself(Supervisor.Kind kind) throws Exception {
        Policy dirs = Policy.always(Answer.BROKER).allowingDirectories();
        List<Escape> attacks = new ArrayList<>();
        try (NotifyChildFixture child = jailedChild();
                Supervisor sup = Supervisor.start(kind, child.takeListener(), job.options(), dirs)) {
            for (String dir : List.of(".", "sub")) {
                Escape e = child.escape(dir, hostDir, hostSocket, HOST_BINARY);
                assertEquals(0, e.step("open"), dir + ": the allowed directory was refused: " + e);
                assertEquals(0, e.step("fchdir"), dir + ": " + e);
                assertEquals(0, e.step("above"), dir + ": fstatat(fd, \"..\") named a folder above it: " + e);
                assertEquals(EACCES, e.step("at_open"), dir + ": openat relative to the descriptor: " + e);
                assertEquals(EROFS, e.step("at_mkdir"), dir + ": the clone must be read-only: " + e);
                assertEquals(0, e.host(), dir + ": host paths reached: " + e);
                assertHostUntouched(dir);
                attacks.add(e);
            }
            assertTrue(Files.notExists(job.in().resolve("made-by-child"), LinkOption.NOFOLLOW_LINKS));
            assertTrue(Files.notExists(job.in().resolve("sub/made-by-child"), LinkOption.NOFOLLOW_LINKS));
            SupervisorStats s = sup.stop();
            assertEquals(2, s.brokered());
            assertEquals(2, s.refused(), "the two openat(fd, \"..\")");
            assertEquals(0, s.failures());
        }
        // Root of a user and mount namespace of its own, a worker can neither bind-mount from the clone
        // nor make it writable: it belongs to no namespace (EINVAL). Needs unprivileged user namespaces.
        int userns = attacks.get(0).step("userns");
        Requires.that(new Fact(
                "unprivileged user namespaces", userns == 0, "unshare(CLONE_NEWUSER) as nobody: errno " + userns));
        for (Escape e : attacks) {
            assertEquals(EINVAL, e.step("ns_bind"), "bind-mount from the clone: " + e);
            assertEquals(EINVAL, e.step("ns_remount"), "read-write remount of the clone: " + e);
        }
    }
}
