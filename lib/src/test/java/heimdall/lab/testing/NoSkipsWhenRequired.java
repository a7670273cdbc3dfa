package heimdall.lab.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Registered for every Jupiter test (META-INF/services, with extension autodetection switched on in
 * Surefire): under {@code LAB_REQUIRE_KERNEL=1} any skip that did not go through {@link Requires}, a
 * bare {@code assumeTrue} in a test or a lifecycle method, fails the test instead.
 */
public final class NoSkipsWhenRequired
        implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    private final boolean strict;

    /** The mode read from the environment, as JUnit's service loader creates it. */
    public NoSkipsWhenRequired() {
        this(Requires.strict());
    }

    NoSkipsWhenRequired(boolean strict) {
        this.strict = strict;
    }

    /** Turns an abort into a failure when strict; rethrows anything else unchanged. */
    Throwable judged(Throwable t) {
        if (strict && t instanceof TestAbortedException) {
            return new AssertionFailedError(
                    "a test skipped (" + t.getMessage() + ") and " + Requires.ENV + "=1 forbids skipping", t);
        }
        return t;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(t);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(t);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(t);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(t);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable t) throws Throwable {
        throw judged(t);
    }
}
