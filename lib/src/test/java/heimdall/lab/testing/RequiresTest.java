package heimdall.lab.testing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The skip mechanism itself: an absent fact skips loudly, or fails under LAB_REQUIRE_KERNEL=1. */
class RequiresTest {
    @TempDir
    Path tmp;

    private Fact missingFile() {
        return KernelFacts.file(tmp.resolve("not-installed.json"), "no package");
    }

    /** Runs {@code r}, returning what it printed on stderr and what it threw. */
    private static Object[] stderrOf(Runnable r) {
        PrintStream old = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        Throwable thrown = null;
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } catch (Throwable t) {
            thrown = t;
        } finally {
            System.setErr(old);
        }
        return new Object[] {buf.toString(StandardCharsets.UTF_8), thrown};
    }

    @Test
    void anAbsentFactSkipsLoudlyWithoutTheVariable() {
        Fact f = missingFile();
        assertFalse(f.present());
        Object[] r = stderrOf(() -> Requires.that(false, f));
        TestAbortedException e = assertInstanceOf(TestAbortedException.class, r[1]);
        assertTrue(e.getMessage().contains("not-installed.json is missing"), e.getMessage());
        assertTrue(((String) r[0]).startsWith("SKIPPED (needs " + f.need() + "): "), (String) r[0]);
    }

    @Test
    void anAbsentFactFailsUnderLabRequireKernel() {
        Fact f = missingFile();
        Object[] r = stderrOf(() -> Requires.that(true, f));
        AssertionFailedError e = assertInstanceOf(AssertionFailedError.class, r[1]);
        assertTrue(e.getMessage().contains("LAB_REQUIRE_KERNEL=1 forbids skipping"), e.getMessage());
        assertTrue(e.getMessage().contains("not-installed.json is missing"), e.getMessage());
        assertTrue(((String) r[0]).startsWith("FAILED (needs "), (String) r[0]);
    }

    @Test
    void aPresentFactNeitherSkipsNorFails() {
        Fact f = KernelFacts.file(Path.of("/proc/self/status"), "the kernel");
        assertTrue(f.present(), f.toString());
        assertDoesNotThrow(() -> Requires.that(false, f));
        assertDoesNotThrow(() -> Requires.that(true, f));
    }

    @Test
    void readersSayWhatTheyReadWhenAFactIsAbsent() {
        Fact action = KernelFacts.seccompActions("allow", "no_such_action");
        assertFalse(action.present());
        assertTrue(
                action.detail().contains("no_such_action") && action.detail().contains("actions_avail"),
                action.detail());
        assertFalse(KernelFacts.kernelAtLeast(999, 0).present());
        assertTrue(
                KernelFacts.kernelAtLeast(2, 6).present(),
                KernelFacts.kernelAtLeast(2, 6).toString());
        assertFalse(KernelFacts.onPath("heimdall-no-such-command", "nothing").present());
        assertFalse(
                KernelFacts.pythonModule("heimdall_no_such_module", "nothing").present());
        assertFalse(KernelFacts.executable(tmp.resolve("nope"), "nothing").present());
    }

    @Test
    void aBareAssumptionFailsOnlyWhenStrict() {
        TestAbortedException skip = new TestAbortedException("Assumption failed: something");
        Throwable strict = new NoSkipsWhenRequired(true).judged(skip);
        assertInstanceOf(AssertionFailedError.class, strict);
        assertSame(skip, strict.getCause());
        assertTrue(strict.getMessage().contains("LAB_REQUIRE_KERNEL=1"), strict.getMessage());
        assertSame(skip, new NoSkipsWhenRequired(false).judged(skip));
        IllegalStateException bug = new IllegalStateException("our bug");
        assertSame(bug, new NoSkipsWhenRequired(true).judged(bug));
    }

    @Test
    void theExtensionRethrowsWhatItJudged() {
        TestAbortedException skip = new TestAbortedException("x");
        assertThrows(
                AssertionFailedError.class,
                () -> new NoSkipsWhenRequired(true).handleBeforeAllMethodExecutionException(null, skip));
        assertSame(
                skip,
                assertThrows(
                        TestAbortedException.class,
                        () -> new NoSkipsWhenRequired(false).handleTestExecutionException(null, skip)));
    }
}
