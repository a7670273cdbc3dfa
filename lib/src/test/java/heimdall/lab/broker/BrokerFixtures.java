package heimdall.lab.broker;

import heimdall.lab.testing.Fact;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Shared set-up for the broker tests: the kernel check and a job directory. */
final class BrokerFixtures {
    /** The kernel that brought {@code SECCOMP_ADDFD_FLAG_SEND}, the broker answer's injection. */
    static final int[] BROKER_KERNEL = {5, 14};
    /** The kernel that brought {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP}. */
    static final int[] SYNC_WAKE_UP_KERNEL = {6, 6};

    static final int CAP_MKNOD = 27;

    private BrokerFixtures() {}

    /**
     * Skips (loudly) when this kernel cannot run the broker tests, judged on kernel facts only: the
     * {@code user_notif} action in {@code /proc/sys/kernel/seccomp/actions_avail}, the kernel version
     * (5.14 for the broker's {@code ADDFD_FLAG_SEND}) and Yama's {@code ptrace_scope} (the tests take
     * the child's listener with {@code pidfd_getfd}, which needs ptrace access). Whatever our own code
     * does afterwards (the library, the fixture child) is tested, never probed: its failures fail.
     * With {@code LAB_REQUIRE_KERNEL=1} a missing feature fails instead of skipping.
     */
    static void assumeSupported() {
        Requires.that(
                KernelFacts.seccompActions("user_notif"),
                KernelFacts.kernelAtLeast(BROKER_KERNEL[0], BROKER_KERNEL[1]),
                KernelFacts.ptrace());
    }

    /** Skips (or with {@code LAB_REQUIRE_KERNEL=1} fails) when this kernel is older than {@code version}. */
    static void assumeKernelAtLeast(int[] version, String feature) {
        Fact kernel = KernelFacts.kernelAtLeast(version[0], version[1]);
        Requires.that(new Fact(feature + " (" + kernel.need() + ")", kernel.present(), kernel.detail()));
    }

    /** Skips (or fails, as above) unless this process holds capability {@code bit} (e.g. CAP_MKNOD). */
    static void assumeCapability(int bit, String name) {
        Requires.that(KernelFacts.capability(bit, name));
    }

    /**
     * A job: {@code in/} with files and symlinks, {@code outside/} next to it with a secret and a FIFO
     * (opening the FIFO would block: an escape that opened it would hang, and the fixture's reply
     * timeout would fail the test), and {@code cwd/}, the child's working directory, holding a
     * different {@code hello.txt} so a test can tell the broker's file from the real openat's.
     */
    record Job(Path root, Path in, Path outside, Path cwd, Path secret) {
        static final String HELLO = "hello from in/\n";
        static final String CWD_HELLO = "WRONG: the child's cwd\n";
        static final String SECRET = "SECRET outside in/\n";

        static Job create(Path root) throws IOException {
            Path in = Files.createDirectories(root.resolve("in"));
            Path outside = Files.createDirectories(root.resolve("outside"));
            Path cwd = Files.createDirectories(root.resolve("cwd"));
            Files.writeString(in.resolve("hello.txt"), HELLO);
            Files.createDirectories(in.resolve("sub"));
            Files.writeString(in.resolve("sub/data.txt"), "data in sub\n");
            Files.createSymbolicLink(in.resolve("link-in"), Path.of("sub/data.txt"));
            Path secret = outside.resolve("secret.txt");
            Files.writeString(secret, SECRET);
            Files.createSymbolicLink(in.resolve("link-out"), Path.of("../outside/secret.txt"));
            Files.createSymbolicLink(in.resolve("link-abs"), secret.toAbsolutePath());
            Process mk = new ProcessBuilder("mkfifo", outside.resolve("fifo").toString())
                    .inheritIO()
                    .start();
            try {
                if (mk.waitFor() != 0) {
                    throw new IOException("mkfifo failed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            Files.createSymbolicLink(in.resolve("link-fifo"), Path.of("../outside/fifo"));
            Files.writeString(cwd.resolve("hello.txt"), CWD_HELLO, StandardCharsets.UTF_8);
            return new Job(root, in, outside, cwd, secret);
        }

        NotifyChildFixture child() throws IOException {
            return NotifyChildFixture.start(NotifyChildFixture.Options.in(cwd));
        }

        SupervisorOptions options() {
            return SupervisorOptions.defaults().brokeringBeneath(in);
        }
    }

    /** Where the kernel says whether userfaultfd exists (CONFIG_USERFAULTFD) and who may use it. */
    static final Path UNPRIVILEGED_USERFAULTFD = Path.of("/proc/sys/vm/unprivileged_userfaultfd");

    static final int CAP_SYS_PTRACE = 19;

    /**
     * Skips (or with {@code LAB_REQUIRE_KERNEL=1} fails) unless this process may create a userfaultfd
     * that handles kernel-mode faults: the kernel has it ({@code /proc/sys/vm/unprivileged_userfaultfd}
     * exists) and either that says 1 or this process holds CAP_SYS_PTRACE (root, here).
     */
    static void assumeUserfaultfd() {
        String value;
        try {
            value = Files.readString(UNPRIVILEGED_USERFAULTFD).strip();
        } catch (IOException e) {
            Requires.that(Fact.absent("userfaultfd", UNPRIVILEGED_USERFAULTFD + ": " + e.getMessage()));
            return;
        }
        Fact cap = KernelFacts.capability(CAP_SYS_PTRACE, "CAP_SYS_PTRACE");
        boolean ok = value.equals("1") || cap.present();
        Requires.that(new Fact(
                "userfaultfd for kernel-mode faults",
                ok,
                UNPRIVILEGED_USERFAULTFD + " = " + value + "; " + cap.detail()));
    }

    /**
     * Runs both supervisors through one brokered call and a policy's path read, so that what the JVM
     * and JNA open once, on first use (a libffi trampoline file, /dev/urandom), is open before a test
     * counts descriptors.
     */
    static void warmUp(Job job) throws IOException {
        try (NotifyChildFixture child = job.child()) {
            int listener = child.takeListener();
            try (Supervisor sup = Supervisor.start(
                    Supervisor.Kind.NATIVE, Supervisor.duplicate(listener), job.options(), Answer.BROKER)) {
                child.open("hello.txt");
            }
            try (Supervisor sup = Supervisor.start(listener, job.options(), n -> {
                n.readPath(1); // a policy that reads the path: the watched read
                return Answer.BROKER;
            })) {
                child.open("hello.txt");
            }
        }
        // A Java thread is dead to join() a moment before its native thread has left /proc/self/task.
        try {
            eventually(() -> SupervisorFreezeTest.supervisorThreads().isEmpty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** This process's descriptors and what each names, for a message. */
    static java.util.List<String> fdTargets() throws IOException {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    out.add(fd.getFileName() + "->" + Files.readSymbolicLink(fd));
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        return out;
    }

    /** Open descriptors of this process. */
    static long openFds() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    /** Polls {@code cond} for up to 10 s; false if it never held. */
    static boolean eventually(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (cond.getAsBoolean()) {
                return true;
            }
            Thread.sleep(5);
        }
        return cond.getAsBoolean();
    }
}
