package heimdall.lab.profile;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Docker/Podman {@code includes}/{@code excludes} conditions of a profile are decided
 * against: the architecture (in Go's naming, as Docker compares it), the running kernel's release,
 * and the capability set the sandboxed process is assumed to hold.
 *
 * <p>The capability rule: a process started under a profile is assumed to hold Podman's default
 * container capability set ({@link #CONTAINER_DEFAULT_CAPS}, the {@code default_capabilities} of
 * {@code containers.conf}), not the capabilities of whoever runs the lab. A profile rule that
 * includes a capability outside that set is left out; one that excludes such a capability is kept.
 *
 * @param arch Go's name of the architecture, {@code amd64} here
 * @param kernelRelease the running kernel's release, e.g. {@code 6.18.44}; empty when unknown
 * @param caps the capabilities assumed, with the {@code CAP_} prefix
 */
public record HostConditions(String arch, String kernelRelease, Set<String> caps) {
    /** Podman's default container capabilities ({@code containers.conf}, containers-common 0.50). */
    public static final Set<String> CONTAINER_DEFAULT_CAPS = Set.of(
            "CAP_CHOWN",
            "CAP_DAC_OVERRIDE",
            "CAP_FOWNER",
            "CAP_FSETID",
            "CAP_KILL",
            "CAP_NET_BIND_SERVICE",
            "CAP_SETFCAP",
            "CAP_SETGID",
            "CAP_SETPCAP",
            "CAP_SETUID",
            "CAP_SYS_CHROOT");

    /** The largest part of a kernel version read (Linux's are below 256; a longer number is no version). */
    public static final int MAX_VERSION_PART = 99_999;

    /** A release's leading {@code major.minor[.patch]}; each part at most five digits, so it fits an int. */
    private static final Pattern VERSION = Pattern.compile("^(\\d{1,5})\\.(\\d{1,5})(?:\\.(\\d{1,5}))?(?!\\d)");

    private static final Pattern EXACT = Pattern.compile("\\d{1,5}\\.\\d{1,5}(\\.\\d{1,5})?");

    public HostConditions {
        caps = Set.copyOf(caps);
        kernelRelease = kernelRelease == null ? "" : kernelRelease;
    }

    /** x86_64, the running kernel (from {@code os.version}), the default container capabilities. */
    public static HostConditions thisHost() {
        return new HostConditions("amd64", System.getProperty("os.version", ""), CONTAINER_DEFAULT_CAPS);
    }

    /** Whether the kernel is at least {@code minKernel} ("4.8"); empty when either is unreadable. */
    public Optional<Boolean> kernelAtLeast(String minKernel) {
        Optional<int[]> have = parse(kernelRelease);
        Optional<int[]> want = parse(minKernel);
        if (have.isEmpty() || want.isEmpty()) {
            return Optional.empty();
        }
        int[] h = have.get();
        int[] w = want.get();
        for (int i = 0; i < 3; i++) {
            if (h[i] != w[i]) {
                return Optional.of(h[i] > w[i]);
            }
        }
        return Optional.of(true);
    }

    /**
     * Whether {@code v} is a kernel version as a profile's {@code minKernel} writes it: {@code 4.8} or
     * {@code 5.10.1}, each part 0..{@link #MAX_VERSION_PART}.
     */
    public static boolean isKernelVersion(String v) {
        return v != null && EXACT.matcher(v).matches();
    }

    /** Go's architecture names that this host's profiles may use for x86_64 in conditions. */
    public List<String> archNames() {
        return List.of(arch);
    }

    private static Optional<int[]> parse(String v) {
        Matcher m = VERSION.matcher(v == null ? "" : v.trim());
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new int[] {
            Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)),
            m.group(3) == null ? 0 : Integer.parseInt(m.group(3))
        });
    }
}
