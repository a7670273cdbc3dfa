package heimdall.lab.follower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import heimdall.lab.bench.Interruption;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.reproduce.followercost.FollowerCostRun;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.RowStatus;
import heimdall.lab.sys.Cpus;
import heimdall.lab.testing.KernelFacts;
import heimdall.lab.testing.Requires;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop during follower-cost, at the worst moment: after the loop's check of the stop flag and
 * before the run's children start, so that no child is alive for the stop to end and the run goes on
 * to finish. That run must not be kept as if whole: the row keeps the runs completed before the stop,
 * is marked interrupted, and no row after it is measured; summary.json says so; no followed child
 * and no program of ours is left.
 */
class FollowerCostStopTest {
    @Test
    void aStopBeforeARunsChildrenStartLeavesThatRunOutAndMarksTheRows(@TempDir Path tmp) throws Exception {
        Requires.that(KernelFacts.root(), KernelFacts.btf());
        List<Integer> programsBefore = Loaded.ours();
        Set<Long> childrenBefore =
                ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
        AtomicInteger runs = new AtomicInteger();
        FollowerCost.beforeRun = () -> {
            if (runs.incrementAndGet() == 2) {
                Interruption.requestStop(Interruption.Cause.NOTEBOOK);
            }
        };
        FollowerCost.Result r;
        try (Interruption stop = Interruption.catchSignals()) {
            r = FollowerCostRun.run(
                    new FollowerCost.Options(3, FollowerCost.Options.MIN_WARMUP, 5_000, Cpus.measuring()),
                    ResultsFolder.chosen(tmp.resolve("out")),
                    line -> {});
        } finally {
            FollowerCost.beforeRun = () -> {};
        }
        assertEquals(2, runs.get(), "no run began after the stop");
        assertEquals(Interruption.Cause.NOTEBOOK, r.interruption().orElseThrow());
        FollowerCostRow first = r.summary().get(0);
        assertEquals(RowStatus.OK, first.outcome(), first.toString());
        assertEquals(1L, first.runs().runsCompleted(), "the run under way at the stop is not kept: " + first);
        assertEquals(true, first.runs().interrupted(), first.toString());
        for (FollowerCostRow row : r.summary().subList(1, r.summary().size())) {
            assertEquals(RowStatus.NOT_MEASURED, row.outcome(), row.toString());
            assertEquals(0L, row.runs().runsCompleted(), row.toString());
            assertEquals(true, row.runs().interrupted(), row.toString());
        }

        JsonNode summary =
                new ObjectMapper().readTree(r.folder().resolve("summary.json").toFile());
        assertTrue(summary.get("interrupted").asBoolean(), summary.toString());
        assertEquals(r.summary().size(), summary.get("rows").size());
        assertEquals(1, summary.get("rows").get(0).get("runs_completed").asInt());
        Path samples = r.folder().resolve("samples.arrow");
        assertEquals(1, SamplesFile.read(samples, 0, FollowerCost.WITH).length, "only the kept run's samples");
        assertEquals(1, SamplesFile.read(samples, 0, FollowerCost.WITHOUT).length);

        Set<Long> children =
                ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
        children.removeAll(childrenBefore);
        assertEquals(Set.of(), children, "no followed child, bystander or measured child is left");
        assertEquals(List.of(), Loaded.newSince(programsBefore), "no program of ours stays loaded");
    }
}
