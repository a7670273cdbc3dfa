package heimdall.lab.reproduce.floorcost;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Stats;
import heimdall.lab.sys.Host;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** floor-cost's own facts in {@code environment.json}, after the times and the host. */
@JsonPropertyOrder({
    "cpu",
    "supervisor_cpu",
    "counts",
    "broker_placements",
    "code_placement",
    "timer_cost_ns",
    "load_samples",
    "java"
})
record FloorCostSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("supervisor_cpu") int supervisorCpu,
        @JsonProperty("counts") FloorBench.Counts counts,
        @JsonProperty("broker_placements") Map<String, String> brokerPlacements,
        @JsonProperty("code_placement") String codePlacement,
        @JsonProperty("timer_cost_ns") TimerCost timerCostNs,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("java") String java) {

    /** The broker rows' placements by name (keys as the rows' {@code placement}), in the table's order. */
    static final Map<String, String> BROKER_PLACEMENTS;

    static {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(FloorCost.OWN_CPU, "child pinned to cpu, supervisor (or ping-pong partner) pinned to supervisor_cpu");
        p.put(FloorCost.CHILDS_CPU, "child and supervisor (or partner) both pinned to cpu");
        p.put(
                FloorCost.UNPINNED,
                "child and supervisor (or partner) each free to migrate among the allowed CPUs (cpu_set)");
        p.put(
                FloorCost.SHARED_SET,
                "child and supervisor (or partner) each free to migrate among cpu and supervisor_cpu (cpu_set)");
        BROKER_PLACEMENTS = Collections.unmodifiableMap(p);
    }

    /**
     * @param timer back-to-back clock reads in ns, or null when none were taken (then {@code timer_cost_ns} is null)
     */
    static FloorCostSettings of(FloorCost.Options o, long[] timer, Host.LoadSampler loads) {
        return new FloorCostSettings(
                o.cpu(),
                o.supervisorCpu(),
                o.counts(),
                BROKER_PLACEMENTS,
                FloorCost.CODE_PLACEMENT,
                timer == null ? null : TimerCost.of(Stats.of(timer)),
                loads.summary(),
                ResultsFolder.javaVm());
    }

    /** What one clock read costs on the measuring CPU. */
    @JsonPropertyOrder({"median", "p99", "method"})
    record TimerCost(
            @JsonProperty("median") long median,
            @JsonProperty("p99") long p99,
            @JsonProperty("method") String method) {
        static TimerCost of(Stats.Summary s) {
            return new TimerCost(
                    s.median(),
                    s.p99(),
                    "back-to-back clock_gettime(CLOCK_MONOTONIC) in a fresh runner on the measuring CPU");
        }
    }
}
