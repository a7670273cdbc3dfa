package heimdall.lab.reproduce.graphlookup;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.sys.Host;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * graph-lookup's own facts in {@code environment.json}, after the times and the host.
 *
 * @param external the imported graph files, or null when only the built-in graphs ran
 * @param graphs each imported graph's digests, pinned or not
 * @param auto why the auto layout chose what it chose, per graph
 */
@JsonPropertyOrder({
    "settings",
    "replay_cpu_granted",
    "layouts",
    "warm_preparation_ms",
    "external",
    "graphs",
    "load_samples",
    "java",
    "timing",
    "jit_warmup",
    "auto"
})
record GraphLookupSettings(
        @JsonProperty("settings") GraphBenchSettings.Recorded settings,
        @JsonProperty("replay_cpu_granted") int replayCpuGranted,
        @JsonProperty("layouts") List<String> layouts,
        @JsonProperty("warm_preparation_ms") Map<String, Double> warmPreparationMs,
        @JsonProperty("external") List<String> external,
        @JsonProperty("graphs") Map<String, Provenance> graphs,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("java") String java,
        @JsonProperty("timing") String timing,
        @JsonProperty("jit_warmup") String jitWarmup,
        @JsonProperty("auto") Map<String, String> auto) {

    static GraphLookupSettings of(
            GraphBenchSettings s,
            int granted,
            List<String> layouts,
            Map<String, Double> warm,
            List<String> external,
            Map<String, Provenance> graphs,
            Host.LoadSampler loads,
            Map<String, String> auto) {
        return new GraphLookupSettings(
                s.recorded(),
                granted,
                layouts,
                warm,
                external,
                graphs,
                loads.summary(),
                ResultsFolder.javaVm(),
                "System.nanoTime around one Cursor.replay of the whole trace per layout per batch",
                String.format(
                        Locale.ROOT,
                        "before each case's warm-up batch: %d untimed replays of the trace's first %d events per "
                                + "layout, "
                                + "then a wait until the JIT is idle for 100 ms (at most 2 s)",
                        CaseReplay.JIT_WARMUP_CALLS,
                        CaseReplay.JIT_WARMUP_EVENTS),
                auto);
    }
}
