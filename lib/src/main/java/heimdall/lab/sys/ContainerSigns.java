package heimdall.lab.sys;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Signs that this process runs in a container, each named by where it was found. None is proof (a
 * cgroup namespace shows a container its own root {@code /}, and {@code /proc/1/environ} is often
 * unreadable), so all are recorded as read, together with the raw cgroup lines, and a file that could
 * not be read is named with the reason.
 *
 * @param hints the signs found: {@code /.dockerenv}, {@code /run/.containerenv}, {@code container=X} in our
 *     environment, {@code /proc/1/environ: container=X}, {@code /proc/1/cgroup: WORD} and
 *     {@code /proc/self/cgroup: WORD} for a container runtime's name in a cgroup path
 * @param selfCgroup this process's {@code /proc/self/cgroup} lines; {@code null} when not read
 * @param selfCgroupV2Path the cgroup v2 (unified, {@code 0::}) path in them; {@code null} when there is none
 *     (cgroup v1 only) or the file was not read ({@code unread} says which)
 * @param pid1Container {@code container=} from {@code /proc/1/environ} (set by systemd-nspawn, Podman, LXC);
 *     {@code null} when absent there or when the file was not read ({@code unread} says which)
 * @param unread field name to the reason it is {@code null}
 */
public record ContainerSigns(
        List<String> hints,
        List<String> selfCgroup,
        String selfCgroupV2Path,
        String pid1Container,
        Map<String, String> unread) {
    static final Path DOCKERENV = Path.of("/.dockerenv");
    static final Path CONTAINERENV = Path.of("/run/.containerenv");
    static final Path SELF_CGROUP = Path.of("/proc/self/cgroup");
    static final Path PID1_CGROUP = Path.of("/proc/1/cgroup");
    static final Path PID1_ENVIRON = Path.of("/proc/1/environ");
    /** Container runtimes' names as they appear in cgroup paths (docker-ID.scope, kubepods, libpod-ID, ...). */
    static final List<String> RUNTIME_WORDS = List.of("docker", "kubepods", "libpod", "containerd", "crio", "lxc");

    /** Reads the signs now. */
    public static ContainerSigns capture() {
        Map<String, String> unread = new LinkedHashMap<>();
        List<String> hints = new ArrayList<>();
        if (Files.exists(DOCKERENV)) {
            hints.add(DOCKERENV.toString());
        }
        if (Files.exists(CONTAINERENV)) {
            hints.add(CONTAINERENV.toString());
        }
        String env = System.getenv("container");
        if (env != null && !env.isEmpty()) {
            hints.add("container=" + env);
        }
        byte[] environ = SysRead.bytes(PID1_ENVIRON, unread, "pid1_container");
        String pid1 = environ == null ? null : containerVariable(environ);
        if (pid1 != null) {
            hints.add(PID1_ENVIRON + ": container=" + pid1);
        }
        // pid 1's cgroup: unreadable or missing is not worth a reason of its own (our own cgroup follows)
        List<String> pid1Cgroup = SysRead.lines(PID1_CGROUP, new LinkedHashMap<>(), "pid1_cgroup");
        if (pid1Cgroup != null) {
            for (String word : runtimeWords(pid1Cgroup)) {
                hints.add(PID1_CGROUP + ": " + word);
            }
        }
        List<String> self = SysRead.lines(SELF_CGROUP, unread, "self_cgroup");
        String v2 = null;
        if (self != null) {
            for (String word : runtimeWords(self)) {
                hints.add(SELF_CGROUP + ": " + word);
            }
            v2 = v2Path(self);
        } else {
            unread.put("self_cgroup_v2_path", unread.get("self_cgroup"));
        }
        return new ContainerSigns(
                List.copyOf(hints),
                self == null ? null : List.copyOf(self),
                v2,
                pid1,
                Collections.unmodifiableMap(unread));
    }

    /** The runtime names ({@link #RUNTIME_WORDS}) found in the paths of {@code /proc/PID/cgroup} lines, each once. */
    public static List<String> runtimeWords(List<String> cgroupLines) {
        List<String> found = new ArrayList<>();
        for (String line : cgroupLines) {
            String path = pathOf(line);
            if (path == null) {
                continue;
            }
            for (String word : RUNTIME_WORDS) {
                if (path.contains(word) && !found.contains(word)) {
                    found.add(word);
                }
            }
        }
        return found;
    }

    /**
     * The cgroup v2 path: the line {@code 0::PATH} (hierarchy 0, no controllers). A v1 line is
     * {@code ID:CONTROLLERS:PATH}; a hybrid host lists both kinds.
     */
    public static String v2Path(List<String> cgroupLines) {
        for (String line : cgroupLines) {
            if (line.startsWith("0::")) {
                return line.substring(3);
            }
        }
        return null;
    }

    /** {@code container=}'s value in a NUL-separated environment block, or {@code null}. */
    public static String containerVariable(byte[] environ) {
        String value = null;
        for (String entry : new String(environ, StandardCharsets.UTF_8).split("\0")) {
            if (entry.startsWith("container=")) {
                value = entry.substring("container=".length());
            }
        }
        return value;
    }

    /** The path field of one cgroup line (after the second colon; a path may itself hold colons). */
    private static String pathOf(String line) {
        int first = line.indexOf(':');
        int second = first < 0 ? -1 : line.indexOf(':', first + 1);
        return second < 0 ? null : line.substring(second + 1);
    }

    /** For environment.json's {@code container_detail}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("self_cgroup", selfCgroup);
        m.put("self_cgroup_v2_path", selfCgroupV2Path);
        m.put("pid1_container", pid1Container);
        m.put("unread", unread);
        return m;
    }
}
