package heimdall.lab.reproduce.kernelbitmap;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.Host;
import java.util.List;

/**
 * kernel-bitmap's own facts in {@code environment.json}, after the times and the host: with the rows,
 * everything its table is made from ({@code load_per_round}, appended last, is each round's load average).
 */
@JsonPropertyOrder({"cpu", "options", "timer_cost_ns", "load_samples", "methods", "java", "load_per_round"})
record KernelBitmapSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("options") KernelBitmap.Options options,
        @JsonProperty("timer_cost_ns") long timerCostNs,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("methods") Methods methods,
        @JsonProperty("java") String java,
        @JsonProperty("load_per_round") List<Double> loadPerRound) {

    static KernelBitmapSettings of(KernelBitmap.Measurement m, Host.LoadSampler loads) {
        return new KernelBitmapSettings(
                m.options().cpu(),
                m.options(),
                m.timerNs(),
                loads.summary(),
                Methods.WRITTEN,
                ResultsFolder.javaVm(),
                m.loadPerRound());
    }

    /** How each figure is measured and judged. */
    @JsonPropertyOrder({"loops", "per_call", "batch", "selftests_method", "spread", "estimates", "rules", "rounds"})
    record Methods(
            @JsonProperty("loops") String loops,
            @JsonProperty("per_call") String perCall,
            @JsonProperty("batch") String batch,
            @JsonProperty("selftests_method") String selftestsMethod,
            @JsonProperty("spread") String spread,
            @JsonProperty("estimates") String estimates,
            @JsonProperty("rules") String rules,
            @JsonProperty("rounds") String rounds) {
        static final Methods WRITTEN = new Methods(
                "bare: a bare syscall instruction inlined in the timed loop (fields without a prefix); selftest: "
                        + "the kernel selftest's loop, glibc's syscall(__NR_getpid) with each result compared with "
                        + "the pid (fields "
                        + "prefixed selftest_); each loop's runs rotate through 4 code placements (16-byte steps in "
                        + "a 64-byte line)",
                "a fresh runner per run pins itself, installs the configuration and times each getpid alone "
                        + "with clock_gettime(CLOCK_MONOTONIC) (vDSO); each run's median is interpolated within the "
                        + "clock's step; "
                        + "per_call_ns is the median run's (also given: each run's, each placement's, and median_ns, "
                        + "the plain median over all samples)",
                "a fresh runner per run, one clock_gettime pair around all calls, CLOCK_PROCESS_CPUTIME_ID (batch_*, "
                        + "the selftest's clock) or CLOCK_MONOTONIC (batch_monotonic_*); ns per call = total / calls "
                        + "rounded down; "
                        + "the figure is the median run's",
                "the selftest loop, batch, CLOCK_PROCESS_CPUTIME_ID: the reference every other method's "
                        + "entry and per-filter estimates are compared with (within 20%)",
                "<method>_spread = (max - min) / median of its runs' figures; <method>_noisy when over 25%",
                "for each method, the selftest's estimates are taken round by round from that round's runs, and each "
                        + "estimate is the median over the rounds; the configuration figures the expectations are "
                        + "judged on are built: "
                        + "the native median, and the native median plus each configuration's median overhead",
                "expectations judged by the 2020 selftest (≈ within 1% or 2 ns; the version that printed the "
                        + "published output) and by the later one (≈ within 10% or 2 ns)",
                "each round runs every configuration every way in a rotated order, all at one code placement of "
                        + "the timed loop (0..3: 16-byte steps within a 64-byte line), the next round at the next "
                        + "placement");
    }
}
