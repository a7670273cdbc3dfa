package heimdall.lab.reproduce.kernelmatrix;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.ResultsFolder;
import java.util.List;

/** kernel-matrix's own facts in {@code environment.json}, after the times and the host (the host's part's kernel). */
@JsonPropertyOrder({
    "kernels",
    "quick",
    "floor_counts",
    "follower",
    "supervisor_cpu",
    "guest_deadline_minutes",
    "guests",
    "java"
})
record KernelMatrixSettings(
        @JsonProperty("kernels") List<String> kernels,
        @JsonProperty("quick") boolean quick,
        @JsonProperty("floor_counts") FloorBench.Counts floorCounts,
        @JsonProperty("follower") Follower follower,
        @JsonProperty("supervisor_cpu") int supervisorCpu,
        @JsonProperty("guest_deadline_minutes") long guestDeadlineMinutes,
        @JsonProperty("guests") List<GuestPart.Guest> guests,
        @JsonProperty("java") String java) {

    /** follower-cost's options as run in every kernel's part. */
    record Follower(
            @JsonProperty("runs") int runs,
            @JsonProperty("warmup") long warmup,
            @JsonProperty("count") long count,
            @JsonProperty("cpu") int cpu) {}

    static KernelMatrixSettings of(KernelMatrix.Options o, List<GuestPart.Guest> guests) {
        var f = o.follower();
        return new KernelMatrixSettings(
                o.kernels(),
                o.quick(),
                o.floor(),
                new Follower(f.runs(), f.warmup(), f.count(), f.cpu()),
                o.supervisorCpu(),
                o.guestMinutes(),
                List.copyOf(guests),
                ResultsFolder.javaVm());
    }
}
