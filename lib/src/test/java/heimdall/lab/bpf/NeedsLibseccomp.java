package heimdall.lab.bpf;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;

/**
 * Skips a test loudly when a file it compares against is not installed: Debian's libseccomp binding
 * ({@code python3-seccomp}) and {@code /usr/bin/python3}, or a profile from a package. Decided by the
 * installed files alone, never by our own code running; with {@code LAB_REQUIRE_KERNEL=1} (CI, where
 * {@code ./lab test} installs them as root) a missing file fails the test instead.
 */
final class NeedsLibseccomp {
    private NeedsLibseccomp() {}

    /** Skips (or fails, when required) unless python3 and python3-seccomp's module are installed. */
    static void assume() {
        Requires.that(
                KernelFacts.executable(Path.of(LibseccompBaseline.PYTHON), "Debian package python3"),
                KernelFacts.pythonModule("seccomp", "Debian package python3-seccomp"));
    }

    /** Skips (or fails, when required) unless {@code file} exists; {@code pkg} names the package. */
    static void assumeFile(Path file, String pkg) {
        Requires.file(file, "Debian package " + pkg);
    }
}
