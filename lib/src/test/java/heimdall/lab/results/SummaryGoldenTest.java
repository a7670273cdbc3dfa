package heimdall.lab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.fixtures.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * summary.json's format, pinned both ways: every committed folder of every reproduction, read into
 * rows and written again by {@link SummaryJson#summary}, is the file it was: the same keys in the
 * same order, the same values with the same JSON types (a whole number stays whole, a float keeps
 * its point), row by row, and for schema 2 the same top-level keys too; a row of a folder made before
 * a field existed may gain it as null, nothing else. Schema 1 folders (a bare array, written before
 * rows were records) had an order and nulls of their own: their non-null fields are compared sorted.
 * And the flat keys of the rows built from parts, literally, as every folder has them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SummaryGoldenTest {

    @Test
    void everyCommittedSummaryIsWrittenBackAsItWas() throws IOException {
        Set<String> kinds = new java.util.TreeSet<>();
        int rows = 0;
        try (var list = Files.list(Fixtures.resultsRoot())) {
            for (Path dir : list.filter(Files::isDirectory).sorted().toList()) {
                String name = dir.getFileName().toString();
                if (!Files.isRegularFile(dir.resolve("summary.json")) || name.equals("published")) {
                    continue;
                }
                JsonNode raw =
                        SummaryJson.JSON.readTree(dir.resolve("summary.json").toFile());
                Summary s = SummaryJson.read(dir);
                JsonNode back = SummaryJson.summary(s.kind().name(), s.interruption(), s.signal(), s.rows());
                JsonNode rawRows = raw.isArray() ? raw : raw.get("rows");
                if (raw.isObject()) {
                    assertEquals(keys(raw), keys(back), name + ": top-level keys");
                    for (String k : keys(raw)) {
                        if (!k.equals("rows")) {
                            assertEquals(raw.get(k).toString(), back.get(k).toString(), name + ": " + k);
                        }
                    }
                }
                assertEquals(rawRows.size(), back.get("rows").size(), name);
                for (int i = 0; i < rawRows.size(); i++) {
                    JsonNode want = rawRows.get(i);
                    JsonNode got = withoutNullsAdded(back.get("rows").get(i), want);
                    if (s.schemaVersion() == 1) {
                        // written before rows were records, in an order and with nulls of their own: the same
                        // figures, sorted
                        want = sorted(want);
                        got = sorted(got);
                    }
                    assertEquals(keys(want), keys(got), name + " row " + i + ": keys and their order");
                    // toString keeps each value's JSON type: 5 and 5.0, "5" and 5 differ
                    assertEquals(want.toString(), got.toString(), name + " row " + i);
                    rows++;
                }
                kinds.add(s.kind().name());
            }
        }
        // explore-check is the one kind no folder was committed of (its row type is new with the registry)
        Set<String> every = new java.util.TreeSet<>();
        ReproductionKind.all().forEach(k -> every.add(k.name()));
        every.remove("explore-check");
        assertEquals(every, kinds, "a committed folder of every kind is compared");
        assertTrue(rows > 500, rows + " rows compared");
    }

    /**
     * {@code got} less the null fields {@code want} does not have: a folder made before a field existed
     * lacks it, and its row, written again, names it null (as the reproduction writes it today).
     */
    private static JsonNode withoutNullsAdded(JsonNode got, JsonNode want) {
        var copy = ((com.fasterxml.jackson.databind.node.ObjectNode) got).deepCopy();
        for (String k : keys(got)) {
            if (!want.has(k) && got.get(k).isNull()) {
                copy.remove(k);
            }
        }
        return copy;
    }

    /** {@code row}'s non-null fields, sorted by name. */
    private static JsonNode sorted(JsonNode row) {
        var out = SummaryJson.JSON.createObjectNode();
        keys(row).stream().sorted().filter(k -> !row.get(k).isNull()).forEach(k -> out.set(k, row.get(k)));
        return out;
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** The 53 flat keys of a floor-cost row, in the order floor-cost writes them. */
    static final List<String> FLOOR_COST_KEYS = List.of(
            "what",
            "call",
            "floor",
            "programs",
            "insns",
            "cache",
            "reference",
            "supervisor",
            "answer",
            "placement",
            "supervisor_cpu",
            "sync_wakeup",
            "cpu_set",
            "status",
            "failure",
            "runs_asked",
            "runs_completed",
            "runs_none_completed",
            "interrupted",
            "median_ns",
            "p99_ns",
            "run_medians_ns",
            "samples",
            "spread",
            "noisy",
            "median_none_ns",
            "p99_none_ns",
            "run_medians_none_ns",
            "samples_none",
            "spread_none",
            "added_ns",
            "baseline_row",
            "load_avg_runs",
            "cpu_granted",
            "supervisor_served",
            "published",
            "added_vs_published",
            "java_over_native",
            "vs_default_placement",
            "vs_best_floor",
            "vs_best_call_floor",
            "floor_ns",
            "round_trip_vs_floor",
            "best_floor_ns",
            "round_trip_vs_best_floor",
            "call_floor_ns",
            "round_trip_vs_call_floor",
            "best_call_floor_ns",
            "round_trip_vs_best_call_floor",
            // the kernel's notify loop (issue 32): after every earlier key, absent from older folders
            "loop_wall_ns",
            "loop_mean_ns",
            "loop_floor_ns",
            "round_trip_vs_loop_floor");

    /** The interval keys appended after every other key of a measured row (RowIntervals). */
    static final List<String> INTERVAL_KEYS = List.of(
            "median_ci_low_ns",
            "median_ci_high_ns",
            "median_ci_level",
            "median_ci_coverage",
            "median_ci_runs",
            "p99_ci_low_ns",
            "p99_ci_high_ns",
            "p99_ci_level",
            "p99_ci_coverage",
            "p99_ci_runs",
            "added_ci_low_ns",
            "added_ci_high_ns",
            "added_ci_level",
            "added_ci_coverage",
            "added_ci_runs");

    @Test
    void floorCostAndHostLoadRowsHaveTheirFlatKeys() {
        List<String> floorCost = new ArrayList<>(FLOOR_COST_KEYS);
        floorCost.addAll(INTERVAL_KEYS);
        assertEquals(floorCost, FlatRows.keys(FloorCostRow.class, ""));
        List<String> hostLoad = new ArrayList<>(List.of("load"));
        hostLoad.addAll(FLOOR_COST_KEYS); // the measured row's own intervals are not written: the host-load row's are
        hostLoad.addAll(List.of("run_p99_ns", "twin_row"));
        hostLoad.addAll(INTERVAL_KEYS);
        assertEquals(hostLoad, FlatRows.keys(HostLoadRow.class, ""));
    }

    /**
     * A fresh row with intervals writes them after every other key, with their JSON types (whole
     * nanoseconds and runs, fractional levels), and reads back equal; the same row without them writes
     * none of those keys.
     */
    @Test
    void aFreshRowWritesItsIntervalsLastAndReadsThemBack() {
        long[][] runs = {{100, 110, 120}, {105, 115, 125}, {98, 108, 400}};
        long[][] none = {{80, 90, 100}, {85, 95, 99}, {79, 88, 97}};
        RowIntervals ci = RowIntervals.of(heimdall.lab.stats.Intervals.of(runs, none, 0.95), 3, 3);
        FloorCostRow bare = new FloorCostRow(
                new FloorCostRow.Subject("static floor, abcdf", "getppid", "static floor, abcdf", 1L, 10L, true),
                null,
                null,
                RowStatus.OK,
                null,
                new FloorCostRow.Runs(3L, 3L, 3L, false),
                new FloorCostRow.Figures(110L, 400L, List.of(110L, 115L, 108L), 9L, 0.064, false),
                new FloorCostRow.Figures(90L, 100L, List.of(90L, 95L, 88L), 9L, 0.078, null),
                20L,
                0L,
                List.of(2.1, 2.3, 2.4),
                1L,
                null,
                null,
                null,
                null,
                null);
        FloorCostRow row = bare.withIntervals(ci);
        JsonNode tree = SummaryJson.tree(row);
        List<String> written = keys(tree);
        assertEquals(INTERVAL_KEYS, written.subList(written.size() - INTERVAL_KEYS.size(), written.size()));
        assertTrue(tree.get("median_ci_low_ns").isIntegralNumber()
                && tree.get("median_ci_runs").isIntegralNumber());
        assertTrue(
                tree.get("median_ci_level").isFloatingPointNumber()
                        && tree.get("added_ci_coverage").isFloatingPointNumber(),
                tree.toString());
        assertEquals(0.95, tree.get("median_ci_level").asDouble());
        assertEquals(0.75, tree.get("median_ci_coverage").asDouble(), "3 runs reach 75% for a median");
        assertTrue(tree.get("median_ci_low_ns").asLong() <= 110
                && 110 <= tree.get("median_ci_high_ns").asLong());
        FloorCostRow back = SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, FloorCostRow.class);
        assertEquals(row, back);
        assertTrue(
                keys(SummaryJson.tree(bare)).stream().noneMatch(k -> k.contains("_ci_")),
                "a row without intervals (a committed folder's) writes none of their keys");
        assertEquals(
                RowIntervals.NONE,
                SummaryJson.row(Path.of("summary.json"), "rows[0]", SummaryJson.tree(bare), FloorCostRow.class)
                        .intervals(),
                "a row without their keys reads back with no interval");
    }

    @Test
    void kernelBitmapConfigurationsHaveTheirFlatKeys() {
        List<String> perCall = List.of(
                "per_call_ns",
                "run_medians_interpolated_ns",
                "run_placements",
                "per_call_ns_by_placement",
                "per_call_spread",
                "per_call_noisy",
                "median_ns",
                "p99_ns",
                "run_medians_ns",
                "samples");
        List<String> batch = List.of(
                "ns_per_call",
                "run_ns_per_call",
                "run_placements",
                "ns_per_call_by_placement",
                "spread",
                "noisy",
                "fastest_ns_per_call",
                "totals_ns");
        List<String> loop = new ArrayList<>(perCall);
        batch.forEach(k -> loop.add("batch_monotonic_" + k));
        batch.forEach(k -> loop.add("batch_" + k));
        List<String> want = new ArrayList<>(List.of("section", "what", "filters", "mode", "cache"));
        want.addAll(loop);
        loop.forEach(k -> want.add("selftest_" + k));
        want.addAll(List.of(
                "clock_step_ns",
                "batch_calls",
                "published_ns",
                "runs_asked",
                "runs_completed",
                "batch_runs_asked",
                "batch_runs_completed",
                "interrupted",
                "median_interpolated_ns",
                "batch_median_ns_per_call"));
        assertEquals(67, want.size());
        // then each loop's intervals, appended after them: the added cost and the per-call intervals, then each
        // batch clock's median interval
        List<String> intervals = new ArrayList<>(List.of("added_ns"));
        intervals.addAll(INTERVAL_KEYS);
        for (String clock : List.of("batch_monotonic_", "batch_")) {
            INTERVAL_KEYS.stream().filter(k -> k.startsWith("median_ci_")).forEach(k -> intervals.add(clock + k));
        }
        want.addAll(intervals);
        intervals.forEach(k -> want.add("selftest_" + k));
        assertEquals(67 + 2 * 26, want.size());
        assertEquals(want, FlatRows.keys(KernelBitmapRow.Configuration.class, ""));
    }

    /**
     * The 30 flat keys of a follower-cost row, in the order follower-cost writes them, then t_hook's 18, the empty
     * program's statistics 5, the split by step 48, then the intervals.
     */
    @Test
    void followerCostRowsHaveTheirFlatKeys() {
        List<String> want = new ArrayList<>(List.of(
                "what",
                "measure",
                "hook",
                "process",
                "floor",
                "call",
                "status",
                "reason",
                "median_without_ns",
                "median_with_ns",
                "added_ns",
                "p99_without_ns",
                "p99_with_ns",
                "run_medians_without_ns",
                "run_medians_with_ns",
                "spread_without",
                "spread_with",
                "noisy",
                "divergent_call_index",
                "calls_begun_after_kill",
                "calls_completed_from_divergence",
                "published",
                "program_runs",
                "program_run_time_ns",
                "program_ns_per_run",
                "program_stats_note",
                "program_timed_median_ns",
                "runs_asked",
                "runs_completed",
                "interrupted"));
        assertEquals(30, want.size());
        // t_hook (issue 32): appended after every earlier key, before the intervals; absent from older folders
        want.addAll(List.of(
                "empty_program", "median_hook_ns", "p99_hook_ns", "run_medians_hook_ns", "spread_hook", "hook_ns"));
        for (String k : List.of("low_ns", "high_ns", "level", "coverage", "runs")) {
            want.add("hook_ci_" + k);
        }
        want.add("own_ns");
        for (String k : List.of("low_ns", "high_ns", "level", "coverage", "runs")) {
            want.add("own_ci_" + k);
        }
        want.add("hook_refusal");
        // the empty program's statistics run: after t_hook, before the intervals; absent from older folders
        for (String k : List.of("runs", "run_time_ns", "ns_per_run", "stats_note", "timed_median_ns")) {
            want.add("empty_program_" + k);
        }
        // the own work split by step: after the empty program's statistics, before the intervals; absent from older
        // folders. Each partial step has its median, share, interval, count and refusal; the cell (the whole step)
        // only its share and interval (its median is median_with_ns, its count program_*).
        List<String> ci = List.of("ci_low_ns", "ci_high_ns", "ci_level", "ci_coverage", "ci_runs");
        for (String part : List.of("check", "cursor", "counters")) {
            want.addAll(
                    List.of("step_" + part + "_median_ns", "step_" + part + "_run_medians_ns", "step_" + part + "_ns"));
            ci.forEach(k -> want.add("step_" + part + "_" + k));
            for (String k : List.of("runs", "run_time_ns", "ns_per_run", "stats_note", "timed_median_ns")) {
                want.add("step_" + part + "_program_" + k);
            }
            want.add("step_" + part + "_refusal");
        }
        want.add("step_cell_ns");
        ci.forEach(k -> want.add("step_cell_" + k));
        assertEquals(30 + 18 + 5 + 3 * 14 + 6, want.size());
        want.addAll(INTERVAL_KEYS);
        assertEquals(want, FlatRows.keys(FollowerCostRow.class, ""));
    }

    /**
     * The 56 flat keys of a workload-cost row, in the order workload-cost writes them (no intervals part): the
     * keys of what a mechanism beyond a filter did come last, after the keys of earlier folders.
     */
    @Test
    void workloadCostRowsHaveTheirFlatKeys() {
        List<String> want = List.of(
                "workload",
                "stresses",
                "command",
                "mechanism",
                "supervisor",
                "answer",
                "placement",
                "status",
                "reason",
                "wall_median_ns",
                "wall_added_ns",
                "wall_runs_ns",
                "user_cpu_us",
                "system_cpu_us",
                "supervisor_cpu_us",
                "voluntary_switches",
                "involuntary_switches",
                "minor_faults",
                "major_faults",
                "calls_made",
                "notified",
                "ssb",
                "noisy",
                "ratio",
                "ratio_ci_low",
                "ratio_ci_high",
                "ratio_ci_level",
                "ratio_ci_coverage",
                "p_value",
                "verdict",
                "verdict_warning",
                "predicted_added_ns",
                "predicted_ratio",
                "residual_ns",
                "measured_added_low_ns",
                "measured_added_high_ns",
                "measured_added_cpu_ns",
                "prediction_within_interval",
                "residual_cause",
                "per_call_cached_ns",
                "per_call_program_ns",
                "per_call_program_insns",
                "round_trip_ns",
                "weighted_insns",
                "libseccomp_weighted_insns",
                "exit_changed_runs",
                "output_changed_runs",
                "killed_by",
                "runs_asked",
                "runs_completed",
                "interrupted",
                "brokered",
                "followed_calls",
                "follow_hook",
                "per_call_follow_ns",
                "landlock_abi",
                "landlock_ruleset");
        assertEquals(57, want.size());
        assertEquals(want, FlatRows.keys(WorkloadCostRow.class, ""));
        WorkloadCostRow refused = WorkloadCostRow.refused(
                new WorkloadCostRow.Subject("find-tree", "metadata", "find .", "podman", null, null, null),
                "killed by SIGSYS at newfstatat");
        JsonNode tree = SummaryJson.tree(refused);
        assertTrue(tree.has("reason") && !tree.has("wall_median_ns"), tree.toString());
        assertEquals(refused, SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, WorkloadCostRow.class));
    }

    /** The 20 flat keys of a kernel-matrix row, in the order kernel-matrix writes them, then the intervals. */
    @Test
    void kernelMatrixRowsHaveTheirFlatKeys() {
        List<String> want = new ArrayList<>(List.of(
                "kernel",
                "kernel_release",
                "emulated",
                "section",
                "what",
                "status",
                "reason",
                "since",
                "predicted",
                "observed",
                "agrees",
                "note",
                "median_unfiltered_ns",
                "median_ns",
                "added_ns",
                "added_ratio",
                "noisy",
                "runs_asked",
                "runs_completed",
                "interrupted"));
        assertEquals(20, want.size());
        want.addAll(INTERVAL_KEYS);
        assertEquals(want, FlatRows.keys(KernelMatrixRow.class, ""));
    }

    /**
     * A row without intervals ({@link RowIntervals#NONE}) writes none of their keys, exactly as a row
     * made before them, and reads back equal: an absent part is its {@code NONE}.
     */
    @Test
    void rowsWithoutIntervalsWriteNoneOfTheirKeysAndReadBackEqual() {
        FollowerCostRow refused = new FollowerCostRow(
                new FollowerCostRow.Subject(
                        "t_idle · seccomp-fentry · unrelated, floor",
                        FollowerCostRow.Measure.T_IDLE,
                        "seccomp-fentry",
                        "unrelated, floor",
                        "static floor, abcdf",
                        "getppid"),
                RowStatus.REFUSED,
                null,
                null,
                null,
                null,
                null,
                RunCounts.of(3, 0, false),
                null,
                null,
                RowIntervals.NONE);
        JsonNode tree = SummaryJson.tree(refused);
        assertEquals(
                List.of(
                        "what",
                        "measure",
                        "hook",
                        "process",
                        "floor",
                        "call",
                        "status",
                        "reason",
                        "runs_asked",
                        "runs_completed",
                        "interrupted"),
                keys(tree),
                "a refused row names its reason, null, and leaves out every other null");
        assertTrue(tree.get("reason").isNull());
        assertEquals("t_idle", tree.get("measure").textValue());
        assertEquals("refused", tree.get("status").textValue());
        assertEquals(refused, SummaryJson.row(Path.of("summary.json"), "rows[0]", tree, FollowerCostRow.class));

        KernelMatrixRow feature = new KernelMatrixRow(
                new KernelMatrixRow.Kernel("host", "6.18.0", false),
                KernelMatrixRow.Section.FEATURE,
                "action cache",
                RowStatus.NOT_OBSERVABLE,
                null,
                new KernelMatrixRow.Prediction("5.11", "yes", null, null),
                "no way to see it here",
                KernelMatrixRow.Figures.NONE,
                RunCounts.NONE,
                RowIntervals.NONE);
        JsonNode ft = SummaryJson.tree(feature);
        assertEquals(
                List.of(
                        "kernel",
                        "kernel_release",
                        "emulated",
                        "section",
                        "what",
                        "status",
                        "since",
                        "predicted",
                        "observed",
                        "agrees",
                        "note"),
                keys(ft),
                "a feature row names its observation, null, when nothing was observed");
        assertEquals("not observable", ft.get("status").textValue());
        assertEquals("feature", ft.get("section").textValue());
        assertEquals(feature, SummaryJson.row(Path.of("summary.json"), "rows[0]", ft, KernelMatrixRow.class));
    }

    /**
     * The flat keys of an explore-check row, in the order explore check writes them (no committed folder pins
     * them: explore-check's folders are a command's, none was committed), then the intervals and the ratio's.
     */
    @Test
    void exploreCheckRowsHaveTheirFlatKeys() {
        List<String> want = new ArrayList<>(List.of(
                "source",
                "what",
                "call",
                "status",
                "runs_completed",
                "median_ns",
                "p99_ns",
                "median_none_ns",
                "added_ns",
                "run_medians_ns",
                "samples",
                "spread",
                "round_medians_ns",
                "vs_floor_cost",
                "tolerance",
                "within_tolerance"));
        want.addAll(INTERVAL_KEYS);
        want.addAll(List.of(
                "vs_floor_cost_ci_low",
                "vs_floor_cost_ci_high",
                "vs_floor_cost_ci_level",
                "vs_floor_cost_ci_coverage",
                "vs_floor_cost_ci_runs"));
        assertEquals(want, FlatRows.keys(ExploreCheckRow.class, ""));
    }

    /** The six methods' keys, in the order kernel-bitmap writes them. */
    static final List<String> METHODS = List.of(
            "bare_per_call",
            "bare_batch_monotonic",
            "bare_batch_cputime",
            "selftest_per_call",
            "selftest_batch_monotonic",
            "selftest_batch_cputime");

    static final List<String> RUNS =
            List.of("runs_asked", "runs_completed", "batch_runs_asked", "batch_runs_completed", "interrupted");

    /** Each method's part under its key ({@code KernelBitmapRow.ByMethod}), the selftest's method's too or not. */
    private static List<String> byMethod(boolean selftestsMethod, String... fields) {
        List<String> keys = new ArrayList<>();
        for (String m : selftestsMethod ? METHODS : METHODS.subList(0, 5)) {
            for (String f : fields) {
                keys.add(m + "_" + f);
            }
        }
        return keys;
    }

    @Test
    void kernelBitmapEstimatesExpectationsAndTheAgreementHaveTheirFlatKeys() {
        List<String> estimate = new ArrayList<>(List.of("section", "what", "label"));
        estimate.addAll(byMethod(true, "ns"));
        estimate.add("published_ns");
        estimate.addAll(byMethod(false, "vs_selftests_method", "within_20pct"));
        estimate.addAll(RUNS);
        estimate.addAll(List.of("harness_ns", "batch_ns", "relative_difference", "agree_within_25pct"));
        assertEquals(estimate, FlatRows.keys(KernelBitmapRow.Estimate.class, ""));

        List<String> expectation = new ArrayList<>(List.of("section", "what"));
        expectation.addAll(byMethod(true, "values", "2020", "later"));
        expectation.add("published_ok");
        expectation.addAll(RUNS);
        expectation.addAll(List.of("harness_values", "harness", "batch_values", "batch"));
        assertEquals(expectation, FlatRows.keys(KernelBitmapRow.Expectation.class, ""));

        List<String> agreement = new ArrayList<>(List.of("section", "what", "compared", "agree"));
        agreement.addAll(byMethod(false, "agree"));
        agreement.addAll(byMethod(true, "unexpected_2020", "unexpected_later"));
        agreement.addAll(RUNS);
        agreement.addAll(List.of("harness_unexpected", "batch_unexpected"));
        assertEquals(agreement, FlatRows.keys(KernelBitmapRow.Agreement.class, ""));
    }
}
