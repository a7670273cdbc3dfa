package heimdall.lab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code ./lab --version}: the project version and git commit captured when the classes were built
 * ({@code heimdall/lab/cli/build.properties}, written by lib/pom.xml's build-info step), the running
 * kernel and the JVM.
 */
public record BuildInfo(String version, String commit) implements IVersionProvider {
    static final String RESOURCE = "build.properties";

    /** What the build recorded; "unknown" for what it could not (a build outside git, no resource). */
    public static BuildInfo current() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the class-path resource heimdall/lab/cli/" + RESOURCE, e);
        }
        return new BuildInfo(
                p.getProperty("version", "unknown").strip(),
                p.getProperty("commit", "unknown").strip());
    }

    @Override
    public String[] getVersion() {
        // picocli formats each line (String.format): a '%' must stay a '%'
        return lines().stream().map(l -> l.replace("%", "%%")).toArray(String[]::new);
    }

    /** The lines {@code --version} prints. */
    public List<String> lines() {
        return List.of(
                "heimdall-lab " + version,
                "commit: " + commit + " (when built)",
                // os.version is uname's release on Linux: the running kernel, not the one built against
                "kernel: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                "JVM: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                        + System.getProperty("java.vm.vendor") + ")");
    }
}
