package heimdall.lab.kernel;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The library's Javadoc in JShell's documentation (the kernel's Shift-Tab, jshell's Tab-Tab). JShell
 * reads Javadoc from the JDK's {@code lib/src.zip} only; its one other source of sources is a static
 * list its own tests set ({@code SourceCodeAnalysisImpl.availableSourcesOverride}). This sets that list
 * to the JDK's sources, as JShell finds them, plus the library's: the sources jar the kernel bundles
 * ({@code heimdall-lab-*-sources.jar} beside its jars) or the folders {@value #PROPERTY} names
 * ({@code ./lab jshell}: lib/src/main/java). It needs {@code --add-opens jdk.jshell/jdk.jshell=ALL-UNNAMED}
 * (the kernelspec and {@code ./lab jshell} pass it); without it, or on a JDK whose JShell has no such
 * list, documentation shows signatures only and one line on stderr says so.
 *
 * <p>Sources never go on JShell's class path: javac would compile a library source newer than its
 * class instead of using the class.
 */
final class LibrarySources {
    /** A path list of source folders or jars, for a JVM whose class path holds no sources jar. */
    static final String PROPERTY = "heimdall.lab.sources";

    static final String JSHELL_OPENS = "--add-opens=jdk.jshell/jdk.jshell=ALL-UNNAMED";

    private static boolean installed;

    private LibrarySources() {}

    /** Whether a class path entry is a sources jar (for documentation, not for compiling against). */
    static boolean isSourcesJar(String entry) {
        return entry.endsWith("-sources.jar");
    }

    /** The library's sources: {@value #PROPERTY}'s entries, else the sources jars on this JVM's class path. */
    static List<Path> find() {
        List<Path> out = new ArrayList<>();
        String configured = System.getProperty(PROPERTY);
        String list =
                configured != null && !configured.isBlank() ? configured : System.getProperty("java.class.path", "");
        for (String e : list.split(File.pathSeparator)) {
            if (!e.isBlank() && (configured != null || isSourcesJar(e)) && Files.exists(Path.of(e))) {
                out.add(Path.of(e));
            }
        }
        return out;
    }

    /** Makes every later JShell of this JVM read {@link #find()}'s sources; whether it could. */
    static synchronized boolean install() {
        if (installed) {
            return true;
        }
        List<Path> library = find();
        if (library.isEmpty()) {
            return false;
        }
        try {
            Field override =
                    Class.forName("jdk.jshell.SourceCodeAnalysisImpl").getDeclaredField("availableSourcesOverride");
            override.setAccessible(true);
            List<Path> all = new ArrayList<>(jdkSources());
            all.addAll(library);
            override.set(null, all);
            installed = true;
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.err.println("heimdall-lab: JShell on this JDK (" + Runtime.version() + ") does not let the library's"
                    + " Javadoc in (" + e + "; the JVM needs " + JSHELL_OPENS
                    + "): documentation shows signatures only");
            return false;
        }
    }

    /** The JDK's own sources as JShell finds them: src.zip itself, or its module folders. */
    private static List<Path> jdkSources() {
        Path home = Path.of(System.getProperty("java.home"));
        Path zip = home.resolve("lib/src.zip");
        if (!Files.isReadable(zip)) {
            zip = home.getParent().resolve("src.zip");
        }
        List<Path> out = new ArrayList<>();
        if (!Files.isReadable(zip)) {
            return out;
        }
        try {
            // kept open for the JVM's life, as JShell keeps its own
            FileSystem fs = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of());
            Path root = fs.getRootDirectories().iterator().next();
            if (Files.exists(root.resolve("java/lang/Object.java"))) {
                fs.close();
                out.add(zip);
            } else if (Files.exists(root.resolve("java.base/java/lang/Object.java"))) {
                try (DirectoryStream<Path> modules = Files.newDirectoryStream(root)) {
                    for (Path m : modules) {
                        if (Files.isDirectory(m)) {
                            out.add(m);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable src.zip: the JDK's Javadoc is missing, as it would be in JShell itself
        }
        return out;
    }
}
