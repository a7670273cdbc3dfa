package heimdall.lab.broker;

import heimdall.lab.Refusal;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import java.nio.file.attribute.PosixFilePermission;

/**
 * Finds the files the native build put on the class path ({@code heimdall/native/linux-x86-64/}),
 * copying them out of a jar when needed. {@code -Dheimdall.native.dir=DIR} overrides the lookup.
 */
final class NativeFiles {
    static final String RESOURCE_DIR = "heimdall/native/linux-x86-64/";

    private NativeFiles() {}

    /** The file's path on disk; a refusal naming the file when the build did not produce it. */
    static synchronized Path locate(String name) {
        String dir = System.getProperty("heimdall.native.dir");
        if (dir != null) {
            Path p = Path.of(dir, name);
            if (!Files.exists(p)) {
                throw new Refusal(p + " does not exist (-Dheimdall.native.dir)");
            }
            return p;
        }
        URL url = NativeFiles.class.getClassLoader().getResource(RESOURCE_DIR + name);
        if (url == null) {
            throw new Refusal("native file " + RESOURCE_DIR + name + " is not on the class path (build with mvn -pl lib package)");
        }
        try {
            if (url.getProtocol().equals("file")) {
                return Path.of(url.toURI());
            }
            Path tmp = Files.createTempDirectory("heimdall-native");
            Path out = tmp.resolve(name);
            try (InputStream in = url.openStream()) {
                Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(out, Set.of(PosixFilePermission.OWNER_READ,
                    PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
            out.toFile().deleteOnExit();
            tmp.toFile().deleteOnExit();
            return out;
        } catch (IOException | URISyntaxException e) {
            throw new Refusal("cannot extract native file " + name + ": " + e, e);
        }
    }
}
