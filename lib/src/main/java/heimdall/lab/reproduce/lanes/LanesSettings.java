package heimdall.lab.reproduce.lanes;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.reproduce.graphlookup.GraphBenchSettings;
import heimdall.lab.sys.Host;

/**
 * lanes' own facts in {@code environment.json}, after the times and the host; with the rows and the host,
 * everything its {@code table.md} is made from.
 */
@JsonPropertyOrder({"settings", "workload_graph", "input_file", "load_samples", "java", "timing"})
record LanesSettings(
        @JsonProperty("settings") GraphBenchSettings.Recorded settings,
        @JsonProperty("workload_graph") String workloadGraph,
        @JsonProperty("input_file") InputFile inputFile,
        @JsonProperty("load_samples") Host.LoadSampler.Summary loadSamples,
        @JsonProperty("java") String java,
        @JsonProperty("timing") String timing) {

    static LanesSettings of(GraphBenchSettings s, Host.LoadSampler loads) {
        return new LanesSettings(
                s.recorded(),
                "supplied by construction (LaneWorkload.graph): worker pread64 -> write loop, collector getrusage -> "
                        + "sched_yield loop",
                new InputFile(LaneWorkload.FILE_SIZE, LaneWorkload.BLOCK, "resident after the first batch"),
                loads.summary(),
                ResultsFolder.javaVm(),
                "System.nanoTime from the start latch's release to the last join; thread creation and file opening "
                        + "before it");
    }

    /** The file the workers read. */
    @JsonPropertyOrder({"bytes", "read_size", "page_cache"})
    record InputFile(
            @JsonProperty("bytes") int bytes,
            @JsonProperty("read_size") int readSize,
            @JsonProperty("page_cache") String pageCache) {}
}
