package heimdall.lab.follower;

import heimdall.lab.bench.Stats;
import heimdall.lab.results.FollowerCostRow;
import heimdall.lab.results.RowIntervals;
import heimdall.lab.stats.Intervals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A t_follow row's own work split by the parts of the follower's step ({@link FollowStep}), from the runs of one
 * row: with the empty program alone (t_hook), with the follower stopped after each part, and with the whole
 * follower. Each part's share is its median less the median at the part before it, with the Hodges–Lehmann
 * interval of the run medians (as the row's own work has), so the shares add up to the row's own work.
 */
final class StepCosts {
    private StepCosts() {}

    /**
     * The row's {@code step_*} figures.
     *
     * @param hooked the runs with the empty program (null where a run has none)
     * @param stepped per partial step ({@link FollowStep#PARTIAL}, in order), its runs (null where a run has none)
     * @param with the runs with the whole follower
     * @param refusals per partial step, why it was refused, or null
     * @param counts per partial step, its statistics run
     */
    static FollowerCostRow.Steps of(
            long[][] hooked,
            long[][][] stepped,
            long[][] with,
            String[] refusals,
            List<FollowerRuns.ProgramRun> counts) {
        List<FollowStep> partial = FollowStep.PARTIAL;
        if (stepped.length != partial.size() || refusals.length != partial.size() || counts.size() != partial.size()) {
            throw new IllegalArgumentException("one set of runs, refusal and count per partial step");
        }
        List<FollowerCostRow.Step> parts = new ArrayList<>();
        long[][] before = measured(hooked);
        for (int s = 0; s < partial.size(); s++) {
            long[][] runs = measured(stepped[s]);
            parts.add(part(before, runs, counts.get(s).cost(), refusals[s]));
            before = runs;
        }
        // the last part: the whole follower over the last partial step (its median and count are the row's own)
        FollowerCostRow.Step last = part(before, with, FollowerCostRow.ProgramCost.NONE, null);
        parts.add(new FollowerCostRow.Step(null, null, last.ns(), last.ci(), null, null));
        return new FollowerCostRow.Steps(parts.get(0), parts.get(1), parts.get(2), parts.get(3));
    }

    /** The runs that were measured (a refused variant's later runs are null). */
    private static long[][] measured(long[][] runs) {
        return Arrays.stream(runs).filter(Objects::nonNull).toArray(long[][]::new);
    }

    /** One part: its median and run medians, its share over {@code before} (none when either has no runs). */
    private static FollowerCostRow.Step part(
            long[][] before, long[][] runs, FollowerCostRow.ProgramCost count, String refusal) {
        if (runs.length == 0) {
            return new FollowerCostRow.Step(null, null, null, null, count, refusal);
        }
        long median = Stats.ofAll(runs).median();
        List<Long> runMedians = Arrays.stream(Stats.runMedians(runs)).boxed().toList();
        if (before.length == 0) {
            return new FollowerCostRow.Step(median, runMedians, null, null, count, refusal);
        }
        return new FollowerCostRow.Step(
                median,
                runMedians,
                median - Stats.ofAll(before).median(),
                RowIntervals.Ci.of(
                        Intervals.added(runs, before, Intervals.LEVEL), Math.min(runs.length, before.length)),
                count,
                refusal);
    }
}
