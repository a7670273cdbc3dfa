package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Stats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * Samples written the way the reproductions write them (SamplesFile: ZSTD batches, runs interleaved
 * across rows, a baseline stored once under the first row that uses it) read back through the
 * streaming path.
 */
class ResultsSamplesTest {
    static final int RUNS = 3;
    /** More than one Arrow batch (64 Ki rows) and more than one chunk per run. */
    static final int PER_RUN = 70_000;

    @TempDir
    static Path dir;
    /** row -> variant -> runs, as written. */
    static final Map<String, long[][]> written = new LinkedHashMap<>();

    static Results r;

    @BeforeAll
    static void write() throws Exception {
        Random rnd = new Random(3);
        // Rows 0 and 2 time getppid and share row 0's baseline; row 1 times mprotect with its own.
        String[][] variants = {{"0", "none"}, {"1", "none"}, {"0", "filtered"}, {"1", "filtered"}, {"2", "filtered"}};
        long[] base = {200, 400, 230, 470, 260};
        for (int v = 0; v < variants.length; v++) {
            written.put(variants[v][0] + "/" + variants[v][1], new long[RUNS][PER_RUN]);
        }
        try (SamplesFile f = SamplesFile.create(dir.resolve("samples.arrow"))) {
            for (int run = 0; run < RUNS; run++) {
                for (int v = 0; v < variants.length; v++) {
                    long[] s = written.get(variants[v][0] + "/" + variants[v][1])[run];
                    for (int i = 0; i < PER_RUN; i++) {
                        s[i] = base[v] + run * 5 + (long) (rnd.nextDouble() * 40) + (rnd.nextInt(100) == 0 ? 5_000 : 0);
                    }
                    f.append(Integer.parseInt(variants[v][0]), variants[v][1], run, s);
                }
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        String[] calls = {"getppid", "mprotect", "getppid"};
        int[] baselineRow = {0, 1, 0};
        for (int i = 0; i < 3; i++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("what", i == 2 ? "stacked" : "static floor");
            row.put("call", calls[i]);
            row.put("floor", "abcdf");
            row.put("status", "ok");
            row.put("baseline_row", baselineRow[i]);
            row.put("run_medians_ns", List.of(1, 2, 3));
            rows.add(row);
        }
        new ObjectMapper()
                .writeValue(
                        dir.resolve("summary.json").toFile(),
                        Map.of("reproduction", "floor-cost", "schema_version", 2, "interrupted", false, "rows", rows));
        r = Results.load(dir);
    }

    @Test
    void samplesOfReturnsEachRunAsWrittenFromOnePass() {
        for (var e : written.entrySet()) {
            String[] k = e.getKey().split("/");
            long[][] got = r.samplesOf(Integer.parseInt(k[0]), k[1]);
            assertEquals(RUNS, got.length, e.getKey());
            for (int run = 0; run < RUNS; run++) {
                assertArrayEquals(e.getValue()[run], got[run], e.getKey() + " run " + run);
            }
        }
        assertEquals(0, r.samplesOf(2, "none").length, "row 2's baseline lives under row 0");
        assertEquals(0, r.samplesOf(7, "filtered").length);
        assertEquals(List.of(0, 1, 2), r.rowsWithSamples());
        assertEquals(RUNS * PER_RUN, r.allSamplesOf(1, "filtered").length);
    }

    @Test
    void fromSamplesUsesTheSharedBaselineAndNearestRankFigures() {
        Table t = Tables.fromSamples(r);
        assertEquals(3, t.rowCount());
        Stats.Summary f2 = Stats.ofAll(written.get("2/filtered"));
        Stats.Summary n0 = Stats.ofAll(written.get("0/none"));
        assertEquals(f2.median(), t.doubleColumn("median_ns").getDouble(2));
        assertEquals(f2.p99(), t.doubleColumn("p99_ns").getDouble(2));
        assertEquals(
                n0.median(), t.doubleColumn("median_none_ns").getDouble(2), "row 2 compares with row 0's baseline");
        assertEquals(f2.median() - n0.median(), t.doubleColumn("added_ns").getDouble(2));
        assertEquals(
                Stats.spread(Stats.runMedians(written.get("2/filtered"))),
                t.doubleColumn("spread").getDouble(2),
                1e-12);
        Stats.Summary n1 = Stats.ofAll(written.get("1/none"));
        assertEquals(n1.median(), t.doubleColumn("median_none_ns").getDouble(1));
    }

    @Test
    void theSampleTableRefusesMoreThanItsLimitAndNamesTheWayOut() {
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> SamplesReader.readArrow(dir.resolve("samples.arrow"), 100_000));
        assertTrue(e.getMessage().contains("samplesOf"), e.getMessage());
        // Under the default limit the table still loads (ZSTD included), one row a sample.
        assertEquals(5L * RUNS * PER_RUN, r.samples().rowCount());
    }

    @Test
    void groupedPlotsDrawEveryRowFromBoundedPoints() {
        List<Plots.Group> groups = CallPlots.floorGroups(r);
        assertEquals(
                List.of("static-floor", "stacked"),
                groups.stream().map(Plots.Group::slug).toList());
        var chart = CallPlots.distribution(r, groups.get(0));
        // Two rows with the floor, two baselines (getppid, mprotect).
        assertEquals(4, chart.getSeriesMap().size());
        chart.getSeriesMap().values().forEach(s -> assertTrue(s.getXData().length <= Ecdf.MAX_POINTS));
        assertTrue(Plots.all(r).containsKey("run-medians-floors.png"));
    }
}
