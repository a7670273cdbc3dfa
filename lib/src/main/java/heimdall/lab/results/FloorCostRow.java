package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One row of {@code ./lab reproduce floor-cost}'s {@code summary.json}: a call under a floor (plain
 * rows), the same call answered by a supervisor (brokered rows: {@link Brokering}), or a reference
 * round trip without seccomp ({@code reference}). Built from parts: what was timed ({@link Subject}),
 * how it was answered, how many runs, the {@link Figures} of the filtered run and of the unfiltered
 * one, and the cross-row {@link Ratios}. {@link FlatRows} writes the parts' fields
 * flat, in this order, under the keys every folder has; a field a row kind or an older folder does
 * not have is null. Times are nanoseconds; {@code added_ns} is the median minus the median of the
 * same call with no filter, measured under {@code baseline_row}. The {@code *_call_floor*} ratios
 * (a round trip over the ping-pong that then makes the call) are missing in folders made before them.
 *
 * <p>A part never reads as null: an absent one is its {@code NONE} (every field null).
 *
 * @param subject the call and the floor it runs under
 * @param reference what a reference row times instead ({@code "pipe ping-pong"}), or null
 * @param brokering who answers a brokered row's calls, and where it runs
 * @param outcome {@code status}: ok, interrupted, failed or not measured
 * @param failure why the row failed, or null
 * @param runs the runs asked and completed
 * @param filtered the figures of every filtered sample
 * @param unfiltered the figures of the same call with no filter (empty where another row's baseline is shared)
 * @param addedNs the filtered median minus the unfiltered one
 * @param baselineRow the row whose unfiltered samples are this row's baseline (null: none)
 * @param loadAvgRuns each run's load average
 * @param cpuGranted CPU time the measured child was granted
 * @param supervisorServed notifications the supervisor answered (brokered rows)
 * @param published the published row's figures beside ours (null: none)
 * @param addedVsPublished {@code added_ns} over the published added cost
 * @param ratios the figures that compare this row with others (floor-cost adds them once every row is measured)
 * @param intervals the median's, p99's and added cost's confidence intervals, after every other key ({@link
 * RowIntervals#NONE}: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record FloorCostRow(
        @Flat Subject subject,
        @JsonProperty("reference") String reference,
        @Flat Brokering brokering,
        @JsonProperty(value = "status", required = true) RowStatus outcome,
        @JsonProperty("failure") String failure,
        @Flat Runs runs,
        @Flat Figures filtered,
        @Flat(tag = "none", omit = "noisy") Figures unfiltered,
        @JsonProperty("added_ns") Long addedNs,
        @JsonProperty("baseline_row") Long baselineRow,
        @JsonProperty("load_avg_runs") List<Double> loadAvgRuns,
        @JsonProperty("cpu_granted") Long cpuGranted,
        @JsonProperty("supervisor_served") Long supervisorServed,
        @JsonProperty("published") PublishedFloorRow published,
        @JsonProperty("added_vs_published") Double addedVsPublished,
        @Flat Ratios ratios,
        @Flat RowIntervals intervals)
        implements MeasuredCallRow {

    /** Absent parts are their {@code NONE}, so a reader never meets a null part. */
    public FloorCostRow {
        if (subject == null) {
            throw new IllegalArgumentException("a floor-cost row names its call and floor");
        }
        brokering = brokering == null ? Brokering.NONE : brokering;
        runs = runs == null ? Runs.NONE : runs;
        filtered = filtered == null ? Figures.NONE : filtered;
        unfiltered = unfiltered == null ? Figures.NONE : unfiltered;
        ratios = ratios == null ? Ratios.NONE : ratios;
        intervals = intervals == null ? RowIntervals.NONE : intervals;
    }

    /**
     * The fields floor-cost and host-load write as null when not measured (FloorSummary writes them
     * in every row); the others are left out when null (a row kind without them).
     */
    static final Set<String> MEASURED_NULLS = Set.of(
            "cache",
            "failure",
            "median_ns",
            "p99_ns",
            "spread",
            "noisy",
            "median_none_ns",
            "p99_none_ns",
            "added_ns",
            "baseline_row",
            "published",
            "added_vs_published");

    @Override
    public Set<String> nullsWritten() {
        return MEASURED_NULLS;
    }

    @Override
    public FloorCostRow measured() {
        return this;
    }

    /** This row with {@code ratios} in place of its own. */
    public FloorCostRow withRatios(Ratios ratios) {
        return with(ratios, intervals);
    }

    /** This row with {@code intervals} in place of its own. */
    public FloorCostRow withIntervals(RowIntervals intervals) {
        return with(ratios, intervals);
    }

    /** This row with the two parts added once its figures are known: the cross-row ratios and the intervals. */
    private FloorCostRow with(Ratios ratios, RowIntervals intervals) {
        return new FloorCostRow(
                subject,
                reference,
                brokering,
                outcome,
                failure,
                runs,
                filtered,
                unfiltered,
                addedNs,
                baselineRow,
                loadAvgRuns,
                cpuGranted,
                supervisorServed,
                published,
                addedVsPublished,
                ratios,
                intervals);
    }

    @Override
    public List<String> labelParts() {
        List<String> parts = new ArrayList<>(List.of(subject.what(), subject.call()));
        Brokering b = brokering;
        if (b.supervisor() != null) {
            parts.add(b.supervisor().label());
        }
        if (b.answer() != null) {
            parts.add(b.answer().label());
        }
        if (b.placement() != null) {
            parts.add(b.placement().label());
        }
        if (Boolean.TRUE.equals(b.syncWakeup())) {
            parts.add("sync wake-up");
        }
        return parts;
    }

    /** Whether a supervisor answered this row's calls (a brokered row). */
    public boolean brokered() {
        return brokering.supervisor() != null;
    }

    /**
     * How the rows of floor-cost's paired round trips begin their {@code what}: the notify loop and the
     * supervisors on one filter, measured in rounds back to back for their ratio, not for the main table's
     * comparisons (the charts of the rows leave them out; their own chart and section show them).
     */
    public static final String PAIRED = "paired round trips: ";

    /** Whether this is a row of floor-cost's paired round trips ({@link #PAIRED}). */
    public boolean paired() {
        return subject.what().startsWith(PAIRED);
    }

    /** Whether this is a reference row: the host's floor for a round trip (a pipe ping-pong), no seccomp. */
    public boolean isReference() {
        return reference != null;
    }

    /** Whether the row is measured in the published placement: the supervisor on its own CPU, no sync wake-up. */
    public boolean defaultPlacement() {
        return (brokering.placement() == null || brokering.placement() == Placement.OWN_CPU)
                && !Boolean.TRUE.equals(brokering.syncWakeup());
    }

    /** The supervisor as summary.json spells it ({@code "native"}, {@code "java"}), or null (tables, notebooks). */
    public String supervisor() {
        return brokering.supervisor() == null ? null : brokering.supervisor().label();
    }

    /** The answer as summary.json spells it ({@code "continue"}, {@code "broker"}), or null. */
    public String answer() {
        return brokering.answer() == null ? null : brokering.answer().label();
    }

    /** The placement as summary.json spells it ({@code "own CPU"}, ...), or null. */
    public String placement() {
        return brokering.placement() == null ? null : brokering.placement().label();
    }

    /** Whether the supervisor was woken synchronously (null: not brokered). */
    public Boolean syncWakeup() {
        return brokering.syncWakeup();
    }

    /**
     * What was timed: the row's name, the call, the floor (by its published name), its programs and
     * the instructions they run for the call, and whether the action cache answers it (null: no filter).
     */
    public record Subject(
            @JsonProperty(value = "what", required = true) String what,
            @JsonProperty(value = "call", required = true) String call,
            @JsonProperty(value = "floor", required = true) String floor,
            @JsonProperty("programs") Long programs,
            @JsonProperty("insns") Long insns,
            @JsonProperty("cache") Boolean cache) {}

    /**
     * Who answers a brokered row's calls and where the two run; a reference row has only the
     * placement ({@code supervisor}, {@code answer} and {@code sync_wakeup} null).
     *
     * @param supervisorCpu the supervisor's CPU, -1 unpinned
     * @param cpuSet the CPUs both may run on, as a mask (0: pinned)
     */
    public record Brokering(
            @JsonProperty("supervisor") Supervisor supervisor,
            @JsonProperty("answer") Answer answer,
            @JsonProperty("placement") Placement placement,
            @JsonProperty("supervisor_cpu") Long supervisorCpu,
            @JsonProperty("sync_wakeup") Boolean syncWakeup,
            @JsonProperty("cpu_set") Long cpuSet) {
        /** Not brokered. */
        public static final Brokering NONE = new Brokering(null, null, null, null, null, null);
    }

    /** How many runs were asked and completed (filtered, and without the filter), and whether a stop cut them. */
    public record Runs(
            @JsonProperty("runs_asked") Long runsAsked,
            @JsonProperty("runs_completed") Long runsCompleted,
            @JsonProperty("runs_none_completed") Long runsNoneCompleted,
            @JsonProperty("interrupted") Boolean interrupted) {
        /** No runs recorded. */
        public static final Runs NONE = new Runs(null, null, null, null);
    }

    /**
     * The figures over every sample of one run kind: median, p99, each run's median, count, spread and
     * whether noisy. The unfiltered run's are the same under {@code _none} names ({@code median_none_ns},
     * {@code samples_none}), without the noisy flag.
     */
    public record Figures(
            @JsonProperty("median_ns") Long medianNs,
            @JsonProperty("p99_ns") Long p99Ns,
            @JsonProperty("run_medians_ns") List<Long> runMediansNs,
            @JsonProperty("samples") Long samples,
            @JsonProperty("spread") Double spread,
            @JsonProperty("noisy") Boolean noisy) {
        /** Not measured. */
        public static final Figures NONE = new Figures(null, null, null, null, null, null);
    }

    /**
     * The figures that compare a row with others: a Java supervisor's median over its native twin's,
     * a faster placement's over the default one's, and each round trip against the host's floors
     * (see {@code FloorCostRatios.addRatios}). Null where they do not apply.
     *
     * <p>Issue 32's keys, after the others (absent from older folders): on a notify-loop row,
     * {@code loop_wall_ns}, the loop timed as the kernel's benchmark times it (the loop's own clock over
     * the timed calls, per call: a mean), and {@code loop_mean_ns}, the mean of the child's own per-call
     * times, to set beside it; on a brokered row, {@code loop_floor_ns}, the round trip of the notify loop
     * in the same placement and wake-up (its {@code added_ns}: the trapped call less the call alone, each
     * call timed in the child, medians) and {@code round_trip_vs_loop_floor}, the row's {@code added_ns}
     * over it.
     */
    public record Ratios(
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
            @JsonProperty("round_trip_vs_best_call_floor") Double roundTripVsBestCallFloor,
            @JsonProperty("loop_wall_ns") Long loopWallNs,
            @JsonProperty("loop_mean_ns") Long loopMeanNs,
            @JsonProperty("loop_floor_ns") Long loopFloorNs,
            @JsonProperty("round_trip_vs_loop_floor") Double roundTripVsLoopFloor) {
        /** None computed. */
        public static final Ratios NONE = new Ratios(
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);

        /**
         * The twelve figures of folders made before issue 32's notify loop (its five keys absent).
         */
        public Ratios(
                Double javaOverNative,
                Double vsDefaultPlacement,
                Double vsBestFloor,
                Double vsBestCallFloor,
                Long floorNs,
                Double roundTripVsFloor,
                Long bestFloorNs,
                Double roundTripVsBestFloor,
                Long callFloorNs,
                Double roundTripVsCallFloor,
                Long bestCallFloorNs,
                Double roundTripVsBestCallFloor) {
            this(
                    javaOverNative,
                    vsDefaultPlacement,
                    vsBestFloor,
                    vsBestCallFloor,
                    floorNs,
                    roundTripVsFloor,
                    bestFloorNs,
                    roundTripVsBestFloor,
                    callFloorNs,
                    roundTripVsCallFloor,
                    bestCallFloorNs,
                    roundTripVsBestCallFloor,
                    null,
                    null,
                    null,
                    null);
        }

        /**
         * Only the notify loop's own figures, as measured ({@code loop_wall_ns}, {@code loop_mean_ns}); the
         * cross-row ones follow.
         */
        public static Ratios loop(Long loopWallNs, Long loopMeanNs) {
            return loopWallNs == null && loopMeanNs == null
                    ? NONE
                    : new Ratios(
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            null,
                            loopWallNs,
                            loopMeanNs,
                            null,
                            null);
        }
    }

    /** Which supervisor answered, as summary.json spells it ({@code "native"}, {@code "java"}). */
    public enum Supervisor {
        NATIVE,
        JAVA;

        /** As written. */
        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the supervisor answered: {@code "continue"} (the bare round trip) or {@code "broker"} (open and inject). */
    public enum Answer {
        CONTINUE,
        BROKER;

        /** As written. */
        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where the supervisor (or a reference row's partner) runs beside the child. */
    public enum Placement {
        /** On a CPU of its own: the published placement. */
        OWN_CPU,
        /** On the child's CPU. */
        CHILDS_CPU,
        /** Neither pinned. */
        UNPINNED,
        /** Both on a shared set of CPUs. */
        SHARED_SET;

        /** As written: {@code "own CPU"}, {@code "child's CPU"}, {@code "unpinned"}, {@code "shared set"}. */
        @JsonValue
        public String label() {
            return switch (this) {
                case OWN_CPU -> "own CPU";
                case CHILDS_CPU -> "child's CPU";
                case UNPINNED -> "unpinned";
                case SHARED_SET -> "shared set";
            };
        }

        /** The placement {@code label} names; IllegalArgumentException for another. */
        public static Placement of(String label) {
            return Arrays.stream(values())
                    .filter(p -> p.label().equals(label))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown placement \"" + label + "\""));
        }
    }
}
