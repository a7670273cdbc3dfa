package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce floor-cost}'s {@code summary.json}: a call under a floor (plain
 * rows), the same call answered by a supervisor (brokered rows: {@code supervisor}, {@code answer},
 * {@code placement}, ...), or a reference round trip without seccomp ({@code reference}). Components
 * are the JSON's fields, in the order the reproduction writes them; a field a row kind or an older
 * folder does not have is null. Times are nanoseconds; {@code added_ns} is the median minus the
 * median of the same call with no filter ({@code median_none_ns}, measured under {@code baseline_row}).
 * The {@code *_call_floor*} fields (a round trip over the ping-pong that then makes the call) come
 * from the roundtrip work merged on main; folders before it lack them.
 */
public record FloorCostRow(
        @JsonProperty(value = "what", required = true) String what,
        @JsonProperty(value = "call", required = true) String call,
        @JsonProperty(value = "floor", required = true) String floor,
        @JsonProperty("programs") Long programs,
        @JsonProperty("insns") Long insns,
        @JsonProperty("cache") Boolean cache,
        @JsonProperty("reference") String reference,
        @JsonProperty("supervisor") String supervisor,
        @JsonProperty("answer") String answer,
        @JsonProperty("placement") String placement,
        @JsonProperty("supervisor_cpu") Long supervisorCpu,
        @JsonProperty("sync_wakeup") Boolean syncWakeup,
        @JsonProperty("cpu_set") Long cpuSet,
        @JsonProperty(value = "status", required = true) String status,
        @JsonProperty("failure") String failure,
        @JsonProperty("runs_asked") Long runsAsked,
        @JsonProperty("runs_completed") Long runsCompleted,
        @JsonProperty("runs_none_completed") Long runsNoneCompleted,
        @JsonProperty("interrupted") Boolean interrupted,
        @JsonProperty("median_ns") Long medianNs,
        @JsonProperty("p99_ns") Long p99Ns,
        @JsonProperty("run_medians_ns") List<Long> runMediansNs,
        @JsonProperty("samples") Long samples,
        @JsonProperty("spread") Double spread,
        @JsonProperty("noisy") Boolean noisy,
        @JsonProperty("median_none_ns") Long medianNoneNs,
        @JsonProperty("p99_none_ns") Long p99NoneNs,
        @JsonProperty("run_medians_none_ns") List<Long> runMediansNoneNs,
        @JsonProperty("samples_none") Long samplesNone,
        @JsonProperty("spread_none") Double spreadNone,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("baseline_row") Long baselineRow,
        @JsonProperty("load_avg_runs") List<Double> loadAvgRuns,
        @JsonProperty("cpu_granted") Long cpuGranted,
        @JsonProperty("supervisor_served") Long supervisorServed,
        @JsonProperty("published") PublishedFloorRow published,
        @JsonProperty("added_vs_published") Double addedVsPublished,
        @JsonProperty("java_over_native") Double javaOverNative,
        @JsonProperty("vs_default_placement") Double vsDefaultPlacement,
        @JsonProperty("vs_best_floor") Double vsBestFloor,
        @JsonProperty("vs_best_call_floor") Double vsBestCallFloor,
        @JsonProperty("floor_ns") Long floorNs,
        @JsonProperty("round_trip_vs_floor") Double roundTripVsFloor,
        @JsonProperty("best_floor_ns") Long bestFloorNs,
        @JsonProperty("round_trip_vs_best_floor") Double roundTripVsBestFloor,
        @JsonProperty("call_floor_ns") Long callFloorNs,
        @JsonProperty("round_trip_vs_call_floor") Double roundTripVsCallFloor,
        @JsonProperty("best_call_floor_ns") Long bestCallFloorNs,
        @JsonProperty("round_trip_vs_best_call_floor") Double roundTripVsBestCallFloor) implements MeasuredCallRow {

    /**
     * The fields floor-cost and host-load write as null when not measured (FloorSummary writes them
     * in every row); the others are left out when null (a row kind without them).
     */
    static final Set<String> MEASURED_NULLS = Set.of("cache", "failure", "median_ns", "p99_ns", "spread", "noisy",
            "median_none_ns", "p99_none_ns", "added_ns", "baseline_row", "published", "added_vs_published");

    @Override
    public Set<String> nullsWritten() {
        return MEASURED_NULLS;
    }

    @Override
    public List<String> labelParts() {
        List<String> parts = new ArrayList<>(List.of(what, call));
        if (supervisor != null) {
            parts.add(supervisor);
        }
        if (answer != null) {
            parts.add(answer);
        }
        if (placement != null) {
            parts.add(placement);
        }
        if (Boolean.TRUE.equals(syncWakeup)) {
            parts.add("sync wake-up");
        }
        return parts;
    }

    /** Whether a supervisor answered this row's calls (a brokered row). */
    public boolean brokered() {
        return supervisor != null;
    }

    /** Whether this is a reference row: the host's floor for a round trip (a pipe ping-pong), no seccomp. */
    public boolean isReference() {
        return reference != null;
    }

    /** Whether the row is measured in the published placement: the supervisor on its own CPU, no sync wake-up. */
    public boolean defaultPlacement() {
        return (placement == null || "own CPU".equals(placement)) && !Boolean.TRUE.equals(syncWakeup);
    }
}
