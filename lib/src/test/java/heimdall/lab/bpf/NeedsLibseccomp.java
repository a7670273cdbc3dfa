package heimdall.lab.bpf;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Skips a test loudly when a file it compares against is not installed: Debian's libseccomp binding
 * ({@code python3-seccomp}: {@code /usr/lib/python3/dist-packages/seccomp*.so} and
 * {@code /usr/bin/python3}) or a profile from a package. Decided by the files alone, never by our
 * own code running; with {@code LAB_REQUIRE_KERNEL=1} (CI, where {@code .ci/run} installs them) a
 * missing file fails the test instead.
 */
final class NeedsLibseccomp {
    static final Path DIST_PACKAGES = Path.of("/usr/lib/python3/dist-packages");

    private NeedsLibseccomp() {}

    /** Skips (or fails, when required) unless python3-seccomp's module is installed. */
    static void assume() {
        boolean python = Files.isRegularFile(Path.of(LibseccompBaseline.PYTHON));
        String missing = !python ? LibseccompBaseline.PYTHON
                : !bindingInstalled() ? DIST_PACKAGES + "/seccomp*.so" : null;
        skipUnless(missing == null, missing + " is missing (Debian: python3-seccomp)");
    }

    /** Skips (or fails, when required) unless {@code file} exists; {@code pkg} names the package. */
    static void assumeFile(Path file, String pkg) {
        skipUnless(Files.isRegularFile(file), file + " is missing (Debian: " + pkg + ")");
    }

    private static boolean bindingInstalled() {
        if (!Files.isDirectory(DIST_PACKAGES)) {
            return false;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(DIST_PACKAGES, "seccomp*.so")) {
            return s.iterator().hasNext();
        } catch (IOException e) {
            return false;
        }
    }

    private static void skipUnless(boolean ok, String why) {
        if (ok) {
            return;
        }
        if ("1".equals(System.getenv("LAB_REQUIRE_KERNEL"))) {
            fail("LAB_REQUIRE_KERNEL=1 and " + why);
        }
        System.err.println("SKIPPED: " + why);
        assumeTrue(false, why);
    }
}
