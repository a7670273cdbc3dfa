package heimdall.lab.features;

import heimdall.lab.BadInput;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel's version as {@code uname -r} begins it ({@code 6.1.0-50-amd64} is 6.1.0), for predicting
 * what a kernel has from the release a feature arrived in. Only the numbers are kept: a distribution's
 * backports are not visible in them, which is why every prediction is set beside an observation.
 */
public record KernelVersion(int major, int minor, int patch) implements Comparable<KernelVersion> {
    private static final Pattern RELEASE = Pattern.compile("^(\\d{1,3})\\.(\\d{1,3})(?:\\.(\\d{1,5}))?(?:[-+~_.].*)?$");

    public KernelVersion {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("negative version part: " + major + "." + minor + "." + patch);
        }
    }

    /**
     * {@code release} as {@code uname -r} prints it; bad input naming {@code field} when it does not start with N.N.
     */
    public static KernelVersion parse(String release, String field) {
        Matcher m = release == null ? null : RELEASE.matcher(release);
        if (m == null || !m.matches()) {
            throw BadInput.at(
                    "kernel release", field, "expected a release like 6.1.0-50-amd64, found \"" + release + "\"");
        }
        return new KernelVersion(
                Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
    }

    /** The running kernel's version ({@code os.version}, which is {@code uname -r}). */
    public static KernelVersion running() {
        return parse(System.getProperty("os.version"), "os.version");
    }

    /** Whether this version is {@code major.minor} or later. */
    public boolean atLeast(int major, int minor) {
        return compareTo(new KernelVersion(major, minor, 0)) >= 0;
    }

    @Override
    public int compareTo(KernelVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
