package heimdall.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.EnvironmentInfo;
import heimdall.lab.results.SummaryJson;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.testing.LabRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader's first screen: {@code ./lab reproduce floor-cost --quick} (rows 1-9, {@code --no-broker},
 * to stay short) prints its summary in the first {@link FirstScreen#MAX_LINES} lines, saying it is a
 * quick run, the load and the noisy rows, with findings whose intervals are the summary.json rows'
 * own; the table follows, and table.md says quick at its top too. Every floor-cost row carries
 * intervals whose ends bracket its figures.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FirstScreenTest {
    @Test
    void aQuickFloorCostRunPrintsItsSummaryFirstAndSaysQuick(@TempDir Path tmp) throws Exception {
        ReproductionsTest.requireSeccomp();
        Path out = tmp.resolve("fc");
        LabRun run = LabRun.of("reproduce", "floor-cost", "--quick", "--no-broker", "--out", out.toString());
        assertEquals(0, run.status(), run.err() + run.out());
        List<String> lines = Arrays.asList(run.out().split("\n", -1));
        List<String> first = lines.subList(0, FirstScreen.MAX_LINES);
        int end = lines.indexOf("");
        assertTrue(end > 0 && end <= FirstScreen.MAX_LINES, "the summary ends within the first screen:\n" + run.out());
        assertTrue(first.get(0).startsWith("floor-cost: " + ResultsFolder.QUICK_LINE), first.get(0));
        assertTrue(
                first.stream().anyMatch(l -> l.startsWith("host load: ") && l.contains("during the runs")),
                String.join("\n", first));
        assertTrue(
                first.stream().anyMatch(l -> l.matches("9 rows: 0 failed, 0 not measured; \\d+ noisy .*")),
                String.join("\n", first));
        JsonNode rows = ReproductionsTest.summary(out);
        assertEquals(9, rows.size());
        JsonNode row0 = rows.get(0);
        String finding = String.format(
                java.util.Locale.ROOT,
                "  %s · %s: added %,d ns [%,d, %,d]",
                row0.get("what").asText(),
                row0.get("call").asText(),
                row0.get("added_ns").asLong(),
                row0.get("added_ci_low_ns").asLong(),
                row0.get("added_ci_high_ns").asLong());
        assertTrue(first.stream().anyMatch(l -> l.startsWith(finding)), finding + " in\n" + String.join("\n", first));
        for (JsonNode r : rows) {
            long runs = r.get("runs_completed").asLong();
            assertEquals(runs, r.get("median_ci_runs").asLong(), r.toString());
            assertTrue(
                    r.get("median_ci_low_ns").asLong() <= r.get("median_ns").asLong()
                            && r.get("median_ns").asLong()
                                    <= r.get("median_ci_high_ns").asLong(),
                    r.toString());
            assertTrue(
                    r.get("p99_ci_low_ns").asLong() <= r.get("p99_ci_high_ns").asLong(), r.toString());
            assertTrue(
                    r.get("added_ci_low_ns").asLong()
                            <= r.get("added_ci_high_ns").asLong(),
                    r.toString());
            assertEquals(0.95, r.get("median_ci_level").asDouble());
            assertTrue(r.get("median_ci_coverage").asDouble() < 0.95, "3 quick runs cannot reach 95%: " + r);
        }
        String table = Files.readString(out.resolve("table.md"));
        assertTrue(table.startsWith(ResultsFolder.QUICK_LINE + "\n"), table);
        assertTrue(table.contains("| median [95% CI] |") && table.contains("over 3 runs)"), table);
        assertTrue(table.contains("Load here: ") && table.contains("Published: "), table);
        assertTrue(run.out().contains(table), "the full table follows the summary");
    }

    /**
     * workload-cost's first screen names the largest overhead per mechanism with its interval (issue 31), from
     * a committed full run's rows: every mechanism with a ratio once, its largest row's B/A and interval, the
     * largest first, all within the first screen.
     */
    @Test
    void aWorkloadCostRunNamesTheLargestOverheadPerMechanismWithItsInterval() throws Exception {
        Path dir = Path.of("..", "results", "2026-12-06-vm-workload-cost");
        List<WorkloadCostRow> rows = SummaryJson.read(dir).rows().stream()
                .map(WorkloadCostRow.class::cast)
                .toList();
        List<String> screen = FirstScreen.of("workload-cost", rows, (EnvironmentInfo) null, false);
        assertTrue(screen.size() <= FirstScreen.MAX_LINES, String.join("\n", screen));
        int title = screen.indexOf("the largest overhead per mechanism (B/A of wall times, [95% CI] over the rounds):");
        assertTrue(title > 0, String.join("\n", screen));
        Map<String, WorkloadCostRow> largest = new LinkedHashMap<>();
        for (WorkloadCostRow r : rows) {
            if (r.overhead().ratio() != null) {
                String mech = r.subject().mechanism()
                        + (r.subject().supervisor() == null
                                ? ""
                                : " " + r.subject().supervisor());
                largest.merge(
                        mech, r, (a, b) -> a.overhead().ratio() >= b.overhead().ratio() ? a : b);
            }
        }
        assertEquals(9, largest.size(), "mechanisms measured in that run: " + largest.keySet());
        List<String> findings = screen.subList(title + 1, screen.size());
        assertEquals(largest.size(), findings.size(), String.join("\n", screen));
        largest.forEach((mech, r) -> assertTrue(
                findings.contains(String.format(
                        Locale.ROOT,
                        "  %s: %.3f× [%.3f, %.3f] on %s (%s)",
                        mech,
                        r.overhead().ratio(),
                        r.overhead().ratioLow(),
                        r.overhead().ratioHigh(),
                        r.subject().workload(),
                        r.overhead().verdict())),
                mech + " in\n" + String.join("\n", screen)));
        assertTrue(
                findings.get(0).startsWith("  broker-broker java: 1.552× [1.441, 1.588] on make-j2"), findings.get(0));
    }
}
