package heimdall.lab.broker;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Shared set-up for the broker tests: the kernel check and a job directory. */
final class BrokerFixtures {
    /** The kernel that brought {@code SECCOMP_ADDFD_FLAG_SEND}, the broker answer's injection. */
    static final int[] BROKER_KERNEL = {5, 14};
    /** The kernel that brought {@code SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP}. */
    static final int[] SYNC_WAKE_UP_KERNEL = {6, 6};

    private static String missing;
    private static boolean checked;

    private BrokerFixtures() {}

    /**
     * Skips (loudly) when this kernel cannot run the broker tests, judged on kernel facts only: the
     * {@code user_notif} action in {@code /proc/sys/kernel/seccomp/actions_avail}, the kernel version
     * (5.14 for the broker's {@code ADDFD_FLAG_SEND}) and Yama's {@code ptrace_scope} (the tests take
     * the child's listener with {@code pidfd_getfd}, which needs ptrace access). Whatever our own code
     * does afterwards (the library, the fixture child) is tested, never probed: its failures fail.
     * With {@code LAB_REQUIRE_KERNEL=1} a missing feature fails instead of skipping.
     */
    static synchronized void assumeSupported() {
        if (!checked) {
            checked = true;
            missing = kernelMissing();
        }
        requireKernel(missing);
    }

    /** Skips (or with {@code LAB_REQUIRE_KERNEL=1} fails) when this kernel is older than {@code version}. */
    static void assumeKernelAtLeast(int[] version, String feature) {
        int[] have = kernelVersion();
        requireKernel(compare(have, version) >= 0 ? null
                : feature + " needs Linux " + version[0] + "." + version[1] + ", this kernel is " + have[0] + "." + have[1]);
    }

    /** Skips (or fails, as above) unless this process holds capability {@code bit} (e.g. CAP_MKNOD). */
    static void assumeCapability(int bit, String name) {
        requireKernel(hasCapability(bit) ? null : "this process lacks " + name + " (CapEff in /proc/self/status)");
    }

    private static void requireKernel(String why) {
        if (why == null) {
            return;
        }
        if ("1".equals(System.getenv("LAB_REQUIRE_KERNEL"))) {
            fail("LAB_REQUIRE_KERNEL=1 and the kernel lacks what a broker test needs: " + why);
        }
        System.err.println("SKIPPED broker test: " + why);
        assumeTrue(false, why);
    }

    private static String kernelMissing() {
        Path avail = Path.of("/proc/sys/kernel/seccomp/actions_avail");
        String actions;
        try {
            actions = Files.readString(avail).trim();
        } catch (IOException e) {
            return "no seccomp filters in this kernel (" + avail + ": " + e.getMessage() + ")";
        }
        if (!List.of(actions.split("\\s+")).contains("user_notif")) {
            return "seccomp action user_notif is not in " + avail + " (" + actions + ")";
        }
        int[] have = kernelVersion();
        if (compare(have, BROKER_KERNEL) < 0) {
            return "the broker needs Linux 5.14 (SECCOMP_ADDFD_FLAG_SEND), this kernel is " + have[0] + "." + have[1];
        }
        Path yama = Path.of("/proc/sys/kernel/yama/ptrace_scope");
        if (Files.exists(yama)) {
            try {
                int scope = Integer.parseInt(Files.readString(yama).trim());
                if (scope >= 3 || (scope == 2 && !hasCapability(CAP_SYS_PTRACE))) {
                    return yama + " is " + scope + ": pidfd_getfd of the child's listener is not allowed";
                }
            } catch (IOException | NumberFormatException e) {
                return "cannot read " + yama + ": " + e.getMessage();
            }
        }
        return null;
    }

    static final int CAP_SYS_PTRACE = 19;
    static final int CAP_MKNOD = 27;

    private static boolean hasCapability(int bit) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) >>> bit & 1) != 0;
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return false;
    }

    /** Major and minor of the running kernel, from {@code /proc/sys/kernel/osrelease}. */
    static int[] kernelVersion() {
        String release;
        try {
            release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
        if (!m.find()) {
            throw new IllegalStateException("unparsable kernel release '" + release + "'");
        }
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    }

    private static int compare(int[] a, int[] b) {
        return a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]);
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
            Process mk = new ProcessBuilder("mkfifo", outside.resolve("fifo").toString()).inheritIO().start();
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
