package heimdall.lab.probe;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import heimdall.lab.Refusal;
import java.nio.file.Path;
import java.util.List;

/** Skips a test loudly when this machine cannot trace (no ptrace permission) or lacks a tool. */
public final class NeedsPtrace {
    private static Boolean ok;
    private static String why = "";

    private NeedsPtrace() {}

    /** Skips the calling test, saying why on stderr, unless tracing /bin/true works here. */
    public static synchronized void assume() {
        if (ok == null) {
            try {
                Tracer.Run r = Tracer.standard().run(List.of("/bin/true"));
                ok = r.status() == 0 && !r.syscalls().isEmpty();
                why = "tracing /bin/true gave status " + r.status() + " and " + r.syscalls().size() + " syscalls";
            } catch (Refusal e) {
                ok = false;
                why = e.getMessage();
            } catch (Exception e) {
                ok = false;
                why = e.toString();
            }
        }
        if (!ok) {
            System.err.println("SKIPPED (needs ptrace): " + why);
        }
        assumeTrue(ok, "needs ptrace: " + why);
    }

    /** node for the wasm host; skipped loudly when missing. */
    static Path node() {
        try {
            return FixtureProfiles.node();
        } catch (Refusal e) {
            System.err.println("SKIPPED (needs node): " + e.getMessage());
            assumeTrue(false, e.getMessage());
            return null;
        }
    }

    /** The checkout's root (tests run in lib/). */
    static Path home() {
        return heimdall.lab.reproduce.Fixtures.home();
    }
}
