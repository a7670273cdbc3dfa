package heimdall.lab.broker;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Shared set-up for the broker tests: the support check and a job directory. */
final class BrokerFixtures {
    private static String unsupported;
    private static boolean checked;

    private BrokerFixtures() {}

    /** Skips (loudly) when notified children cannot be supervised here. */
    static synchronized void assumeSupported() {
        if (!checked) {
            checked = true;
            unsupported = Supervisor.unsupportedReason();
            if (unsupported == null) {
                try (NotifyChildFixture f = NotifyChildFixture.start(NotifyChildFixture.Options.in(null))) {
                    BrokerNative.hl_close(f.takeListener());
                } catch (IOException | RuntimeException e) {
                    unsupported = "cannot run a notified child and take its listener: " + e.getMessage();
                }
            }
        }
        if (unsupported != null) {
            System.err.println("SKIPPED broker test: " + unsupported);
        }
        assumeTrue(unsupported == null, unsupported);
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
