package heimdall.lab.reproduce.kernelbitmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.BadInput;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Stats;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.reproduce.FirstScreen;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.results.KernelBitmapRow;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.results.Summary;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kernel-bitmap's intervals through the code that writes and reads a folder: a measurement of known
 * runs (synthetic samples: no kernel needed) is summarised ({@link KernelBitmapSummary#of}), written as
 * summary.json, read back and shown on the first screen. Every configuration row's intervals bracket
 * its medians, p99s and batch figures, for both loops; the added cost's covers the shift built into the
 * samples and excludes zero; the noisy row built in is counted; the table has the interval columns.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelBitmapIntervalsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static final int RUNS = 8;
    static final int BATCH_RUNS = 8;
    static final int CALLS = 2_000;
    /** What each filter adds to every call, ns (the selftest loop pays 20 ns more for its libc call). */
    static final long PER_FILTER = 40;
    /** The configuration whose bare per-call runs are made noisy: one run 50% slower. */
    static final int NOISY = 3;

    /** A measurement of five configurations with known costs, every method, samples spread 0-19 ns. */
    static KernelBitmap.Measurement synthetic(long seed) {
        Random rnd = new Random(seed);
        KernelBitmap.Options o = new KernelBitmap.Options(RUNS, 0, CALLS, BATCH_RUNS, 1_000, 0);
        List<KernelBitmap.Configuration> configurations = new ArrayList<>();
        for (int c = 0; c < 5; c++) {
            Map<KernelBitmap.Method, KernelBitmap.Runs> runs = new LinkedHashMap<>();
            for (KernelBitmap.Method m : KernelBitmap.METHODS) {
                long base = 300 + PER_FILTER * c + (m.loop() == KernelBitmap.Loop.SELFTEST ? 20 : 0);
                List<Long> ns = new ArrayList<>();
                List<Integer> placements = new ArrayList<>();
                List<long[]> samples = new ArrayList<>();
                List<Long> totals = new ArrayList<>();
                int n = m.timing().batch() ? BATCH_RUNS : RUNS;
                for (int r = 0; r < n; r++) {
                    placements.add(r % 4);
                    if (m.timing().batch()) {
                        long figure = base + rnd.nextInt(10);
                        ns.add(figure);
                        totals.add(figure * o.batchCount());
                        continue;
                    }
                    boolean slow = c == NOISY && m.loop() == KernelBitmap.Loop.BARE && r == 0;
                    long[] s = new long[CALLS];
                    for (int i = 0; i < CALLS; i++) {
                        // a tail of 3% a few hundred ns out (the p99 in it), as a preempted call has
                        s[i] = (slow ? base * 3 / 2 : base) + rnd.nextInt(20) + (rnd.nextInt(100) < 3 ? 400 : 0);
                    }
                    samples.add(s);
                    ns.add(KernelBitmap.Configuration.interpolatedMedian(s));
                }
                runs.put(m, new KernelBitmap.Runs(ns, placements, samples, totals));
            }
            configurations.add(new KernelBitmap.Configuration(
                    c, BitmapEstimates.CONFIGURATIONS.get(c), c == 1 || c == 2, runs, o.batchCount()));
        }
        return new KernelBitmap.Measurement(o, configurations, 20, List.of(0.5, 0.7));
    }

    /** A folder written and the rows written into it. */
    record Written(ResultsFolder folder, List<KernelBitmapRow> rows) {}

    /**
     * Writes {@code m} into {@code dir} as a kernel-bitmap run does: its rows and settings handed to the
     * framework, which writes summary.json, environment.json and table.md ({@link Kept#keep}).
     */
    static Written write(KernelBitmap.Measurement m, Path dir) {
        List<KernelBitmapRow> rows = KernelBitmapSummary.of(m, false);
        ResultsFolder folder = ResultsFolder.chosen(dir);
        Instant now = Instant.now();
        ReproductionResult r = ReproductionResult.of(
                ReproductionKind.of(KernelBitmapRow.class, KernelBitmapSettings.class),
                new Recorded<>(rows, KernelBitmapSettings.of(m, new Host.LoadSampler()), Host.capture(), now, now),
                Optional.empty());
        Kept.keep(folder, r, line -> {});
        return new Written(folder, rows);
    }

    private static void brackets(JsonNode row, String ci, long figure, String what) {
        long low = row.get(ci + "low_ns").asLong();
        long high = row.get(ci + "high_ns").asLong();
        assertTrue(low <= figure && figure <= high, what + ": " + figure + " in [" + low + ", " + high + "]");
        assertEquals(0.95, row.get(ci + "level").asDouble(), what);
        assertTrue(row.get(ci + "coverage").asDouble() >= 0.95, what + ": 8 runs reach 95%");
    }

    @Test
    void everyConfigurationRowHasIntervalsThatBracketItsFiguresForBothLoops(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("kb");
        write(synthetic(1), dir);
        JsonNode rows = JSON.readTree(dir.resolve("summary.json").toFile()).get("rows");
        int configurations = 0;
        for (JsonNode row : rows) {
            if (!row.get("section").asText().equals("configuration")) {
                assertFalse(row.has("median_ci_low_ns"), "only configurations have intervals: " + row);
                continue;
            }
            configurations++;
            long filters = row.get("filters").asLong();
            for (String loop : List.of("", "selftest_")) {
                String what = row.get("what").asText() + ", " + (loop.isEmpty() ? "bare" : "selftest") + " loop";
                brackets(row, loop + "median_ci_", row.get(loop + "median_ns").asLong(), what + " median");
                brackets(row, loop + "p99_ci_", row.get(loop + "p99_ns").asLong(), what + " p99");
                assertEquals(RUNS, row.get(loop + "median_ci_runs").asLong(), what);
                assertTrue(
                        row.get(loop + "p99_ci_low_ns").asLong()
                                > row.get(loop + "median_ci_high_ns").asLong(),
                        what + ": the 3% tail 400 ns out puts the p99 above the median");
                brackets(
                        row,
                        loop + "batch_median_ci_",
                        row.get(loop + "batch_ns_per_call").asLong(),
                        what + " batch, CPU time");
                brackets(
                        row,
                        loop + "batch_monotonic_median_ci_",
                        row.get(loop + "batch_monotonic_ns_per_call").asLong(),
                        what + " batch, monotonic");
                assertEquals(BATCH_RUNS, row.get(loop + "batch_median_ci_runs").asLong(), what);
                if (filters == 0) {
                    assertFalse(row.has(loop + "added_ns") || row.has(loop + "added_ci_low_ns"), what + ": no added");
                    continue;
                }
                long added = row.get(loop + "added_ns").asLong();
                assertEquals(
                        row.get(loop + "median_ns").asLong()
                                - rows.get(0).get(loop + "median_ns").asLong(),
                        added,
                        what + ": added is the median minus the unfiltered one");
                brackets(row, loop + "added_ci_", added, what + " added");
                if (filters != NOISY || !loop.isEmpty()) {
                    long truth = PER_FILTER * filters;
                    long low = row.get(loop + "added_ci_low_ns").asLong();
                    long high = row.get(loop + "added_ci_high_ns").asLong();
                    assertTrue(low <= truth && truth <= high, what + ": the shift built in, " + truth + ", covered");
                    assertTrue(low > 0, what + ": a 40 ns a filter shift is beyond the noise");
                }
            }
            // the interval keys come after every key a folder had before them
            List<String> keys = new ArrayList<>();
            row.fieldNames().forEachRemaining(keys::add);
            assertTrue(keys.indexOf("median_ci_low_ns") > keys.indexOf("published_ns"), keys.toString());
            assertTrue(
                    keys.indexOf("selftest_median_ci_low_ns") > keys.indexOf("batch_median_ci_runs"), keys.toString());
        }
        assertEquals(5, configurations);
    }

    @Test
    void theRowsReadBackWithTheirIntervalsAndAreWrittenAsTheyWere(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("kb");
        List<KernelBitmapRow> written = write(synthetic(2), dir).rows();
        Summary s = SummaryJson.read(dir);
        assertEquals(written, s.rows(), "the rows read are the rows written");
        KernelBitmapRow.Configuration one =
                (KernelBitmapRow.Configuration) s.rows().get(1);
        KernelBitmapRow.LoopIntervals bare = one.intervals(KernelBitmapRow.Loop.BARE);
        assertNotNull(bare.perCall().added());
        assertTrue(bare.perCall()
                .median()
                .interval(one.medianNs(), "order statistics")
                .contains(one.medianNs()));
        assertNull(((KernelBitmapRow.Configuration) s.rows().get(0))
                .intervals(KernelBitmapRow.Loop.SELFTEST)
                .perCall()
                .added());
        JsonNode raw = JSON.readTree(dir.resolve("summary.json").toFile());
        // toString keeps each value's JSON type, as SummaryGoldenTest compares
        assertEquals(
                raw.toString(),
                SummaryJson.summary(s.kind().name(), null, null, s.rows()).toString());
    }

    @Test
    void theFirstScreenCountsTheNoisyConfigurationAndShowsItsIntervals(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("kb");
        KernelBitmap.Measurement m = synthetic(3);
        Written w = write(m, dir);
        List<KernelBitmapRow> rows = w.rows();
        assertTrue(Stats.NOISY_SPREAD < 0.5, "one run 50% slower is noisy by the seeds' rule");
        long noisy = rows.stream().filter(r -> Boolean.TRUE.equals(r.noisy())).count();
        assertEquals(1, noisy, "the configuration with one slow run, and no other");
        List<String> screen =
                FirstScreen.of("kernel-bitmap", SummaryJson.read(dir).rows(), w.folder(), true);
        String all = String.join("\n", screen);
        assertTrue(screen.size() <= FirstScreen.MAX_LINES, all);
        assertTrue(screen.get(0).startsWith("kernel-bitmap: " + ResultsFolder.QUICK_LINE), all);
        assertEquals("20 rows: 0 failed, 0 not measured; 1 noisy (run medians spread over 25%)", screen.get(1), all);
        JsonNode tree =
                JSON.readTree(dir.resolve("summary.json").toFile()).get("rows").get(1);
        String finding = String.format(
                Locale.ROOT,
                "  %s: added %,d ns [%,d, %,d]",
                tree.get("what").asText(),
                tree.get("added_ns").asLong(),
                tree.get("added_ci_low_ns").asLong(),
                tree.get("added_ci_high_ns").asLong());
        assertTrue(screen.contains(finding), finding + " in\n" + all);
        assertTrue(screen.stream().anyMatch(l -> l.startsWith("  getpid native: median ")), all);

        String intervals = KernelBitmapTable.intervalTable(rows);
        assertTrue(intervals.contains("| " + RowIntervals.heading("added") + " |"), intervals);
        assertTrue(intervals.contains("Hodges–Lehmann"), intervals);
        assertEquals(
                2 + 10, intervals.lines().filter(l -> l.startsWith("|")).count(), "a line a configuration and loop");
        // table.md is made from the rows alone: their run figures give the estimates the measurement gave
        assertEquals(
                m.estimated(),
                KernelBitmapTable.estimated(rows.stream()
                        .filter(r -> r instanceof KernelBitmapRow.Configuration)
                        .map(r -> (KernelBitmapRow.Configuration) r)
                        .toList()));
        String table = Files.readString(dir.resolve("table.md"));
        assertTrue(table.contains(intervals), "table.md has the interval table:\n" + table);
        assertTrue(table.contains("| getpid RET_ALLOW 3 filters (full) | no | "), table);
        assertTrue(table.contains("NOISY"), "the noisy configuration's cell says so:\n" + table);
    }

    /**
     * A row's per-method parts read only the keys they write: a value of the wrong type in one is bad input
     * naming its key, and the selftest's method's agreement (a key the row never has) is an unknown field.
     */
    @Test
    void aPerMethodPartReadsOnlyItsOwnKeysAndNamesABadOne(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("kb");
        write(synthetic(4), dir);
        Path file = dir.resolve("summary.json");
        String written = Files.readString(file);
        var top = (ObjectNode) JSON.readTree(written);
        var rows = (ArrayNode) top.get("rows");
        int expectation = 5 + 7;
        int agreement = 5 + 7 + 7;
        ((ObjectNode) rows.get(expectation)).put("selftest_per_call_values", "many");
        Files.writeString(file, top.toString());
        BadInput e = assertThrows(BadInput.class, () -> SummaryJson.read(dir));
        assertTrue(e.getMessage().contains("rows[" + expectation + "].selftest_per_call_values"), e.getMessage());

        top = (ObjectNode) JSON.readTree(written);
        rows = (ArrayNode) top.get("rows");
        ((ObjectNode) rows.get(agreement)).put("selftest_batch_cputime_agree", true);
        Files.writeString(file, top.toString());
        e = assertThrows(BadInput.class, () -> SummaryJson.read(dir));
        assertTrue(
                e.getMessage().contains("rows[" + agreement + "].selftest_batch_cputime_agree")
                        && e.getMessage().contains("unknown field"),
                e.getMessage());
    }

    /** Committed folders: a configuration is noisy when either loop's per-call runs are, and only then. */
    @Test
    void aCommittedFoldersConfigurationsAnswerNoisyFromTheirPerCallFlags() throws Exception {
        int seen = 0;
        for (String name : List.of("2026-11-30-vm-12", "2026-11-30-vm-11")) {
            Path dir = Fixtures.resultsRoot().resolve(name);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            Summary s = SummaryJson.read(dir);
            JsonNode raw = JSON.readTree(dir.resolve("summary.json").toFile());
            JsonNode rows = raw.isArray() ? raw : raw.get("rows");
            for (int i = 0; i < rows.size(); i++) {
                ResultRow r = s.rows().get(i);
                JsonNode t = rows.get(i);
                if (!(r instanceof KernelBitmapRow.Configuration)) {
                    assertNull(r.noisy(), "an estimate row has no noisy flag");
                    continue;
                }
                boolean has = t.has("per_call_noisy") || t.has("selftest_per_call_noisy");
                Boolean want = has
                        ? t.path("per_call_noisy").asBoolean(false)
                                || t.path("selftest_per_call_noisy").asBoolean(false)
                        : null;
                assertEquals(want, r.noisy(), name + " row " + i);
                seen++;
            }
        }
        assertEquals(10, seen, "both folders' five configurations");
    }
}
