package heimdall.lab.analysis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.Session;
import heimdall.lab.explore.ExploreCheck;
import heimdall.lab.reproduce.ReproductionResult;
import heimdall.lab.reproduce.attachcost.AttachCost;
import heimdall.lab.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Issue 22's "every plot of every quick reproduction passes the plot checks", for the two kinds whose
 * committed folders draw nothing (attach-cost's hold no samples, explore-check has none committed): a real
 * quick-sized run of each, on this kernel, loaded and drawn, every plot checked by {@link PlotRulesTest}'s
 * rules. The other kinds' plots are checked on their committed and synthetic folders there.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class QuickRunPlotRulesTest {
    @Test
    void attachCostsQuickRunPlotsFollowTheRules(@TempDir Path tmp) {
        Requires.seccomp("kill_process", "errno", "allow");
        AttachCost.Options q = AttachCost.Options.quick();
        // fewer of everything than --quick, the same figures drawn
        AttachCost.Options o =
                new AttachCost.Options(3, 50, q.forkWarmup(), 50, q.compileWarmup(), q.compiles(), q.cpu());
        Path podman = Files.isRegularFile(AttachCost.PODMAN_PROFILE) ? AttachCost.PODMAN_PROFILE : null;
        ReproductionResult r = AttachCost.run(o, ResultsFolder.chosen(tmp.resolve("attach")), podman, line -> {});
        assertDrawnAndFollowingTheRules(r.folder(), 2);
    }

    @Test
    void exploreChecksQuickRunPlotsFollowTheRules(@TempDir Path tmp) throws Exception {
        Requires.seccomp("kill_process", "errno", "allow");
        ExploreCheck.Options q = ExploreCheck.Options.quick();
        ExploreCheck.Options o = new ExploreCheck.Options(2, 2, 1_000, 10_000, q.cpu());
        ExploreCheck.Result r;
        try (Session session = Session.open(ResultsFolder.chosen(tmp.resolve("explore")), line -> {})) {
            r = ExploreCheck.run(o, session);
        }
        assertDrawnAndFollowingTheRules(r.folder(), 1);
    }

    private static void assertDrawnAndFollowingTheRules(Path folder, int atLeast) {
        Map<String, Chart<?, ?>> charts = Plots.all(Results.load(folder));
        List<String> broken = new ArrayList<>();
        for (var e : charts.entrySet()) {
            broken.addAll(PlotRulesTest.check(
                    folder.getFileName() + "/" + e.getKey(), e.getValue(), Plots.image(e.getValue())));
        }
        assertTrue(charts.size() >= atLeast, folder + ": plots drawn: " + charts.keySet());
        assertTrue(broken.isEmpty(), String.join("\n", broken));
    }
}
