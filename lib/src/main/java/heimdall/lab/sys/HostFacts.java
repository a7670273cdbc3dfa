package heimdall.lab.sys;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Jackson view of a {@link Host} in {@code environment.json}: the same keys in the same order as every
 * results folder written so far, so committed folders and {@code results.EnvironmentInfo} keep reading them.
 *
 * <p>{@code vm} is there only in a {@code ./lab vm} guest ({@link VmFacts}): which kernel, how
 * accelerated, whether emulated. The four before it were added later, so older folders lack them. Inside each a
 * null value is either not set where it was read ({@code pid1_container}, {@code self_cgroup_v2_path}, {@code
 * cmdline_mitigations}, {@code cmdline_pti}) or not read: then that object's {@code unread} has the same key,
 * naming the file and the reason.
 */
@JsonPropertyOrder({
    "hostname",
    "cpu_model",
    "online_cpus",
    "allowed_cpus",
    "kernel_release",
    "clocksource",
    "load_average",
    "nice",
    "container",
    "container_hints",
    "bpf_jit",
    "seccomp_actions_avail",
    "process_seccomp",
    "container_detail",
    "cpu_policy",
    "cpu_mitigations",
    "vm"
})
public record HostFacts(
        @JsonProperty("hostname") String hostname,
        @JsonProperty("cpu_model") String cpuModel,
        @JsonProperty("online_cpus") int onlineCpus,
        @JsonProperty("allowed_cpus") List<Integer> allowedCpus,
        @JsonProperty("kernel_release") String kernelRelease,
        @JsonProperty("clocksource") String clocksource,
        @JsonProperty("load_average") Host.LoadAverage loadAverage,
        @JsonProperty("nice") int nice,
        @JsonProperty("container") boolean container,
        @JsonProperty("container_hints") List<String> containerHints,
        @JsonProperty("bpf_jit") SortedMap<String, String> bpfJit,
        @JsonProperty("seccomp_actions_avail") List<String> seccompActionsAvail,
        @JsonProperty("process_seccomp") Map<String, Object> processSeccomp,
        @JsonProperty("container_detail") Map<String, Object> containerDetail,
        @JsonProperty("cpu_policy") Map<String, Object> cpuPolicy,
        @JsonProperty("cpu_mitigations") Map<String, Object> cpuMitigations,

        @JsonProperty("vm") @JsonInclude(JsonInclude.Include.NON_NULL)
        VmFacts vm) {

    /** The view of {@code host}; its later objects keep their own key order ({@code toMap} of each). */
    public static HostFacts of(Host host) {
        return new HostFacts(
                host.hostname(),
                host.cpuModel(),
                host.onlineCpus(),
                host.allowedCpus(),
                host.kernelRelease(),
                host.clocksource(),
                host.load(),
                host.nice(),
                host.container(),
                host.containerHints(),
                // sorted: the host's map has no order of its own, and folders list the three names alphabetically
                new TreeMap<>(host.bpfJit()),
                host.seccompActionsAvail(),
                host.selfSeccomp().toMap(),
                host.containerDetail().toMap(),
                host.cpuPolicy().toMap(),
                host.mitigations().toMap(),
                VmFacts.current().orElse(null));
    }
}
