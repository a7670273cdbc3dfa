package heimdall.lab.kernel;

import java.util.Map;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * The kernel's in-process execution for the jshell tool ({@code ./lab jshell}, which runs
 * {@code jshell --execution heimdall}): snippets run in jshell's own JVM, so Ctrl-C stops a
 * measurement the way a notebook interrupt does (the library's stop flag; see
 * {@link InProcessExecution}) instead of JShell's remote agent throwing into it mid-write.
 */
public final class JShellExecution implements ExecutionControlProvider {
    /** The name {@code --execution} selects. */
    public static final String NAME = "heimdall";

    /** For ServiceLoader. */
    public JShellExecution() {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
        // the tool's documentation (Tab-Tab) runs in this JVM too: the library's Javadoc for it
        LibrarySources.install();
        return new InProcessExecution(0, false);
    }
}
