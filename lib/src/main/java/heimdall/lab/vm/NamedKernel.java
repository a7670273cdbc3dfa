package heimdall.lab.vm;

import heimdall.lab.BadInput;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The kernels {@code --kernel} knows by name: Debian's stock kernel of a release, fetched from Debian's
 * archive (the release's current {@code linux-image-*-amd64-unsigned}, the package its
 * {@code linux-image-amd64} depends on).
 */
public enum NamedKernel {
    DEBIAN_5_10("debian:5.10", "bullseye", "5.10."),
    DEBIAN_6_1("debian:6.1", "bookworm", "6.1."),
    DEBIAN_6_12("debian:6.12", "trixie", "6.12.");

    private final String label;
    private final String suite;
    private final String versionPrefix;

    NamedKernel(String label, String suite, String versionPrefix) {
        this.label = label;
        this.suite = suite;
        this.versionPrefix = versionPrefix;
    }

    /** The name as {@code --kernel} takes it, e.g. {@code debian:6.1}. */
    public String label() {
        return label;
    }

    /** Debian's release (its suite in the archive), e.g. {@code bookworm}. */
    public String suite() {
        return suite;
    }

    /** The start every fetched package's version must have ({@code 6.1.}): the archive changed if not. */
    String versionPrefix() {
        return versionPrefix;
    }

    /** The folder of its cache entry and private apt state: {@code debian-6.1}. */
    String folderName() {
        return label.replace(':', '-');
    }

    /** The known names, comma-separated, for messages and help. */
    public static String names() {
        return Arrays.stream(values()).map(NamedKernel::label).collect(Collectors.joining(", "));
    }

    /** Whether {@code value} looks like a name (has a scheme) rather than a path to a bzImage. */
    static boolean looksLikeName(String value) {
        return value.matches("[A-Za-z][A-Za-z0-9+.-]*:.*") && !value.contains("/");
    }

    /** The kernel called {@code value}; bad input naming {@code --kernel} and the known names otherwise. */
    public static NamedKernel parse(String value) {
        for (NamedKernel k : values()) {
            if (k.label.equals(value)) {
                return k;
            }
        }
        throw new BadInput("--kernel " + value + ": not a known kernel name; known: " + names()
                + " (or a path to a bzImage with --modules DIR)");
    }
}
