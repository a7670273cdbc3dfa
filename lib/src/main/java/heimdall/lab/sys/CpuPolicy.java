package heimdall.lab.sys;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the CPUs are run, where the kernel says: the cpufreq governor of each online CPU (a
 * {@code powersave} or {@code schedutil} CPU changes speed under a benchmark, {@code performance} does
 * not) and simultaneous multithreading (a sibling thread shares the core a measurement runs on).
 * VMs often expose neither governor nor SMT control; then the field is {@code null} and {@code unread}
 * names the file that is missing.
 *
 * @param governors governor name to the online CPUs running it; {@code null} when no CPU's governor was read
 * @param smtControl {@code /sys/devices/system/cpu/smt/control}: on, off, forceoff, notsupported, notimplemented
 * @param smtActive {@code /sys/devices/system/cpu/smt/active}: 1 when sibling threads are online
 * @param unread field name to the reason it is {@code null} (or, for {@code scaling_governors}, the CPUs
 *     missing from {@code governors})
 */
public record CpuPolicy(
        Map<String, List<Integer>> governors, String smtControl, Integer smtActive, Map<String, String> unread) {
    static final Path CPU = Path.of("/sys/devices/system/cpu");

    /** Reads the policy of the online CPUs now. */
    public static CpuPolicy capture() {
        Map<String, String> unread = new LinkedHashMap<>();
        String online = SysRead.text(CPU.resolve("online"), unread, "scaling_governors");
        Map<String, List<Integer>> governors = null;
        if (online != null) {
            Map<String, List<Integer>> found = new TreeMap<>();
            List<Integer> missing = new ArrayList<>();
            String firstWhy = null;
            for (int cpu : Cpus.parseList(online)) {
                Map<String, String> why = new LinkedHashMap<>();
                String g = SysRead.text(CPU.resolve("cpu" + cpu).resolve("cpufreq/scaling_governor"), why, "g");
                if (g == null) {
                    missing.add(cpu);
                    firstWhy = firstWhy == null ? why.get("g") : firstWhy;
                } else {
                    found.computeIfAbsent(g, k -> new ArrayList<>()).add(cpu);
                }
            }
            if (!missing.isEmpty()) {
                unread.put(
                        "scaling_governors",
                        "no readable cpufreq/scaling_governor for online CPUs " + missing + "; cpu" + missing.get(0)
                                + ": " + firstWhy);
            }
            if (!found.isEmpty()) {
                found.replaceAll((k, v) -> List.copyOf(v));
                governors = Collections.unmodifiableMap(found);
            }
        }
        String control = SysRead.text(CPU.resolve("smt/control"), unread, "smt_control");
        String active = SysRead.text(CPU.resolve("smt/active"), unread, "smt_active");
        Integer smtActive = null;
        if (active != null) {
            try {
                smtActive = Integer.valueOf(active);
            } catch (NumberFormatException e) {
                unread.put("smt_active", CPU.resolve("smt/active") + ": '" + active + "' is not a number");
            }
        }
        return new CpuPolicy(governors, control, smtActive, Collections.unmodifiableMap(unread));
    }

    /** For environment.json's {@code cpu_policy}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scaling_governors", governors);
        m.put("smt_control", smtControl);
        m.put("smt_active", smtActive);
        m.put("unread", unread);
        return m;
    }
}
