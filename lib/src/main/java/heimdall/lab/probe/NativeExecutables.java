package heimdall.lab.probe;

import heimdall.lab.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the native executables make puts beside the classes ({@code heimdall/native/linux-x86-64/}):
 * used in place from {@code target/classes}, or copied once to a private temporary directory when
 * the library runs from a jar (an executable cannot be run from inside a jar).
 */
public final class NativeExecutables {
    /** Class-path folder of the native files. */
    public static final String RESOURCE_DIR = "heimdall/native/linux-x86-64/";

    private static final Map<String, Path> FOUND = new ConcurrentHashMap<>();
    private static Path extracted;

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
        return FOUND.computeIfAbsent(name, NativeExecutables::locate);
    }

    private static Path locate(String name) {
        URL url = NativeExecutables.class.getClassLoader().getResource(RESOURCE_DIR + name);
        if (url == null) {
            throw new Refusal("native executable " + RESOURCE_DIR + name + " is not on the class path "
                    + "(build with `mvn -pl lib -am package`, which runs make in native/)");
        }
        try {
            if (url.getProtocol().equals("file")) {
                Path p = Path.of(url.toURI());
                if (!Files.isExecutable(p)) {
                    throw new Refusal(p + " is not executable");
                }
                return p;
            }
            return extract(name, url);
        } catch (URISyntaxException | IOException e) {
            throw new Refusal("cannot use native executable " + name + ": " + e.getMessage(), e);
        }
    }

    private static synchronized Path extract(String name, URL url) throws IOException {
        if (extracted == null) {
            extracted = Files.createTempDirectory("heimdall-native-");
            extracted.toFile().deleteOnExit();
        }
        Path target = extracted.resolve(name);
        Files.createDirectories(target.getParent());
        try (InputStream in = url.openStream()) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!target.toFile().setExecutable(true, true)) {
            throw new IOException("cannot make " + target + " executable");
        }
        target.toFile().deleteOnExit();
        return target;
    }
}
