package heimdall.lab.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.results.EnvironmentInfo;

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
 * @param vm the accelerator of the guest the run was made in ({@code tcg}, {@code kvm}), or null when
 *     environment.json records no {@code vm} (a run on the machine itself)
 * @param emulated whether the figures are an emulator's ({@code vm.emulated}): true, too, for a {@code vm}
 *     object that does not say (never taken for a native run by default)
 */
record CompareHost(
        String host,
        String kernel,
        String cpu,
        String clocksource,
        String pti,
        Integer seccompFilters,
        Boolean container,
        String containerSigns,
        String pid1Container,
        String vm,
        boolean emulated) {
    /** The host facts of a folder's environment.json; every one null when the folder has none ({@code env} null). */
    static CompareHost of(EnvironmentInfo env) {
        return of(env, null);
    }

    /**
     * As {@link #of(EnvironmentInfo)}, with the guest's facts from the file's tree ({@code tree} null:
     * none): {@code vm.accelerator} and {@code vm.emulated}, the latter true unless it is {@code false}.
     */
    static CompareHost of(EnvironmentInfo env, JsonNode tree) {
        JsonNode vmFacts = tree != null && tree.isObject() ? field(tree, "vm") : null;
        boolean inVm = vmFacts != null;
        JsonNode emulatedFlag = inVm ? field(vmFacts, "emulated") : null;
        boolean emulated = inVm && !(emulatedFlag != null && emulatedFlag.isBoolean() && !emulatedFlag.booleanValue());
        String accelerator = inVm ? String.valueOf(text(field(vmFacts, "accelerator"))) : null;
        if (env == null) {
            return new CompareHost(null, null, null, null, null, null, null, null, null, accelerator, emulated);
        }
        return new CompareHost(
                env.hostname(),
                env.kernelRelease(),
                env.cpuModel(),
                env.clocksource(),
                pti(env.cpuMitigations()),
                filters(env.processSeccomp()),
                env.container(),
                env.containerHints() == null ? null : String.join("; ", env.containerHints()),
                text(field(env.containerDetail(), "pid1_container")),
                accelerator,
                emulated);
    }

    /** For a text table: "emulated (tcg)", "guest (kvm)", or "" for a run on the machine itself. */
    String vmText() {
        return vm == null ? "" : (emulated ? "emulated (" : "guest (") + vm + ")";
    }

    /** {@code name} of a JSON object (environment.json's nested descriptions stay trees), or null. */
    private static JsonNode field(JsonNode object, String name) {
        JsonNode v = object != null && object.isObject() ? object.get(name) : null;
        return v == null || v.isNull() ? null : v;
    }

    private static String text(JsonNode v) {
        return v == null ? null : v.asText();
    }

    private static Integer filters(JsonNode processSeccomp) {
        JsonNode n = field(processSeccomp, "seccomp_filters");
        return n != null && n.isNumber() ? n.intValue() : null;
    }

    /**
     * "on" when the kernel says meltdown is mitigated by PTI, "off (not affected)" or "off (<verdict>)"
     * otherwise, with {@code pti=} from the command line appended when given; null when not recorded.
     */
    static String pti(JsonNode mitigations) {
        if (mitigations == null || !mitigations.isObject()) {
            return null;
        }
        String meltdown = text(field(field(mitigations, "vulnerabilities"), "meltdown"));
        String cmdline = text(field(mitigations, "cmdline_pti"));
        String verdict = meltdown == null
                ? null
                : meltdown.contains("PTI")
                        ? "on"
                        : meltdown.startsWith("Not affected") ? "off (not affected)" : "off (" + meltdown + ")";
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
        if (emulated) {
            sb.append(", emulated");
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
