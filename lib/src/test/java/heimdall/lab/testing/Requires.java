package heimdall.lab.testing;

import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The one way a test skips: only for a host fact read by {@link KernelFacts}, said loudly on stderr
 * ({@code SKIPPED (needs X): why}), and never when the environment sets {@code LAB_REQUIRE_KERNEL=1}
 * (CI does): then a missing fact fails the test, so a machine that cannot run a test cannot pass CI.
 *
 * <p>Call it first in the test (or in {@code @BeforeAll}); everything after it is the test, and when
 * the project's own code throws there, the test fails.
 */
public final class Requires {
    /** The environment variable that turns every skip into a failure. */
    public static final String ENV = "LAB_REQUIRE_KERNEL";

    private Requires() {}

    /** Whether skips are forbidden here: {@value #ENV} is set to 1. */
    public static boolean strict() {
        return "1".equals(System.getenv(ENV));
    }

    /** Returns if every fact is present; otherwise skips the calling test, or fails it under {@value #ENV}=1. */
    public static void that(Fact... facts) {
        boolean strict = strict();
        for (Fact f : facts) {
            that(strict, f);
        }
    }

    /** {@link #that(Fact...)} with the mode given, not read from the environment. */
    static void that(boolean strict, Fact f) {
        if (f.present()) {
            return;
        }
        if (strict) {
            String msg = "needs " + f.need() + ": " + f.detail() + " (" + ENV + "=1 forbids skipping)";
            System.err.println("FAILED (" + msg + ")");
            Assertions.fail(msg);
        }
        System.err.println("SKIPPED (needs " + f.need() + "): " + f.detail());
        Assumptions.abort("needs " + f.need() + ": " + f.detail());
    }

    /** Every one of {@code actions} is in /proc/sys/kernel/seccomp/actions_avail. */
    public static void seccomp(String... actions) {
        that(KernelFacts.seccompActions(actions));
    }

    /** The kernel has Landlock (answers an ABI). */
    public static void landlock() {
        that(KernelFacts.landlock());
    }

    /** This process may ptrace its children (Yama's ptrace_scope, CAP_SYS_PTRACE). */
    public static void ptrace() {
        that(KernelFacts.ptrace());
    }

    /** {@code file}, installed by {@code provider} (e.g. a Debian package), is present. */
    public static void file(Path file, String provider) {
        that(KernelFacts.file(file, provider));
    }
}
