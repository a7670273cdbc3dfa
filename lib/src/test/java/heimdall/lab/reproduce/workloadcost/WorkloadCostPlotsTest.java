package heimdall.lab.reproduce.workloadcost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.analysis.Plots;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.WorkloadCostRow;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Every mechanism of a full run is drawn: ten mechanisms do not fit one legend ({@link Plots#MAX_SERIES}), and a
 * chart once dropped the last of them without a word (Landlock, then the follower). The kernel's own mechanisms
 * and the broker's are drawn in two panels of each chart, the unfiltered runs in each ECDF.
 */
class WorkloadCostPlotsTest {
    @Test
    void everyMechanismWithAnOverheadIsDrawnInOnePanelOfEachChart() throws Exception {
        Results r = Results.load(Path.of("..", "results", "2026-12-06-vm-workload-cost-2"));
        Set<String> measured = new TreeSet<>();
        for (WorkloadCostRow x : r.rows(WorkloadCostRow.class)) {
            if (x.overhead().ratio() != null) {
                measured.add(x.subject().mechanism()
                        + (x.subject().supervisor() == null
                                ? ""
                                : " " + x.subject().supervisor()));
            }
        }
        assertEquals(9, measured.size(), measured.toString());
        Map<String, Chart<?, ?>> charts = Plots.all(r);
        assertEquals(measured, seriesOf(charts, "overhead.png", "overhead-broker.png"));
        for (Chart<?, ?> c : charts.values()) {
            assertTrue(c.getSeriesMap().size() <= Plots.MAX_SERIES, c.getTitle());
        }
        Set<String> findTree = seriesOf(charts, "ecdf-find-tree.png", "ecdf-find-tree-broker.png");
        assertTrue(findTree.containsAll(measured) && findTree.contains("none"), findTree.toString());
        assertTrue(
                charts.get("ecdf-find-tree-broker.png").getSeriesMap().containsKey("none"),
                "the baseline beside the broker");
    }

    private static Set<String> seriesOf(Map<String, Chart<?, ?>> charts, String... names) {
        Set<String> out = new TreeSet<>();
        for (String n : names) {
            assertTrue(charts.containsKey(n), n + " among " + charts.keySet());
            out.addAll(charts.get(n).getSeriesMap().keySet());
        }
        return out;
    }
}
