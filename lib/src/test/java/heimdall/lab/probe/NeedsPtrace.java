package heimdall.lab.probe;

import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;

/**
 * The host facts the tracing tests need, read from the kernel and PATH, never by running our tracer:
 * when the kernel allows ptrace and heimdall-trace still cannot trace, the test fails.
 */
public final class NeedsPtrace {
    private NeedsPtrace() {}

    /** Skips loudly (fails under LAB_REQUIRE_KERNEL=1) unless Yama and our capabilities allow ptrace. */
    public static void assume() {
        Requires.ptrace();
    }

    /** node for the wasm host; skipped loudly (failed under LAB_REQUIRE_KERNEL=1) when not on PATH. */
    static Path node() {
        Requires.that(KernelFacts.onPath("node", "Debian package nodejs"));
        return FixtureProfiles.node();
    }

    /** The checkout's root (tests run in lib/). */
    static Path home() {
        return heimdall.lab.fixtures.Fixtures.home();
    }
}
