package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * A results folder's {@code environment.json}: the host a run measured on (CPU, kernel, clock,
 * load, container and seccomp signs) and the run's own facts (reproduction, start, end,
 * interruption). Nested descriptions whose shape differs between reproductions and folder ages
 * (mitigations, CPU policy, a reproduction's options) stay JSON trees. A field an older folder lacks
 * is null; the reproduction-specific settings this record does not name are tolerated, as every
 * reproduction records its own.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EnvironmentInfo(
        @JsonProperty("reproduction") String reproduction,
        @JsonProperty("started") String started,
        @JsonProperty("finished") String finished,
        @JsonProperty("interrupted") Boolean interrupted,
        @JsonProperty("interruption") String interruption,
        @JsonProperty(value = "hostname", required = true) String hostname,
        @JsonProperty("cpu_model") String cpuModel,
        @JsonProperty("online_cpus") Integer onlineCpus,
        @JsonProperty("allowed_cpus") List<Integer> allowedCpus,

        @JsonProperty(value = "kernel_release", required = true)
        String kernelRelease,

        @JsonProperty("clocksource") String clocksource,
        @JsonProperty("load_average") LoadAverage loadAverage,
        @JsonProperty("nice") Integer nice,
        @JsonProperty("container") Boolean container,
        @JsonProperty("container_hints") List<String> containerHints,
        @JsonProperty("bpf_jit") Map<String, String> bpfJit,
        @JsonProperty("seccomp_actions_avail") List<String> seccompActionsAvail,
        @JsonProperty("process_seccomp") JsonNode processSeccomp,
        @JsonProperty("container_detail") JsonNode containerDetail,
        @JsonProperty("cpu_policy") JsonNode cpuPolicy,
        @JsonProperty("cpu_mitigations") JsonNode cpuMitigations,
        @JsonProperty("cpu") Integer cpu,
        @JsonProperty("supervisor_cpu") Integer supervisorCpu,
        @JsonProperty("replay_cpu_granted") Integer replayCpuGranted,
        @JsonProperty("timer_cost_ns") JsonNode timerCostNs,
        @JsonProperty("java") String java) {

    /** The load average when the run started, as {@code /proc/loadavg} gave it. */
    public record LoadAverage(
            @JsonProperty("one") Double one,
            @JsonProperty("five") Double five,
            @JsonProperty("fifteen") Double fifteen,
            @JsonProperty("runnable") Integer runnable,
            @JsonProperty("tasks") Integer tasks) {}

    /**
     * The timer's median cost in nanoseconds (back-to-back clock reads), or null when not recorded:
     * kernel-bitmap folders give a number, floor-cost folders an object with {@code median}.
     */
    public Long timerCostMedianNs() {
        if (timerCostNs == null || timerCostNs.isNull()) {
            return null;
        }
        JsonNode median = timerCostNs.isObject() ? timerCostNs.get("median") : timerCostNs;
        return median != null && median.isNumber() ? median.longValue() : null;
    }

    /** {@code net.core.bpf_jit_enable} as read, or null when not recorded. */
    public String bpfJitEnable() {
        return bpfJit == null ? null : bpfJit.get("net.core.bpf_jit_enable");
    }
}
