package heimdall.lab.sys;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether the measuring process itself already runs under seccomp, from its own {@code /proc/self/status}.
 * A JVM inside Docker's or Podman's default profile starts with {@code Seccomp: 2} and one filter or more,
 * and every child it measures inherits them: every filtered call then runs those filters too, so a run
 * inside a container is not a bare one.
 *
 * @param seccomp {@code Seccomp:}: 0 none, 1 strict, 2 filter; {@code null} when not read
 * @param seccompFilters {@code Seccomp_filters:}, the number of filters attached (Linux 5.9+); {@code null} when not
 * read
 * @param noNewPrivs {@code NoNewPrivs:}, 1 when no_new_privs is set (a runtime sets it to install filters
 *     unprivileged); {@code null} when not read
 * @param unread field name ({@code seccomp}, {@code seccomp_filters}, {@code no_new_privs}) to the reason it is
 *     {@code null}
 */
public record SelfSeccomp(Integer seccomp, Integer seccompFilters, Integer noNewPrivs, Map<String, String> unread) {
    /** This process's status file. */
    public static final Path STATUS = Path.of("/proc/self/status");

    /** Reads this process's status now. */
    public static SelfSeccomp capture() {
        Map<String, String> unread = new LinkedHashMap<>();
        String text = SysRead.text(STATUS, unread, "status");
        if (text == null) {
            String why = unread.remove("status");
            for (String f : new String[] {"seccomp", "seccomp_filters", "no_new_privs"}) {
                unread.put(f, why);
            }
            return new SelfSeccomp(null, null, null, Collections.unmodifiableMap(unread));
        }
        return parse(text, STATUS.toString());
    }

    /** The three fields from the text of a {@code /proc/PID/status} file; {@code source} names it in reasons. */
    public static SelfSeccomp parse(String status, String source) {
        Map<String, String> unread = new LinkedHashMap<>();
        Integer mode = field(status, "Seccomp", "seccomp", source, unread);
        Integer filters = field(status, "Seccomp_filters", "seccomp_filters", source, unread);
        Integer nnp = field(status, "NoNewPrivs", "no_new_privs", source, unread);
        return new SelfSeccomp(mode, filters, nnp, Collections.unmodifiableMap(unread));
    }

    /** {@code disabled}, {@code strict} or {@code filter} for {@link #seccomp}; {@code null} when not read. */
    public String mode() {
        if (seccomp == null) {
            return null;
        }
        return switch (seccomp) {
            case 0 -> "disabled";
            case 1 -> "strict";
            case 2 -> "filter";
            default -> "unknown (" + seccomp + ")";
        };
    }

    /**
     * For environment.json: {@code seccomp}, {@code seccomp_mode}, {@code seccomp_filters}, {@code no_new_privs},
     * {@code unread}.
     */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seccomp", seccomp);
        m.put("seccomp_mode", mode());
        m.put("seccomp_filters", seccompFilters);
        m.put("no_new_privs", noNewPrivs);
        m.put("source", STATUS.toString());
        m.put("unread", unread);
        return m;
    }

    private static Integer field(String status, String name, String key, String source, Map<String, String> unread) {
        for (String line : status.split("\n")) {
            if (line.startsWith(name + ":")) {
                String v = line.substring(name.length() + 1).trim();
                try {
                    return Integer.valueOf(v);
                } catch (NumberFormatException e) {
                    unread.put(key, source + ": " + name + ": '" + v + "' is not a number");
                    return null;
                }
            }
        }
        unread.put(key, source + " has no " + name + ": line");
        return null;
    }
}
