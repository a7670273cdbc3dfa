package heimdall.lab.reproduce.workloadcost;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.features.Feature;
import heimdall.lab.features.KernelVersion;
import heimdall.lab.sys.Mitigations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Whether this kernel forces the SSB and STIBP mitigations on a filtered task (the default before 5.16:
 * {@code spec_store_bypass_disable=seccomp}, {@code spectre_v2_user=seccomp}), which slows the program's own code
 * and no per-call figure shows: the state a program ended in under no filter and under a filter
 * ({@code Speculation_Store_Bypass} and {@code SpeculationIndirectBranch} of its {@code /proc/PID/status}, read by
 * heimdall-workload before it is reaped), with why it cannot be seen where it cannot: a CPU the kernel finds not
 * affected (an emulated one, typically), or affected with no per-task control. The CPU's own words are kept beside
 * the verdict: {@code /proc/cpuinfo}'s {@code bugs} and its control flags, the kernel's
 * {@code vulnerabilities/spec_store_bypass} and {@code spectre_v2}.
 *
 * @param forced true: forced on filtered tasks; false: not; null: cannot be seen here (the verdict says why)
 * @param verdict one sentence
 * @param predicted what the kernel's version predicts ({@link Feature#SSB_STIBP_FORCED})
 * @param unfilteredSsb a run under no filter: {@code Speculation_Store_Bypass}
 * @param unfilteredIb and {@code SpeculationIndirectBranch}
 * @param filteredBy the workload and mechanism of the filtered run looked at
 * @param filteredSsb that run's {@code Speculation_Store_Bypass}
 * @param filteredIb and {@code SpeculationIndirectBranch}
 * @param cpuBugs {@code /proc/cpuinfo}'s first {@code bugs} line ("" for none listed; null unread)
 * @param cpuControls the speculation controls among {@code /proc/cpuinfo}'s first {@code flags} (ssbd, stibp, ...)
 * @param specStoreBypass {@code /sys/devices/system/cpu/vulnerabilities/spec_store_bypass}, or null
 * @param spectreV2 {@code .../vulnerabilities/spectre_v2}, or null
 */
@JsonPropertyOrder({
    "forced",
    "verdict",
    "predicted",
    "unfiltered_ssb",
    "unfiltered_ib",
    "filtered_by",
    "filtered_ssb",
    "filtered_ib",
    "cpu_bugs",
    "cpu_controls",
    "spec_store_bypass",
    "spectre_v2"
})
record Speculation(
        @JsonProperty("forced") Boolean forced,
        @JsonProperty("verdict") String verdict,
        @JsonProperty("predicted") String predicted,
        @JsonProperty("unfiltered_ssb") String unfilteredSsb,
        @JsonProperty("unfiltered_ib") String unfilteredIb,
        @JsonProperty("filtered_by") String filteredBy,
        @JsonProperty("filtered_ssb") String filteredSsb,
        @JsonProperty("filtered_ib") String filteredIb,
        @JsonProperty("cpu_bugs") String cpuBugs,
        @JsonProperty("cpu_controls") List<String> cpuControls,
        @JsonProperty("spec_store_bypass") String specStoreBypass,
        @JsonProperty("spectre_v2") String spectreV2) {

    static final Path CPUINFO = Path.of("/proc/cpuinfo");

    /** The cpuinfo flags that are speculation controls a kernel could force on a task. */
    static final Set<String> CONTROLS =
            Set.of("ssbd", "virt_ssbd", "amd_ssbd", "spec_ctrl", "stibp", "ibrs", "ibpb", "amd_stibp", "intel_stibp");

    /** The states seen: one run under no filter, one under a filter (the first of each the rounds completed). */
    static final class Seen {
        String unfilteredSsb;
        String unfilteredIb;
        String filteredBy;
        String filteredSsb;
        String filteredIb;

        void saw(String workload, Mechanism m, OneRun.Result r) {
            if (m == Mechanism.NONE && unfilteredSsb == null) {
                unfilteredSsb = r.ssb();
                unfilteredIb = r.ib();
            } else if (m != Mechanism.NONE
                    && m != Mechanism.FOLLOWER
                    && m != Mechanism.LANDLOCK
                    && filteredSsb == null) { // a seccomp filter: not the follower's hook, not Landlock
                filteredBy = workload + " under " + m.rowName();
                filteredSsb = r.ssb();
                filteredIb = r.ib();
            }
        }
    }

    /** The verdict on this machine: {@code seen} with the CPU's and kernel's own words read now. */
    static Speculation of(Seen seen) {
        Map<String, String> v = Mitigations.capture().vulnerabilities();
        String[] cpu = cpuinfo();
        List<String> controls = new ArrayList<>();
        if (cpu[1] != null) {
            for (String f : cpu[1].split("\\s+")) {
                if (CONTROLS.contains(f)) {
                    controls.add(f);
                }
            }
        }
        return judge(
                seen,
                Feature.SSB_STIBP_FORCED.predict(KernelVersion.running()),
                cpu[0],
                cpu[1] == null ? null : List.copyOf(controls),
                v == null ? null : v.get("spec_store_bypass"),
                v == null ? null : v.get("spectre_v2"));
    }

    /** The verdict from what was seen and what the CPU and kernel say (no file read). */
    static Speculation judge(
            Seen s, String predicted, String bugs, List<String> controls, String ssbVuln, String v2Vuln) {
        String words = String.format(
                Locale.ROOT,
                "/proc/cpuinfo bugs: %s; speculation controls among its flags: %s; "
                        + "vulnerabilities/spec_store_bypass: %s; spectre_v2: %s",
                bugs == null ? "unread" : bugs.isEmpty() ? "none" : bugs,
                controls == null ? "unread" : controls.isEmpty() ? "none" : String.join(" ", controls),
                quote(ssbVuln),
                quote(v2Vuln));
        String states = String.format(
                Locale.ROOT,
                "filtered (%s): SSB %s, IB %s; unfiltered: SSB %s, IB %s",
                s.filteredBy,
                quote(s.filteredSsb),
                quote(s.filteredIb),
                quote(s.unfilteredSsb),
                quote(s.unfilteredIb));
        Boolean forced;
        String verdict;
        if (s.filteredSsb == null || s.unfilteredSsb == null) {
            forced = null;
            verdict = "not seen: no run " + (s.filteredSsb == null ? "under a filter" : "without a filter")
                    + " completed";
        } else if (forcedIn(s.filteredSsb, s.filteredIb) && !forcedIn(s.unfilteredSsb, s.unfilteredIb)) {
            forced = true;
            verdict = "forced: this kernel forces the mitigation on a filtered task (" + states + ")";
        } else if (s.filteredSsb.startsWith("not vulnerable")
                && (s.filteredIb == null || s.filteredIb.isEmpty() || s.filteredIb.startsWith("not affected"))) {
            forced = null;
            verdict = "cannot be seen here: the kernel finds this CPU not affected (" + words + "), so it has no "
                    + "mitigation to force on a filtered task, whatever its version (which predicts: " + predicted
                    + "); " + states;
        } else if (s.filteredSsb.equals("vulnerable") && controls != null && controls.isEmpty()) {
            forced = null;
            verdict = "cannot be seen here: the CPU is affected but offers the kernel no per-task control (" + words
                    + "), so nothing can be forced (the version predicts: " + predicted + "); " + states;
        } else {
            forced = false;
            verdict =
                    "not forced: a filtered task keeps the state of an unfiltered one (" + states + "; " + words + ")";
        }
        return new Speculation(
                forced,
                verdict,
                predicted,
                s.unfilteredSsb,
                s.unfilteredIb,
                s.filteredBy,
                s.filteredSsb,
                s.filteredIb,
                bugs,
                controls,
                ssbVuln,
                v2Vuln);
    }

    /** {@code thread force mitigated} (SSB), {@code conditional force disabled} (IB): forced on the task. */
    static boolean forcedIn(String ssb, String ib) {
        return ssb != null && ssb.contains("force") || ib != null && ib.contains("force");
    }

    private static String quote(String s) {
        return s == null ? "unread" : "'" + s + "'";
    }

    /** The first CPU's {@code bugs} and {@code flags} values; an element is null where unread. */
    static String[] cpuinfo() {
        String[] out = {null, null};
        try {
            for (String line : Files.readAllLines(CPUINFO, StandardCharsets.US_ASCII)) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    if (out[0] != null || out[1] != null) {
                        break; // the first CPU's block ended
                    }
                    continue;
                }
                String key = line.substring(0, colon).strip();
                String value = line.substring(colon + 1).strip();
                if (key.equals("bugs") && out[0] == null) {
                    out[0] = value;
                } else if (key.equals("flags") && out[1] == null) {
                    out[1] = value;
                }
            }
        } catch (IOException | RuntimeException e) {
            return out;
        }
        if (out[1] != null && out[0] == null) {
            out[0] = ""; // a kernel that lists no bug omits the line on some versions
        }
        return out;
    }
}
