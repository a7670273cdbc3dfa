package heimdall.lab.sys;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host a measurement ran on, as {@code environment.json} records it. Everything is read from
 * {@code /proc} and {@code /sys} at {@link #capture()}; a value the host does not expose is
 * {@code "absent"} (or -1), never guessed. The later objects ({@link SelfSeccomp}, {@link ContainerSigns},
 * {@link CpuPolicy}, {@link Mitigations}) record such a value as {@code null} and name the file and the
 * reason in their {@code unread} map.
 *
 * @param hostname the kernel's node name
 * @param cpuModel {@code model name} of the first CPU in {@code /proc/cpuinfo}
 * @param onlineCpus CPUs online ({@code /sys/devices/system/cpu/online})
 * @param allowedCpus CPUs this process may use ({@link Cpus#allowed()})
 * @param kernelRelease {@code /proc/sys/kernel/osrelease}
 * @param clocksource the current clocksource; {@code tsc} keeps {@code clock_gettime} in the vDSO
 * @param load the load average at capture; sample around each run with {@link LoadSampler}
 * @param nice this process's nice value ({@code /proc/self/stat})
 * @param container whether any container hint was found
 * @param containerHints which ones ({@link ContainerSigns#hints()}): {@code /.dockerenv}, {@code /run/.containerenv},
 *     {@code container=} in our or pid 1's environment, container runtimes named in {@code /proc/1/cgroup} or
 *     {@code /proc/self/cgroup}
 * @param bpfJit {@code net.core.bpf_jit_enable}, {@code bpf_jit_harden}, {@code bpf_jit_kallsyms}
 * @param seccompActionsAvail {@code /proc/sys/kernel/seccomp/actions_avail}
 * @param selfSeccomp whether this process already runs under seccomp filters (a container's profile)
 * @param containerDetail the raw container signs: cgroup lines, pid 1's {@code container=}, what was unreadable
 * @param cpuPolicy cpufreq governors and SMT state
 * @param mitigations the kernel command line's mitigation parameters and the kernel's vulnerability verdicts
 */
public record Host(
        String hostname,
        String cpuModel,
        int onlineCpus,
        List<Integer> allowedCpus,
        String kernelRelease,
        String clocksource,
        LoadAverage load,
        int nice,
        boolean container,
        List<String> containerHints,
        Map<String, String> bpfJit,
        List<String> seccompActionsAvail,
        SelfSeccomp selfSeccomp,
        ContainerSigns containerDetail,
        CpuPolicy cpuPolicy,
        Mitigations mitigations) {

    static final String ABSENT = "absent";

    /** Reads the host now. */
    public static Host capture() {
        String model = ABSENT;
        for (String line : lines("/proc/cpuinfo")) {
            if (line.startsWith("model name")) {
                model = line.substring(line.indexOf(':') + 1).trim();
                break;
            }
        }
        String online = read("/sys/devices/system/cpu/online");
        int onlineCpus = online.equals(ABSENT)
                ? Runtime.getRuntime().availableProcessors()
                : Cpus.parseList(online).size();
        Map<String, String> jit = new LinkedHashMap<>();
        for (String k : List.of("bpf_jit_enable", "bpf_jit_harden", "bpf_jit_kallsyms")) {
            jit.put("net.core." + k, read("/proc/sys/net/core/" + k));
        }
        String actions = read("/proc/sys/kernel/seccomp/actions_avail");
        ContainerSigns signs = ContainerSigns.capture();
        return new Host(
                read("/proc/sys/kernel/hostname"),
                model,
                onlineCpus,
                Cpus.allowed(),
                read("/proc/sys/kernel/osrelease"),
                read("/sys/devices/system/clocksource/clocksource0/current_clocksource"),
                LoadAverage.now(),
                readNice(),
                !signs.hints().isEmpty(),
                signs.hints(),
                Map.copyOf(jit),
                actions.equals(ABSENT) ? List.of() : List.of(actions.split("\\s+")),
                SelfSeccomp.capture(),
                signs,
                CpuPolicy.capture(),
                Mitigations.capture());
    }

    /** Whether the kernel offers the seccomp action named as in {@code actions_avail}, e.g. {@code user_notif}. */
    public boolean seccompAction(String name) {
        return seccompActionsAvail.contains(name);
    }

    /**
     * {@code /proc/loadavg}: the 1, 5 and 15 minute averages and the runnable/total task counts.
     */
    @JsonPropertyOrder({"one", "five", "fifteen", "runnable", "tasks"})
    public record LoadAverage(double one, double five, double fifteen, int runnable, int tasks) {
        public static LoadAverage now() {
            String s = read("/proc/loadavg");
            if (s.equals(ABSENT)) {
                return new LoadAverage(-1, -1, -1, -1, -1);
            }
            String[] f = s.split("\\s+");
            String[] rt = f[3].split("/");
            return new LoadAverage(
                    Double.parseDouble(f[0]),
                    Double.parseDouble(f[1]),
                    Double.parseDouble(f[2]),
                    Integer.parseInt(rt[0]),
                    Integer.parseInt(rt[1]));
        }
    }

    /**
     * Load averages sampled around the runs of a measurement: call {@link #sample()} before and
     * after each run; the summary gives the range of the 1-minute average over them.
     */
    public static final class LoadSampler {
        private final List<LoadAverage> samples = new ArrayList<>();

        /** Takes and keeps one sample. */
        public synchronized LoadAverage sample() {
            LoadAverage l = LoadAverage.now();
            samples.add(l);
            return l;
        }

        public synchronized List<LoadAverage> samples() {
            return List.copyOf(samples);
        }

        /** The samples so far as {@code environment.json}'s {@code load_samples} gives them. */
        public synchronized Summary summary() {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            List<Double> ones = new ArrayList<>();
            for (LoadAverage l : samples) {
                min = Math.min(min, l.one());
                max = Math.max(max, l.one());
                ones.add(l.one());
            }
            return new Summary(samples.isEmpty() ? null : min, samples.isEmpty() ? null : max, List.copyOf(ones));
        }

        /**
         * The 1-minute load averages sampled around the runs: their least, their greatest (null without samples)
         * and all of them in order.
         */
        @JsonPropertyOrder({"min_one", "max_one", "samples_one"})
        public record Summary(
                @JsonProperty("min_one") Double minOne,
                @JsonProperty("max_one") Double maxOne,
                @JsonProperty("samples_one") List<Double> samplesOne) {}
    }

    private static int readNice() {
        String stat = read("/proc/self/stat");
        if (stat.equals(ABSENT)) {
            return 0;
        }
        // Fields after the parenthesised command name; nice is field 19, the 17th after ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[16]);
    }

    private static String read(String path) {
        try {
            return Files.readString(Path.of(path)).trim();
        } catch (IOException | RuntimeException e) {
            return ABSENT;
        }
    }

    private static List<String> lines(String path) {
        try {
            return Files.readAllLines(Path.of(path));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
