package heimdall.lab.reproduce.attachcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.reproduce.Kept;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.kernelbitmap.KernelBitmap;
import heimdall.lab.results.AttachCostRow;
import heimdall.lab.results.Headline;
import heimdall.lab.results.Recorded;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.sys.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * attach-cost's rows carry their intervals: measured figures with a known truth (fork+attach is fork
 * alone plus exactly 3,000 ns, sample by sample) go through the same code as a run
 * ({@link AttachCost#summary}, written by the framework's {@link Kept#keep}), and summary.json holds, after the
 * row's other keys, the intervals of the fork+attach median and p99, of the added cost (which brackets
 * the true 3,000 ns) and of the in-process attach, each bracketing its figure; the fork-alone row has
 * its own; a stop before the baseline leaves the added cost's interval out, a floor not measured has
 * none; table.md shows them with a sentence of method.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AttachCostIntervalsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final int RUNS = 7;
    private static final long ADDED = 3_000;

    @TempDir
    Path tmp;

    /** {@code runs} runs of 400 samples around {@code base} ns, each run its own offset (run-to-run noise). */
    private static List<long[]> runs(long seed, long base, int runs) {
        Random random = new Random(seed);
        List<long[]> out = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            long offset = random.nextInt(2_000);
            long[] s = new long[400];
            for (int i = 0; i < s.length; i++) {
                s[i] = base + offset + random.nextInt(5_000) + (i % 97 == 0 ? 40_000 : 0);
            }
            out.add(s);
        }
        return out;
    }

    private static List<long[]> plus(List<long[]> runs, long ns) {
        return runs.stream()
                .map(r -> java.util.Arrays.stream(r).map(x -> x + ns).toArray())
                .toList();
    }

    private static List<Long> totals(List<long[]> runs) {
        return runs.stream().map(r -> java.util.Arrays.stream(r).sum()).toList();
    }

    /** Two floors (the second not reached: a stop) and, unless {@code noBaseline}, the fork-alone runs. */
    private static AttachCost.Measurement measurement(boolean noBaseline) {
        AttachCost.Options o = new AttachCost.Options(RUNS, 400, 0, 400, 1, 1, 0);
        List<long[]> attach = runs(1, 14_000, RUNS);
        List<long[]> fork = runs(2, 130_000, RUNS);
        List<long[]> forkAttach = plus(fork, ADDED);
        AttachCost.Floor small = new AttachCost.Floor("2-instruction filter", "test", KernelBitmap.BITMAP_FILTER);
        AttachCost.FloorFigures measured = new AttachCost.FloorFigures(
                small, 400, 3277, attach, totals(attach), forkAttach, totals(forkAttach), new long[0], null);
        AttachCost.FloorFigures notReached = new AttachCost.FloorFigures(
                new AttachCost.Floor("not reached", "test", KernelBitmap.BITMAP_FILTER),
                400,
                3277,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                new long[0],
                null);
        return new AttachCost.Measurement(
                o, List.of(measured, notReached), noBaseline ? List.of() : fork, noBaseline ? List.of() : totals(fork));
    }

    /**
     * The folder of {@code m} as {@code ./lab reproduce attach-cost} writes it: the body's recorded run
     * ({@link AttachCost#summary}, the settings, the host), written by the framework ({@link Kept#keep}).
     */
    private Path kept(AttachCost.Measurement m, String name) {
        Recorded<AttachCostRow, AttachCostSettings> run = new Recorded<>(
                AttachCost.summary(m),
                AttachCostSettings.of(m.options()),
                Host.capture(),
                Instant.now(),
                Instant.now());
        ReproductionResult result = ReproductionResult.of(
                ReproductionKind.of(AttachCostRow.class, AttachCostSettings.class), run, Optional.empty());
        return Kept.keep(ResultsFolder.chosen(tmp.resolve(name)), result, s -> {});
    }

    private JsonNode written(AttachCost.Measurement m, String name) throws Exception {
        return JSON.readTree(kept(m, name).resolve("summary.json").toFile()).get("rows");
    }

    private static void brackets(JsonNode row, String ci, String figure) {
        assertTrue(row.has(ci + "_low_ns") && row.has(ci + "_high_ns"), ci + " in " + row);
        long low = row.get(ci + "_low_ns").asLong();
        long high = row.get(ci + "_high_ns").asLong();
        long value = row.get(figure).asLong();
        assertTrue(low <= value && value <= high, ci + " [" + low + ", " + high + "] brackets " + figure + " " + value);
        assertEquals(0.95, row.get(ci + "_level").asDouble(), ci);
        assertEquals(RUNS, row.get(ci + "_runs").asLong(), ci);
        assertTrue(row.get(ci + "_coverage").asDouble() >= 0.95, "7 runs reach 95%: " + ci + " in " + row);
    }

    private static List<String> keys(JsonNode row) {
        List<String> keys = new ArrayList<>();
        row.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aWrittenRowHasItsIntervalsAfterItsKeysAndTheyBracketItsFigures() throws Exception {
        JsonNode rows = written(measurement(false), "full");
        assertEquals(3, rows.size());
        JsonNode floor = rows.get(0);
        brackets(floor, "median_ci", "fork_attach_median_ns");
        brackets(floor, "p99_ci", "fork_attach_p99_ns");
        brackets(floor, "added_ci", "attach_in_fork_added_ns");
        brackets(floor, "attach_median_ci", "attach_median_ns");
        brackets(floor, "attach_p99_ci", "attach_p99_ns");
        // the truth: every fork+attach sample is its fork-alone sample plus ADDED
        assertEquals(ADDED, floor.get("attach_in_fork_added_ns").asLong());
        assertTrue(floor.get("added_ci_low_ns").asLong() <= ADDED
                && ADDED <= floor.get("added_ci_high_ns").asLong());
        assertFalse(floor.has("attach_added_ci_low_ns"), "the in-process attach has no added cost");
        // appended after the row's other keys, the main figure's first
        List<String> k = keys(floor);
        int first = k.indexOf("median_ci_low_ns");
        assertEquals(k.size() - 25, first, k.toString());
        assertEquals("attach_median_ci_low_ns", k.get(k.size() - 10), k.toString());
        assertEquals("interrupted", k.get(first - 1), k.toString());

        JsonNode notReached = rows.get(1);
        assertEquals("not measured", notReached.get("status").asText());
        assertTrue(keys(notReached).stream().noneMatch(x -> x.contains("_ci_")), notReached.toString());

        JsonNode forkAlone = rows.get(2);
        assertEquals("fork alone", forkAlone.get("what").asText());
        brackets(forkAlone, "median_ci", "fork_median_ns");
        brackets(forkAlone, "p99_ci", "fork_p99_ns");
        assertFalse(forkAlone.has("added_ci_low_ns") || forkAlone.has("attach_median_ci_low_ns"), forkAlone.toString());

        // read back through the typed reader: the same intervals
        List<AttachCostRow> back = SummaryJson.read(tmp.resolve("full")).rows(AttachCostRow.class);
        assertEquals(AttachCost.summary(measurement(false)), back);
        assertEquals(RowStatus.OK, back.get(0).outcome());
        assertEquals(
                floor.get("added_ci_high_ns").asLong(),
                back.get(0).intervals().added().highNs());
        // the first screen's headlines: the attach in a fork's added cost, the fork alone's median
        Headline attach =
                ReproductionKind.of(AttachCostRow.class).headline(back.get(0)).orElseThrow();
        assertEquals("added", attach.figure());
        assertEquals(
                String.format(
                        Locale.ROOT, "%,d", floor.get("attach_in_fork_added_ns").asLong()),
                attach.estimate());
        Headline fork =
                ReproductionKind.of(AttachCostRow.class).headline(back.get(2)).orElseThrow();
        assertEquals("median", fork.figure());
        assertEquals(
                String.format(
                        Locale.ROOT, "%,d", forkAlone.get("fork_median_ns").asLong()),
                fork.estimate());
    }

    @Test
    void aStopBeforeTheBaselineLeavesTheAddedCostsIntervalOut() throws Exception {
        JsonNode rows = written(measurement(true), "stopped");
        JsonNode floor = rows.get(0);
        assertTrue(floor.get("attach_in_fork_added_ns").isNull(), floor.toString());
        brackets(floor, "median_ci", "fork_attach_median_ns");
        assertFalse(floor.has("added_ci_low_ns"), floor.toString());
        JsonNode forkAlone = rows.get(2);
        assertEquals("not measured", forkAlone.get("status").asText());
        assertTrue(keys(forkAlone).stream().noneMatch(x -> x.contains("_ci_")), forkAlone.toString());
    }

    @Test
    void theTableShowsTheIntervalsAndSaysHowTheyAreMade() throws Exception {
        AttachCost.Measurement m = measurement(false);
        List<AttachCostRow> rows = AttachCost.summary(m);
        String table = Files.readString(kept(m, "table").resolve("table.md"));
        assertTrue(table.contains("| fork+attach median [95% CI] |") && table.contains("| added [95% CI] |"), table);
        String added =
                heimdall.lab.results.RowIntervals.cell(rows.get(0).intervals().added());
        assertTrue(added.startsWith("[") && table.contains("| " + added + " |"), added + " in\n" + table);
        assertTrue(table.contains("Hodges–Lehmann") && table.contains("order statistics"), table);
        assertTrue(table.contains("- interrupted: not reached: not measured"), table);
        assertTrue(table.contains("Load here: ") && table.contains("The published host's load is not recorded"), table);
        assertEquals(
                1,
                table.lines()
                        .filter(l -> l.startsWith("| fork alone (baseline) |"))
                        .count(),
                table);
    }
}
