package heimdall.lab.probe;

import heimdall.lab.Refusal;
import heimdall.lab.sys.NativeLib;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The native executables make puts beside the classes ({@code heimdall/native/linux-x86-64/}), found
 * (or extracted from a jar) by {@link heimdall.lab.sys.NativeLib#file}.
 */
public final class NativeExecutables {
    /** Class-path folder of the native files. */
    public static final String RESOURCE_DIR = "heimdall/native/linux-x86-64/";

    private NativeExecutables() {}

    /** The ptrace tracer. */
    public static Path tracer() {
        return find("heimdall-trace");
    }

    /** The install-a-filter-and-exec wrapper. */
    public static Path execWrapper() {
        return find("heimdall-exec");
    }

    /** The abcdf fixture program. */
    public static Path abcdf() {
        return find("fixtures/abcdf");
    }

    /** The executable at {@code RESOURCE_DIR + name}; a refusal when the native build did not make it. */
    public static Path find(String name) {
        Path p = NativeLib.file(name);
        if (!Files.isExecutable(p)) {
            throw new Refusal(p + " is not executable");
        }
        return p;
    }
}
