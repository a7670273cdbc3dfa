package heimdall.lab.landlock;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Landlock ABI a kernel version is expected to answer, from the mainline releases that brought each ABI
 * (Documentation/userspace-api/landlock.rst and landlock(7)): 1 in Linux 5.13, 2 in 5.19, 3 in 6.2, 4 in 6.7,
 * 5 in 6.10, 6 in 6.12, 7 in 6.15. A prediction, not a fact: Landlock must also be built in and enabled
 * ({@code lsm=}), and distributions backport; {@link Landlock#kernelAbi()} is what a kernel answers.
 */
public final class LandlockAbi {
    private LandlockAbi() {}

    /** One ABI and the first mainline release with it. */
    public record Step(int abi, int major, int minor) {
        public String release() {
            return major + "." + minor;
        }
    }

    /** The ABIs in order. */
    public static final List<Step> STEPS = List.of(
            new Step(1, 5, 13),
            new Step(2, 5, 19),
            new Step(3, 6, 2),
            new Step(4, 6, 7),
            new Step(5, 6, 10),
            new Step(6, 6, 12),
            new Step(7, 6, 15));

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** The ABI a mainline kernel of {@code release} ({@code "6.1.0-18-amd64"}, {@code "5.10"}) has; empty if unreadable. */
    public static Optional<Integer> predicted(String release) {
        Matcher m = VERSION.matcher(release.trim());
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(predicted(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
    }

    /** The ABI a mainline kernel {@code major.minor} has (0: before 5.13). */
    public static int predicted(int major, int minor) {
        int abi = 0;
        for (Step s : STEPS) {
            if (major > s.major || major == s.major && minor >= s.minor) {
                abi = s.abi;
            }
        }
        return abi;
    }
}
