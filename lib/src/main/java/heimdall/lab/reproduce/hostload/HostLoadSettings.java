package heimdall.lab.reproduce.hostload;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.load.LoadGenerator;
import heimdall.lab.load.Worker;
import heimdall.lab.reproduce.floorcost.FloorCost;
import heimdall.lab.sys.Host;
import java.util.List;

/** host-load's own facts in {@code environment.json}, after the times and the host. */
@JsonPropertyOrder({
    "cpu",
    "counts",
    "code_placement",
    "settle_ms",
    "load_asked",
    "load_ran",
    "load_samples_idle",
    "load_samples_loaded",
    "java"
})
record HostLoadSettings(
        @JsonProperty("cpu") int cpu,
        @JsonProperty("counts") FloorBench.Counts counts,
        @JsonProperty("code_placement") String codePlacement,
        @JsonProperty("settle_ms") long settleMs,
        @JsonProperty("load_asked") List<String> loadAsked,
        @JsonProperty("load_ran") LoadGenerator.Report loadRan,
        @JsonProperty("load_samples_idle") LoadSamples loadSamplesIdle,
        @JsonProperty("load_samples_loaded") LoadSamples loadSamplesLoaded,
        @JsonProperty("java") String java) {

    static HostLoadSettings of(
            HostLoad.Options o, LoadGenerator.Report report, Host.LoadSampler idle, Host.LoadSampler loaded) {
        return new HostLoadSettings(
                o.cpu(),
                o.counts(),
                FloorCost.CODE_PLACEMENT,
                o.settleMs(),
                o.load().stream().map(Worker::toString).toList(),
                report,
                LoadSamples.of(idle),
                LoadSamples.of(loaded),
                ResultsFolder.javaVm());
    }

    /** The 1-minute load averages sampled around one half's runs, and the runnable task count of each sample. */
    @JsonPropertyOrder({"summary", "runnable"})
    record LoadSamples(
            @JsonUnwrapped Host.LoadSampler.Summary summary,
            @JsonProperty("runnable") List<Integer> runnable) {
        static LoadSamples of(Host.LoadSampler s) {
            return new LoadSamples(
                    s.summary(),
                    s.samples().stream().map(Host.LoadAverage::runnable).toList());
        }
    }
}
