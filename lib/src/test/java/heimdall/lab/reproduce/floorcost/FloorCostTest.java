package heimdall.lab.reproduce.floorcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.FloorRow;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.child.Call;
import heimdall.lab.cli.Main;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.results.FloorCostRow;
import heimdall.lab.results.PublishedFloorRow;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FloorCostTest {
    @TempDir
    Path tmp;

    private static FloorCost.Options options(boolean broker) {
        return new FloorCost.Options(
                new FloorBench.Counts(2, 100, 300, 20, 50), Cpus.measuring(), Cpus.supervisor(), broker);
    }

    /** Published rows 1–9 and 10–15 in the published order, each matched with its published figures. */
    @Test
    void rowsFollowThePublishedTable() {
        List<FloorRow> rows = FloorCost.rows(options(true));
        for (int i = 0; i < 9; i++) {
            assertNotNull(rows.get(i).published(), rows.get(i).label());
            assertEquals(i + 1, rows.get(i).published().row(), rows.get(i).label());
        }
        // rows 10–15, each measured with the native and the Java supervisor
        for (int i = 9; i < 21; i++) {
            FloorRow r = rows.get(i);
            assertTrue(r.brokered());
            assertEquals(10 + (i - 9) / 2, r.published().row(), r.label());
        }
        assertTrue(
                rows.subList(21, rows.size()).stream().allMatch(r -> r.published() == null),
                "our extra rows have no published twin");
        // the round-trip floor: one ping-pong per placement, the same placements as the brokered rows
        List<String> refs = rows.stream()
                .filter(r -> r.reference() && r.baselineCall() == null)
                .map(r -> r.broker().placement())
                .toList();
        assertEquals(List.of("own CPU", "child's CPU", "unpinned", "shared set"), refs);
        // and one ping-pong then openat per placement, of the brokered rows' file, against the openat alone
        Call openat = rows.stream()
                .filter(r -> r.brokered() && !r.reference())
                .findFirst()
                .orElseThrow()
                .call();
        List<FloorRow> callRefs = rows.stream()
                .filter(r -> r.reference() && r.baselineCall() != null && !r.notifyLoop())
                .toList();
        assertEquals(refs, callRefs.stream().map(r -> r.broker().placement()).toList());
        for (FloorRow r : callRefs) {
            assertEquals(Call.Kind.PINGPONG_OPENAT, r.call().kind());
            assertEquals(openat.path(), r.call().path());
            assertEquals(openat, r.baselineCall(), "shares the brokered openat rows' baseline");
        }
        assertEquals(
                java.util.Set.copyOf(refs),
                rows.stream()
                        .filter(r -> r.brokered() && !r.reference())
                        .map(r -> r.broker().placement())
                        .collect(java.util.stream.Collectors.toSet()));
        // the kernel's notify loop: a trapped gettid (the kernel benchmark's call) and the brokered rows' own
        // openat, in every placement, the synchronous wake-up off and on
        // (the paired rounds' loops are PairedRoundTripsTest's)
        List<FloorRow> loops = rows.stream()
                .filter(r -> r.notifyLoop() && !PairedRoundTrips.isPaired(r))
                .toList();
        assertEquals(16, loops.size());
        Call rowsOpenat = rows.stream()
                .filter(r -> r.brokered() && !r.reference())
                .findFirst()
                .orElseThrow()
                .call();
        for (Call call : List.of(Call.GETTID, rowsOpenat)) {
            List<FloorRow> onCall =
                    loops.stream().filter(r -> r.call().equals(call)).toList();
            for (FloorRow r : onCall) {
                assertEquals(call, r.baselineCall(), "the loop's round trip is the trapped call less the call alone");
                assertTrue(r.reference() && r.floor().brokered(), r.label());
                assertNull(r.published(), r.label());
            }
            for (boolean sync : List.of(false, true)) {
                assertEquals(
                        refs,
                        onCall.stream()
                                .filter(r -> r.broker().syncWakeUp() == sync)
                                .map(r -> r.broker().placement())
                                .toList(),
                        call.label());
            }
        }
        for (FloorRow r : rows) {
            if (r.brokered() && r.broker().cpuSet() != 0) {
                assertEquals(-1, r.broker().supervisorCpu(), r.label() + ": free on a set, pinned to no CPU");
            }
        }
    }

    /** Each brokered round trip over the floor of its own placement and over the best floor. */
    @Test
    void roundTripsAreRatiosToTheFloorOfTheirPlacement() {
        List<FloorCostRow> summary = FloorCostRatios.addFloorRatios(List.of(
                fc("reference", "pipe ping-pong", "placement", "own CPU", "median_ns", 40_000L),
                fc("reference", "pipe ping-pong", "placement", "child's CPU", "median_ns", 5_000L),
                fc(
                        "supervisor",
                        "native",
                        "what",
                        "x",
                        "answer",
                        "continue",
                        "placement",
                        "child's CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        7_000L,
                        "added_ns",
                        6_000L),
                fc(
                        "supervisor",
                        "native",
                        "what",
                        "x",
                        "answer",
                        "continue",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        45_000L,
                        "added_ns",
                        44_000L)));
        assertEquals(8.0, summary.get(0).ratios().vsBestFloor());
        assertEquals(1.0, summary.get(1).ratios().vsBestFloor());
        assertEquals(1.2, summary.get(2).ratios().roundTripVsFloor());
        assertEquals(1.2, summary.get(2).ratios().roundTripVsBestFloor());
        assertEquals(1.1, summary.get(3).ratios().roundTripVsFloor());
        assertEquals(8.8, summary.get(3).ratios().roundTripVsBestFloor());
        String text = FloorCostTable.floorSection(summary);
        assertTrue(
                text.contains("Fastest round trip: native supervisor, x, continue (child's CPU): 1.200× the best floor "
                        + "(goal: within 1.2×, met)"),
                text);
    }

    /**
     * Each brokered round trip over the kernel's notify loop of its own placement and wake-up, both as the
     * rows are timed and on the loop's own clock; a row below its loop is explained from the run's figures.
     */
    @Test
    void roundTripsAreRatiosToTheNotifyLoopOfTheirPlacementAndWakeUp() {
        List<FloorCostRow> summary = FloorCostRatios.addFloorRatios(List.of(
                fc("reference", "pipe ping-pong", "placement", "own CPU", "median_ns", 9_000L),
                fc(
                        "reference",
                        "pipe ping-pong, then openat",
                        "placement",
                        "own CPU",
                        "median_ns",
                        9_500L,
                        "median_none_ns",
                        1_800L,
                        "added_ns",
                        7_700L),
                fc(
                        "reference",
                        "kernel notify loop",
                        "call",
                        "gettid",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        8_100L,
                        "median_none_ns",
                        100L,
                        "added_ns",
                        8_000L,
                        "loop_wall_ns",
                        8_300L,
                        "loop_mean_ns",
                        8_250L),
                fc(
                        "reference",
                        "kernel notify loop",
                        "call",
                        "gettid",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        true,
                        "median_ns",
                        3_100L,
                        "median_none_ns",
                        100L,
                        "added_ns",
                        3_000L,
                        "loop_wall_ns",
                        3_200L,
                        "loop_mean_ns",
                        3_150L),
                fc(
                        "supervisor",
                        "native",
                        "call",
                        "openat",
                        "answer",
                        "continue",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        9_400L,
                        "median_none_ns",
                        1_800L,
                        "added_ns",
                        7_600L),
                fc(
                        "supervisor",
                        "java",
                        "call",
                        "openat",
                        "answer",
                        "continue",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        true,
                        "median_ns",
                        5_100L,
                        "median_none_ns",
                        1_800L,
                        "added_ns",
                        3_300L)));
        FloorCostRow nat = summary.get(4);
        assertEquals(8_000L, nat.ratios().loopFloorNs(), "the loop of its placement, sync off");
        assertEquals(0.95, nat.ratios().roundTripVsLoopFloor());
        FloorCostRow java = summary.get(5);
        assertEquals(3_000L, java.ratios().loopFloorNs(), "the loop of its placement, sync on");
        assertEquals(1.1, java.ratios().roundTripVsLoopFloor());
        assertNull(summary.get(2).ratios().vsBestCallFloor(), "the loop is no call floor");
        assertEquals(7_700L, nat.ratios().callFloorNs(), "the call floor is the ping-pong's, not the loop's");
        String text = NotifyLoopFloor.section(summary);
        assertTrue(
                text.contains("native supervisor, x, CONTINUE (own CPU): round trip +7.6 µs = 0.950× the `gettid` "
                        + "loop's +8.0 µs (goal ≤ 1.05×: met)"),
                text);
        assertTrue(
                text.contains("java supervisor, x, CONTINUE (own CPU, sync wake-up): round trip +3.3 µs = 1.100×"),
                text);
        assertTrue(text.contains("Below the loop, and what this run measured of why"), text);
        assertTrue(text.contains("costs 1,300 ns less right after a round trip than alone"), text);
        assertTrue(text.contains("8,300 ns a call, +50 ns more than the child's mean"), text);
        assertNull(summary.get(2).ratios().loopFloorNs(), "the loop is not a ratio to itself");
    }

    /**
     * With a loop on the rows' own call measured, a brokered openat is a ratio to the openat loop of its placement
     * and wake-up, never the gettid one; a miss at the median whose interval reaches below the goal says so.
     */
    @Test
    void aBrokeredOpenatIsARatioToTheLoopOnItsOwnCall() {
        Object[] loop = {"reference", "kernel notify loop", "placement", "own CPU", "sync_wakeup", false};
        List<FloorCostRow> summary = FloorCostRatios.addFloorRatios(List.of(
                fc(concat(loop, "call", "gettid", "median_ns", 8_100L, "median_none_ns", 100L, "added_ns", 8_000L)),
                fc(concat(
                        loop,
                        "call",
                        "openat",
                        "median_ns",
                        10_800L,
                        "median_none_ns",
                        1_800L,
                        "added_ns",
                        9_000L,
                        "added_ci_low_ns",
                        8_800L,
                        "added_ci_high_ns",
                        9_300L,
                        "added_ci_level",
                        0.95,
                        "added_ci_coverage",
                        0.95,
                        "added_ci_runs",
                        7L)),
                fc(
                        "what",
                        "three answers, x",
                        "supervisor",
                        "native",
                        "call",
                        "openat",
                        "answer",
                        "continue",
                        "placement",
                        "own CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        11_500L,
                        "median_none_ns",
                        1_800L,
                        "added_ns",
                        9_700L,
                        "added_ci_low_ns",
                        9_500L,
                        "added_ci_high_ns",
                        9_900L,
                        "added_ci_level",
                        0.95,
                        "added_ci_coverage",
                        0.95,
                        "added_ci_runs",
                        7L)));
        summary = new java.util.ArrayList<>(summary);
        summary.add(fc("what", "static floor, x", "call", "openat", "median_ns", 2_100L, "added_ns", 300L));
        FloorCostRow nat = summary.get(2);
        assertEquals(9_000L, nat.ratios().loopFloorNs(), "the openat loop, not the gettid one (8,000 ns)");
        assertEquals(1.078, nat.ratios().roundTripVsLoopFloor());
        String text = NotifyLoopFloor.section(summary);
        assertTrue(
                text.contains("round trip +9.7 µs [9,500, 9,900] = 1.078× the `openat` loop's +9.0 µs [8,800, 9,300] "
                        + "(goal ≤ 1.05×: not met at the median; the row's interval reaches below the goal over the "
                        + "loop's)"),
                text);
        assertTrue(
                text.contains("the row's own filter: static floor, x on `openat` alone adds +300 ns in this run; less "
                        + "that, the round trip is +9.4 µs = 1.044× the loop's"),
                text);
        assertTrue(text.contains("| `openat` | own CPU | off |"), text);
        assertTrue(text.contains("| `gettid` | own CPU | off |"), text);
    }

    private static Object[] concat(Object[] a, Object... b) {
        Object[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * The call floor (a ping-pong then openat, less the openat alone: its added cost) per placement:
     * each brokered openat's round trip over it, and the fastest against it named beside the other.
     */
    @Test
    void roundTripsAreAlsoRatiosToTheCallFloor() {
        List<FloorCostRow> summary = FloorCostRatios.addFloorRatios(List.of(
                fc("reference", "pipe ping-pong", "placement", "child's CPU", "median_ns", 4_000L),
                fc(
                        "reference",
                        "pipe ping-pong, then openat",
                        "placement",
                        "child's CPU",
                        "median_ns",
                        5_500L,
                        "median_none_ns",
                        1_000L,
                        "added_ns",
                        4_500L),
                fc(
                        "reference",
                        "pipe ping-pong, then openat",
                        "placement",
                        "own CPU",
                        "median_ns",
                        46_000L,
                        "median_none_ns",
                        1_000L,
                        "added_ns",
                        45_000L),
                fc(
                        "supervisor",
                        "native",
                        "what",
                        "x",
                        "call",
                        "openat",
                        "answer",
                        "continue",
                        "placement",
                        "child's CPU",
                        "sync_wakeup",
                        false,
                        "median_ns",
                        6_000L,
                        "added_ns",
                        5_000L)));
        assertEquals(1.0, summary.get(1).ratios().vsBestCallFloor());
        assertEquals(10.0, summary.get(2).ratios().vsBestCallFloor());
        assertNull(summary.get(1).ratios().vsBestFloor(), "a call floor is no bare ping-pong");
        FloorCostRow b = summary.get(3);
        assertEquals(1.25, b.ratios().roundTripVsFloor());
        assertEquals(4_500L, b.ratios().callFloorNs());
        assertEquals(1.111, b.ratios().roundTripVsCallFloor());
        assertEquals(1.111, b.ratios().roundTripVsBestCallFloor());
        String text = FloorCostTable.floorSection(summary);
        assertTrue(
                text.contains(
                        "- call floor, partner child's CPU: ping-pong then `openat` 5,500 ns, less `openat` alone "
                                + "1,000 ns = 4,500 ns"),
                text);
        assertTrue(
                text.contains("Fastest round trip: native supervisor, x, continue (child's CPU): 1.250× the best floor "
                        + "(goal: within 1.2×, not met)"),
                text);
        assertTrue(
                text.contains(
                        "Fastest against the call floor (same method): native supervisor, x, continue (child's CPU): "
                                + "1.111× the best "
                                + "call floor (within 1.2×: yes)"),
                text);
    }

    /** The kernel's action cache answers bare allows; argument rules make the program run. */
    @Test
    void bareAllowsAreCacheableArgumentRulesAreNot() {
        for (FloorRow r : FloorCost.rows(options(true))) {
            if (r.notifyLoop()) {
                // the kernel's notify loop traps its call: never answered from the cache
                assertFalse(r.floor().cacheable(r.data().nr()), r.label());
                assertFalse(r.floor().verdict(r.data()).allows(), r.label() + ": the call goes to the loop");
                continue;
            }
            if (r.reference()) {
                assertTrue(r.floor().programs().isEmpty(), r.label() + ": the round-trip floor installs no filter");
                continue;
            }
            boolean bare = List.of("getppid", "gettid").contains(r.callName());
            assertEquals(bare, r.floor().cacheable(r.data().nr()), r.label());
            assertTrue(
                    r.floor().verdict(r.data()).allows() || r.brokered(), r.label() + " must be allowed by its floor");
        }
    }

    /** A whole (tiny) run: every row completes in the real kernel and the folder holds every file. */
    @Test
    void tinyRunWritesTheWholeFolder() throws Exception {
        Requires.seccomp("kill_process", "errno", "allow", "user_notif");
        Path out = tmp.resolve("fc");
        FloorCost.Result result = FloorCost.run(options(true), ResultsFolder.chosen(out), line -> {});
        assertEquals(List.of(), result.failed());
        for (String f : List.of("summary.json", "environment.json", "samples.arrow", "table.md")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> top =
                new ObjectMapper().readValue(out.resolve("summary.json").toFile(), Map.class);
        assertEquals("floor-cost", top.get("reproduction"));
        assertEquals(Boolean.FALSE, top.get("interrupted"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> summary = (List<Map<String, Object>>) top.get("rows");
        assertEquals(FloorCost.rows(options(true)).size(), summary.size());
        for (Map<String, Object> r : summary) {
            for (String field : List.of(
                    "what",
                    "call",
                    "insns",
                    "cache",
                    "median_none_ns",
                    "median_ns",
                    "added_ns",
                    "p99_ns",
                    "p99_none_ns",
                    "run_medians_ns",
                    "samples",
                    "spread",
                    "noisy",
                    "published")) {
                assertTrue(r.containsKey(field), field + " in " + r.get("what"));
            }
            // the paired rounds: three times the runs, shorter ones (PairedRoundTrips.counts)
            int runs = r.get("what").toString().startsWith(FloorCostRow.PAIRED) ? 6 : 2;
            assertEquals(
                    runs,
                    ((List<?>) r.get("run_medians_ns")).size(),
                    r.get("what").toString());
            assertEquals("ok", r.get("status"));
            assertEquals(runs, r.get("runs_completed"));
            assertEquals(Boolean.FALSE, r.get("interrupted"));
        }
        Map<String, Object> brokered = summary.get(10);
        assertEquals("java", brokered.get("supervisor"));
        assertNotNull(brokered.get("java_over_native"));
        assertTrue(summary.stream().anyMatch(r -> r.get("vs_default_placement") != null));
        assertEquals(
                4,
                summary.stream().filter(r -> r.get("vs_best_floor") != null).count(),
                "every reference row measured");
        assertEquals(
                4,
                summary.stream()
                        .filter(r -> r.get("vs_best_call_floor") != null)
                        .count(),
                "every call floor measured");
        assertTrue(
                summary.stream()
                        .filter(r -> "openat".equals(r.get("call")) && r.containsKey("supervisor") && !paired(r))
                        .allMatch(r -> r.get("round_trip_vs_call_floor") instanceof Double),
                "every brokered openat against its call floor");
        assertTrue(
                summary.stream()
                        .filter(r -> r.containsKey("supervisor") && !paired(r))
                        .allMatch(r -> r.get("round_trip_vs_floor") instanceof Double),
                "every brokered row against its placement's floor");
        // the kernel's notify loop: measured in every placement, timed both ways, each round trip a ratio to it
        List<Map<String, Object>> loops = summary.stream()
                .filter(r -> "kernel notify loop".equals(r.get("reference")))
                .toList();
        assertEquals(16 + 8, loops.size(), "16 in the table, 8 in the paired rounds");
        assertEquals(
                java.util.Set.of("gettid", "openat"),
                loops.stream().map(l -> l.get("call")).collect(java.util.stream.Collectors.toSet()));
        for (Map<String, Object> l : loops) {
            assertTrue(((Number) l.get("added_ns")).longValue() > 0, "a round trip costs something: " + l);
            assertTrue(((Number) l.get("loop_wall_ns")).longValue() > 0, "the loop's own clock: " + l);
            assertTrue(((Number) l.get("loop_mean_ns")).longValue() > 0, "the child's mean beside it: " + l);
            assertNotNull(l.get("sync_wakeup"), "the loop's wake-up is recorded: " + l);
        }
        assertTrue(
                summary.stream()
                        .filter(r -> r.containsKey("supervisor"))
                        .allMatch(r -> r.get("round_trip_vs_loop_floor") instanceof Double
                                && ((Number) r.get("loop_floor_ns")).longValue() > 0),
                "every brokered row against the loop of its placement and wake-up");
        // every sample is kept: 2 runs of row 0, filtered and baseline
        assertEquals(2, SamplesFile.read(out.resolve("samples.arrow"), 0, "filtered").length);
        assertEquals(300, SamplesFile.read(out.resolve("samples.arrow"), 0, "none")[1].length);
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.contains("| static floor, abcdf | `getppid` |"), table);
        assertTrue(table.contains("Java supervisor / native"), table);
        assertTrue(table.contains("`pingpong` (partner on child's CPU)"), table);
        assertTrue(table.contains("Fastest round trip: "), table);
        assertTrue(table.contains("Fastest against the call floor (same method): "), table);
        assertTrue(table.contains("Round trips against the kernel's notify loop"), table);
        assertTrue(table.contains("`gettid` (kernel notify loop, on child's CPU, sync wake-up)"), table);
        // the paired rounds: each supervisor in each placement and wake-up over the loop, round by round
        assertTrue(table.contains("Paired round trips: the loop and each supervisor on ONE filter"), table);
        List<FloorCostRow> rows = SummaryJson.read(out).rows(FloorCostRow.class);
        List<PairedRoundTrips.Paired> pairs = PairedRoundTrips.pairs(rows);
        assertEquals(16, pairs.size(), "2 supervisors × 4 placements × wake-up off and on");
        for (PairedRoundTrips.Paired p : pairs) {
            assertNotNull(p.loop(), "the loop of its group: " + p.row().label());
            assertEquals(6, p.perRound().length, "a ratio per round: " + p.row().label());
            assertTrue(p.ratio().estimate() > 0, p.row().label());
            assertTrue(
                    table.contains("| " + p.row().supervisor() + " | " + p.row().placement() + " | "), table);
        }
        // plots/: one distribution per floor group, run medians per section, the broker CDFs.
        List<String> plots;
        try (var files = Files.list(out.resolve("plots"))) {
            plots = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String p : List.of(
                "distribution-static-floor-abcdf.png",
                "distribution-static-floor-wasm-host.png",
                "distribution-three-answers-stacked.png",
                "run-medians-floors.png",
                "run-medians-broker.png",
                "run-medians-faster.png",
                "broker-cdf-continue.png",
                "broker-cdf-broker.png",
                "broker-faster-continue.png",
                "broker-faster-broker.png",
                "paired-round-trips.png")) {
            assertTrue(plots.contains(p), p + " in " + plots);
            assertTrue(Files.size(out.resolve("plots").resolve(p)) > 1000, p);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether a summary.json row is one of the paired rounds' (their figure is a ratio per round, not these). */
    private static boolean paired(Map<String, Object> r) {
        return r.get("what").toString().startsWith(FloorCostRow.PAIRED);
    }

    /** A floor-cost row with these fields (name, value, ...) over a plain row's identity ({@code x}, getpid, ok). */
    private static FloorCostRow fc(Object... fields) {
        ObjectNode n = JSON.createObjectNode()
                .put("what", "x")
                .put("call", "getpid")
                .put("floor", "f")
                .put("status", "ok");
        for (int i = 0; i < fields.length; i += 2) {
            n.set((String) fields[i], JSON.valueToTree(fields[i + 1]));
        }
        return SummaryJson.row(Path.of("test.json"), "row", n, FloorCostRow.class);
    }

    private static FloorCostRow row(String call, long none, long filtered, Long pubNone, Long pubFiltered) {
        return pubNone == null
                ? fc("call", call, "median_none_ns", none, "median_ns", filtered)
                : fc(
                        "call",
                        call,
                        "median_none_ns",
                        none,
                        "median_ns",
                        filtered,
                        "published",
                        new PublishedFloorRow(1, null, null, pubNone, pubFiltered, null, null, null, null));
    }

    /** The sentence comparing the hosts is computed from the rows: getppid's ratio and the range of ratios. */
    @Test
    void theHostRatioSentenceComesFromTheRows() {
        List<FloorCostRow> rows = List.of(
                row("getppid", 70, 100, 100L, 120L),
                row("mprotect", 360, 420, 211L, 271L),
                row("openat", 1500, 1900, 1833L, 1953L),
                row("openat", 9000, 9999, null, null));
        String s = FloorCostTable.hostComparison(rows);
        assertTrue(s.contains("a native `getppid` (no filter) takes 70 ns against the published 100 ns (0.70×)"), s);
        // none: 0.70, 1.706, 0.818 -> 0.70–1.71×; filtered: 0.833, 1.55, 0.973 -> 0.83–1.55×; the row without a twin is
        // left out
        assertTrue(s.contains("0.70–1.71× the published ones without the filter (3 rows)"), s);
        assertTrue(s.contains("0.83–1.55× with it (3 rows)"), s);
        assertFalse(s.contains("10x"), s);
        String none = FloorCostTable.hostComparison(List.of(row("openat", 9000, 9999, null, null)));
        assertTrue(none.contains("no ratio between the hosts is given"), none);
        assertFalse(none.contains("×"), none);
    }

    @Test
    void anOccupiedOutFolderIsRefusedAndLeftAlone() throws Exception {
        Path out = tmp.resolve("occupied");
        Files.createDirectories(out);
        Files.writeString(out.resolve("summary.json"), "[\"earlier\"]");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                List.of("reproduce", "floor-cost", "--quick", "--out", out.toString()),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("not empty"));
        assertEquals("[\"earlier\"]", Files.readString(out.resolve("summary.json")));
    }

    /** Bad options exit 2 with a message, and leave no results folder behind (neither the default one nor --out). */
    @Test
    void badOptionsExit2() throws Exception {
        List<Path> before = resultFolders();
        Path out = tmp.resolve("never-made");
        for (List<String> argv : List.of(
                List.of("reproduce", "no-such-table"),
                List.of("reproduce", "floor-cost", "--runs", "0"),
                List.of("reproduce", "floor-cost", "--cpu", "4096"),
                List.of("reproduce"),
                List.of("reproduce", "kernel-bitmap", "--batch-runs", "0"),
                List.of("reproduce", "attach-cost", "--cpu", "-3"),
                List.of("reproduce", "host-load", "--settle", "-1"),
                List.of("reproduce", "kernel-bitmap", "--runs", "0", "--out", out.toString()))) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            assertEquals(
                    2,
                    Main.run(
                            new ArrayList<>(argv),
                            new PrintStream(new ByteArrayOutputStream()),
                            new PrintStream(err, true, StandardCharsets.UTF_8)),
                    argv.toString());
            assertFalse(
                    err.toString(StandardCharsets.UTF_8).contains("Exception"), err.toString(StandardCharsets.UTF_8));
        }
        assertEquals(before, resultFolders(), "a refused run made a results folder");
        assertFalse(Files.exists(out), "--out was created for a refused run");
    }

    private static List<Path> resultFolders() throws java.io.IOException {
        Path root = Fixtures.resultsRoot();
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (var s = Files.list(root)) {
            return s.sorted().toList();
        }
    }
}
