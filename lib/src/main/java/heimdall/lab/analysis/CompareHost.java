package heimdall.lab.analysis;

import java.util.Map;

/**
 * What a folder's environment.json says about the machine that made it, as {@link Compare}'s
 * columns. A value the folder does not record (older folders lack the issue-16 keys) is null, shown
 * blank, never guessed.
 *
 * @param host the host name
 * @param kernel the kernel release
 * @param cpu the CPU model
 * @param clocksource the kernel's clocksource
 * @param pti page-table isolation, from the kernel's meltdown verdict and {@code pti=} on its command line
 * @param seccompFilters the seccomp filters the measuring process already ran under (every child inherits them)
 * @param container whether the run was inside a container (by its signs)
 * @param containerSigns the signs themselves ({@code container_hints}, e.g. {@code /.dockerenv}): a VM image can
 *     carry one without being a container, so the table shows them rather than only the verdict
 * @param pid1Container pid 1's {@code container=} ({@code podman}), the strongest sign, or null
 */
record CompareHost(String host, String kernel, String cpu, String clocksource, String pti, Integer seccompFilters,
        Boolean container, String containerSigns, String pid1Container) {
    static CompareHost of(Map<String, Object> env) {
        return new CompareHost(text(env.get("hostname")), text(env.get("kernel_release")), text(env.get("cpu_model")),
                text(env.get("clocksource")), pti(env.get("cpu_mitigations")), filters(env.get("process_seccomp")),
                env.get("container") instanceof Boolean b ? b : null,
                env.get("container_hints") instanceof java.util.List<?> l ? l.stream().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining("; ")) : null,
                env.get("container_detail") instanceof Map<?, ?> d && d.get("pid1_container") != null
                        ? String.valueOf(d.get("pid1_container")) : null);
    }

    private static String text(Object v) {
        return v == null ? null : String.valueOf(v);
    }

    private static Integer filters(Object processSeccomp) {
        return processSeccomp instanceof Map<?, ?> m && m.get("seccomp_filters") instanceof Number n ? n.intValue() : null;
    }

    /**
     * "on" when the kernel says meltdown is mitigated by PTI, "off (not affected)" or "off (<verdict>)"
     * otherwise, with {@code pti=} from the command line appended when given; null when not recorded.
     */
    static String pti(Object mitigations) {
        if (!(mitigations instanceof Map<?, ?> m)) {
            return null;
        }
        String meltdown = m.get("vulnerabilities") instanceof Map<?, ?> v && v.get("meltdown") != null
                ? String.valueOf(v.get("meltdown")) : null;
        String cmdline = m.get("cmdline_pti") == null ? null : String.valueOf(m.get("cmdline_pti"));
        String verdict = meltdown == null ? null
                : meltdown.contains("PTI") ? "on"
                : meltdown.startsWith("Not affected") ? "off (not affected)"
                : "off (" + meltdown + ")";
        if (cmdline != null) {
            return (verdict == null ? "" : verdict + ", ") + "pti=" + cmdline;
        }
        return verdict;
    }

    /** For a text table: pid 1's {@code container=}, else "signs: ..." when only signs were seen, else "no". */
    String containerText() {
        if (pid1Container != null) {
            return pid1Container + " (pid 1)";
        }
        if (container == null) {
            return "";
        }
        return container ? "signs: " + (containerSigns == null ? "?" : containerSigns) : "no";
    }

    /** One line for a legend or a heading: host, kernel and, when known, container and filters. */
    String describe() {
        StringBuilder sb = new StringBuilder(host == null ? "?" : host);
        if (kernel != null) {
            sb.append(", ").append(kernel);
        }
        if (pid1Container != null) {
            sb.append(", container=").append(pid1Container);
        } else if (Boolean.TRUE.equals(container)) {
            sb.append(", container signs");
        }
        if (seccompFilters != null && seccompFilters > 0) {
            sb.append(", ").append(seccompFilters).append(seccompFilters == 1 ? " filter" : " filters");
        }
        return sb.toString();
    }
}
