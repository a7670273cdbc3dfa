package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.follower.FollowerCost;
import heimdall.lab.results.WorkloadCostRow;
import heimdall.lab.sys.Cpus;
import java.util.function.Consumer;

/**
 * The follower rows' prediction: the calls the follower stepped in a run times t_follow, a followed call's added
 * time on the same hook, measured once a run by follower-cost's method ({@link
 * FollowerCost#followedGetppidAddedNs}: a getppid child without and with the follower following it). What a
 * process that is not followed pays meanwhile (t_idle: the host's other tasks, the program's supervisor) is not
 * in the program's wall time and not predicted.
 */
final class FollowPrediction {
    private final int runs;
    private final long calls;
    private final Consumer<String> progress;
    private Double tFollow;
    private String refusal;

    /**
     * @param runs fresh children each way the figure is measured over
     * @param calls timed calls a child
     */
    FollowPrediction(int runs, long calls, Consumer<String> progress) {
        this.runs = runs;
        this.calls = calls;
        this.progress = progress;
    }

    /** t_follow on {@link Enforcers#HOOK}, measured at the first call; null when the follower refused it. */
    Double perCallNs() {
        if (tFollow == null && refusal == null) {
            progress.accept("  t_follow on " + Enforcers.HOOK.wire() + " (getppid, " + runs + " children each way)");
            try {
                FollowerCost.Options o = new FollowerCost.Options(
                        runs,
                        FollowerCost.Options.MIN_WARMUP,
                        calls,
                        Cpus.allowed().get(0));
                tFollow = Math.round(FollowerCost.followedGetppidAddedNs(Enforcers.HOOK, o) * 10) / 10.0;
            } catch (Refusal e) {
                refusal = e.getMessage();
            }
        }
        return tFollow;
    }

    /** The prediction of a follower row that stepped {@code followed} calls a run, beside what was measured. */
    WorkloadCostRow.Predicted predict(
            long followed, WorkloadCostRow.Cost cost, WorkloadCostRow.Cost none, WorkloadCostRow.Overhead overhead) {
        Double t = perCallNs();
        if (t == null && refusal != null) {
            return new WorkloadCostRow.Predicted(
                    null,
                    null,
                    null,
                    null,
                    null,
                    Predictor.addedCpuNs(false, cost, none),
                    null,
                    "no prediction: t_follow could not be measured: " + refusal,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null);
        }
        if (t == null || none.wallMedianNs() == null) {
            return WorkloadCostRow.Predicted.NONE;
        }
        long predicted = Math.round(followed * t);
        long noneMedian = none.wallMedianNs();
        Long low = overhead.ratioLow() == null ? null : Math.round((overhead.ratioLow() - 1) * noneMedian);
        Long high = overhead.ratioHigh() == null ? null : Math.round((overhead.ratioHigh() - 1) * noneMedian);
        Boolean within = low == null ? null : predicted >= low && predicted <= high;
        long measured = cost.wallAddedNs() == null ? 0 : cost.wallAddedNs();
        Long cpu = Predictor.addedCpuNs(false, cost, none);
        String cause = Boolean.FALSE.equals(within)
                ? Predictor.cause(measured - predicted, low, high, predicted, cpu, cost, none)
                : null;
        return new WorkloadCostRow.Predicted(
                predicted,
                Math.round((1 + (double) predicted / noneMedian) * 10_000) / 10_000.0,
                measured - predicted,
                low,
                high,
                cpu,
                within,
                cause,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** t_follow if it was measured already (a row's prediction measures it), else null: nothing measured here. */
    Double measuredNs() {
        return tFollow;
    }
}
