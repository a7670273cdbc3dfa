package heimdall.lab.broker;

import static heimdall.lab.Errno.E2BIG;
import static heimdall.lab.Errno.EACCES;
import static heimdall.lab.Errno.EINVAL;
import static heimdall.lab.Errno.ELOOP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bpf.Compiler;
import heimdall.lab.broker.BrokerFixtures.Job;
import heimdall.lab.broker.NotifyChildFixture.OpenResult;
import heimdall.lab.floor.Floors;
import heimdall.lab.profile.SyscallTable;
import heimdall.lab.sys.Signals;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real child under the default broker floor ({@link Floors#brokerFloor()}, compiled by the project
 * and installed by the notify-child fixture), with both supervisors: every call that opens by name,
 * with a name the policy denies and with names that leave {@code in/}, every call that opens without
 * a name, the x32 numbers and an i386 call through {@code int 0x80}. None reaches a file outside the
 * policy: the denied and outside contents never come back, inotify sees no open in {@code outside/},
 * and the bypass calls kill their worker with SIGSYS.
 */
@Timeout(120)
class BrokerFloorTest {
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 02000000;
    private static final int O_NOFOLLOW = 0400000;
    private static final int RESOLVE_IN_ROOT = 0x10;
    private static final int RESOLVE_NO_SYMLINKS = 0x04;
    private static final String SECRET_INSIDE = "SECRET inside in/, denied by name\n";
    private static final List<String> BY_NAME = List.of("open", "openat", "openat2", "creat");

    @TempDir
    Path tmp;

    Job job;
    Path floor;

    @BeforeEach
    void setUp() throws Exception {
        BrokerFixtures.assumeSupported();
        job = Job.create(tmp);
        Files.writeString(job.in().resolve("secret.txt"), SECRET_INSIDE);
        floor = tmp.resolve("broker-floor.bpf");
        Files.write(floor, Compiler.compile(Floors.brokerFloor()).toBytes());
    }

    /** The README's policy, written as {@link Policy}'s example: every kind, names containing "secret" denied. */
    static Policy readmePolicy() {
        byte[] secret = "secret".getBytes(StandardCharsets.UTF_8);
        return n -> switch (n.call()) {
            case OPEN, OPENAT, OPENAT2, CREAT ->
                n.readPath() > 0 && n.pathContains(secret) ? Answer.error(EACCES) : Answer.BROKER;
            case OTHER -> Answer.error(1);
        };
    }

    private NotifyChildFixture child() throws Exception {
        return NotifyChildFixture.start(NotifyChildFixture.Options.in(job.cwd()).withProgram(floor));
    }

    private static final int SIGSEGV = 11;

    /**
     * Whether this kernel refuses {@code int 0x80} from a 64-bit process before any filter sees it (a kernel
     * fact: ia32 emulation off, as on this project's PVM guests, where the call faults with SIGSEGV): the same
     * i386 open made with no filter at all dies the same way. Said on stderr, since the floor's own answer to
     * an i386 call is then not exercised here (the kernel bitmap and emulator tests still check the program).
     */
    private boolean i386RefusedByTheKernel() throws Exception {
        try (NotifyChildFixture bare = NotifyChildFixture.start(
                NotifyChildFixture.Options.in(job.cwd()).withFilter(false))) {
            bare.forkCall("i386-open", "hello.txt", 0, 0, 24, -1);
            boolean refused = bare.reap() == SIGSEGV;
            if (refused) {
                System.err.println("NOTE (kernel fact): this kernel refuses int 0x80 from a 64-bit process (SIGSEGV"
                        + " with no filter), so no i386 call reaches a file; the floor's i386 rule is checked by"
                        + " KernelBrokerFloorTest's program run, not by a real call here");
            }
            return refused;
        }
    }

    private Supervisor start(Supervisor.Kind kind, NotifyChildFixture child, Policy policy) {
        return kind == Supervisor.Kind.NATIVE
                ? Supervisor.start(kind, child.takeListener(), job.options(), Answer.BROKER)
                : Supervisor.start(child.takeListener(), job.options(), policy);
    }

    private static OpenResult call(NotifyChildFixture c, String kind, String path) throws Exception {
        return c.call(kind, path, O_CLOEXEC, 0, 24, -1);
    }

    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void noCallReachesAFileOutsideThePolicy(Supervisor.Kind kind) throws Exception {
        List<String> escapes = List.of(
                "../outside/secret.txt",
                "link-out",
                "link-abs",
                job.secret().toString(),
                "sub/../../outside/secret.txt",
                "/proc/self/root" + job.secret());
        String before = Files.readString(job.in().resolve("hello.txt"));
        try (InotifyOpens outside = new InotifyOpens(job.outside());
                NotifyChildFixture c = child();
                Supervisor sup = start(kind, c, readmePolicy())) {
            for (String k : BY_NAME) {
                OpenResult hello = call(c, k, "hello.txt");
                if (k.equals("creat")) {
                    assertRefused(hello, EACCES, "creat: a write, refused by the broker");
                } else {
                    assertEquals(Job.HELLO, hello.text(), k + " of a name beneath in/ is served by the broker");
                }
                for (String escape : escapes) {
                    assertRefused(call(c, k, escape), EACCES, k + " " + escape);
                }
                OpenResult secret = call(c, k, "secret.txt");
                if (kind == Supervisor.Kind.JAVA) {
                    assertRefused(secret, EACCES, k + " of a name the policy denies");
                } else {
                    // the native supervisor has no name policy: the broker's own rules only
                    assertEquals(k.equals("creat") ? -1 : 0, secret.fd() < 0 ? -1 : 0, k + " secret.txt, native");
                }
            }
            // The four kinds were each notified: none ran unchecked in the child's cwd.
            assertFalse(Files.exists(job.cwd().resolve("secret.txt")), "creat ran in the child's cwd");
            assertEquals(before, Files.readString(job.in().resolve("hello.txt")), "creat truncated in/hello.txt");
            // Other architectures and the x32 numbers of open and openat: the worker is killed.
            for (String k : List.of("x32-open", "x32-openat", "i386-open")) {
                for (String path : List.of("hello.txt", job.secret().toString())) {
                    int w = c.forkCall(k, path, 0, 0, 24, -1);
                    int sig = c.reap();
                    if (k.equals("i386-open") && sig == SIGSEGV && i386RefusedByTheKernel()) {
                        continue; // no i386 call enters this kernel at all: none can reach a file
                    }
                    assertEquals(Signals.SIGSYS, sig, k + " " + path + " (worker " + w + ") was not killed");
                }
            }
            // The calls that open without a name the supervisor could check, and a number past the table.
            SyscallTable table = SyscallTable.x86_64();
            List<Integer> bypass = new ArrayList<>();
            for (String name : Floors.OPEN_WITHOUT_NAME) {
                bypass.add(table.number(name).orElseThrow());
            }
            bypass.add(467); // open_tree_attr, which the table's headers do not know
            for (int nr : bypass) {
                c.forkSys(nr, -100, 0, 0, 0, 0, 0);
                assertEquals(Signals.SIGSYS, c.reap(), "syscall " + nr + " was not killed");
            }
            c.forkSys(table.number("getppid").orElseThrow());
            assertEquals(0, c.reap(), "an allowed call kills nobody: the worker check works");
            assertEquals(0, outside.opens(), "opens in outside/ while the child tried every way there");
            SupervisorStats s = sup.stop();
            assertEquals(0, s.failures());
            assertEquals(0, s.continued());
            assertTrue(s.brokered() >= 3, s.toString());
        }
    }

    /** openat2's open_how, read once and judged as the kernel would judge it; the policy sees its kind and flags. */
    @ParameterizedTest
    @EnumSource(Supervisor.Kind.class)
    void openat2IsJudgedOnTheSupervisorsCopyOfItsOpenHow(Supervisor.Kind kind) throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Policy recording = n -> {
            seen.add(n.call() + " " + n.path() + " " + Long.toOctalString(n.openFlags()) + " " + n.openResolve() + " "
                    + n.callError());
            return readmePolicy().decide(n);
        };
        try (NotifyChildFixture c = child();
                Supervisor sup = start(kind, c, recording)) {
            assertEquals(
                    Job.HELLO,
                    c.call("openat2", "hello.txt", O_CLOEXEC, 0, 32, 0).text(),
                    "zeros past open_how");
            assertRefused(c.call("openat2", "hello.txt", O_CLOEXEC, 0, 32, 1), E2BIG, "a field we do not know, set");
            assertRefused(c.call("openat2", "hello.txt", O_CLOEXEC, 0, 16, -1), EINVAL, "smaller than open_how");
            assertRefused(c.call("openat2", "hello.txt", O_CLOEXEC, 0, 8192, -1), E2BIG, "over a page");
            assertRefused(c.call("openat2", "hello.txt", O_CLOEXEC, 0x40, 24, -1), EINVAL, "an unknown resolve bit");
            assertRefused(c.call("openat2", "hello.txt", O_CLOEXEC, RESOLVE_IN_ROOT, 24, -1), EACCES, "IN_ROOT");
            assertRefused(c.call("openat2", "hello.txt", O_RDWR, 0, 24, -1), EACCES, "write access");
            assertRefused(
                    c.call("openat2", "link-in", O_CLOEXEC, RESOLVE_NO_SYMLINKS, 24, -1),
                    ELOOP,
                    "the child's own RESOLVE_NO_SYMLINKS is kept");
            assertEquals(
                    "data in sub\n",
                    c.call("openat2", "link-in", O_CLOEXEC, 0, 24, -1).text());
            assertRefused(c.call("openat", "link-in", O_NOFOLLOW | O_CLOEXEC, 0, 24, -1), ELOOP, "O_NOFOLLOW, a link");
            assertEquals(0, sup.stop().failures());
        }
        // The kernel's own answers to the same calls, without a filter, beneath in/ as the child's cwd.
        NotifyChildFixture.Options unfiltered =
                NotifyChildFixture.Options.in(job.in()).withFilter(false);
        try (NotifyChildFixture plain = NotifyChildFixture.start(unfiltered)) {
            assertEquals(
                    Job.HELLO,
                    plain.call("openat2", "hello.txt", O_CLOEXEC, 0, 32, 0).text());
            assertEquals(
                    E2BIG,
                    plain.call("openat2", "hello.txt", O_CLOEXEC, 0, 32, 1).errno());
            assertEquals(
                    EINVAL,
                    plain.call("openat2", "hello.txt", O_CLOEXEC, 0, 16, -1).errno());
            assertEquals(
                    E2BIG,
                    plain.call("openat2", "hello.txt", O_CLOEXEC, 0, 8192, -1).errno());
            assertEquals(
                    EINVAL,
                    plain.call("openat2", "hello.txt", O_CLOEXEC, 0x40, 24, -1).errno());
            assertEquals(
                    ELOOP,
                    plain.call("openat2", "link-in", O_CLOEXEC, RESOLVE_NO_SYMLINKS, 24, -1)
                            .errno());
            assertEquals(
                    ELOOP,
                    plain.call("openat", "link-in", O_NOFOLLOW | O_CLOEXEC, 0, 24, -1)
                            .errno());
        }
        if (kind == Supervisor.Kind.JAVA) {
            assertEquals("OPENAT2 hello.txt 2000000 0 0", seen.get(0));
            assertEquals("OPENAT2 hello.txt 0 0 7", seen.get(1), "E2BIG read before any name is looked at");
            assertEquals("OPENAT2 hello.txt 2000000 16 0", seen.get(5));
        }
    }

    /** The same policy decides every kind: its Javadoc example, run. */
    @Test
    void thePolicyExampleCoversEveryKind() throws Exception {
        List<String> kinds = new CopyOnWriteArrayList<>();
        Policy p = readmePolicy();
        Policy recording = n -> {
            kinds.add(n.call() + ":" + n.path());
            return p.decide(n);
        };
        try (NotifyChildFixture c = child();
                Supervisor sup = start(Supervisor.Kind.JAVA, c, recording)) {
            for (String k : BY_NAME) {
                OpenResult r = call(c, k, "secret.txt");
                assertRefused(r, EACCES, k);
                assertNotEquals(SECRET_INSIDE, r.text());
            }
            assertEquals(0, sup.stop().brokered());
        }
        assertEquals(List.of("OPEN:secret.txt", "OPENAT:secret.txt", "OPENAT2:secret.txt", "CREAT:secret.txt"), kinds);
    }

    private static void assertRefused(OpenResult r, int errno, String what) {
        assertEquals(-1, r.fd(), what + " was served: " + r.text());
        assertEquals(errno, r.errno(), what);
        assertFalse(r.text().contains("SECRET"), what + " returned a secret");
    }
}
