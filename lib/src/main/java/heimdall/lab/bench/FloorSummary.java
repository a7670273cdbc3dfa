package heimdall.lab.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code summary.json} row of a floor-cost table, from its measurement: the figures over all
 * samples, each run's median, the spread, and the published figures beside ours.
 */
public final class FloorSummary {
    private FloorSummary() {}

    /** The summary row of {@code m}, measured in full (a failed row keeps what it measured and says why it failed). */
    public static Map<String, Object> of(FloorBench.Measured m) {
        return of(m, Math.max(m.runs().size(), m.baseline().size()), false);
    }

    /**
     * The summary row of {@code m}, of which {@code runsAsked} runs were asked; {@code interrupted}
     * when a signal stopped the measurement. {@code status} is {@code "ok"} only for a row with every
     * run it asked for (filtered and baseline); a row cut short says {@code "interrupted"} and how
     * many runs it completed, one with none has no figures at all.
     */
    public static Map<String, Object> of(FloorBench.Measured m, int runsAsked, boolean interrupted) {
        FloorRow row = m.row();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("what", row.what());
        out.put("call", row.callName());
        out.put("floor", row.floor().name());
        out.put("programs", row.floor().programs().size());
        out.put("insns", row.floor().insns(row.data()));
        // A reference row installs no filter: nothing to cache.
        out.put("cache", row.reference() ? null : row.floor().cacheable(row.data().nr()));
        if (row.reference()) {
            // The host's floor for a round trip: a partner thread, not a supervisor, in the same place.
            out.put("reference", row.baselineCall() == null ? "pipe ping-pong" : "pipe ping-pong, then " + row.baselineCall().kind().name()
                    .toLowerCase(java.util.Locale.ROOT));
            out.put("placement", row.broker().placement());
            out.put("supervisor_cpu", row.broker().supervisorCpu());
            out.put("cpu_set", row.broker().cpuSet());
        } else if (row.brokered()) {
            out.put("supervisor", row.broker().supervisor().label());
            out.put("answer", row.broker().answer().label());
            out.put("placement", row.broker().placement());
            out.put("supervisor_cpu", row.broker().supervisorCpu());
            out.put("sync_wakeup", row.broker().syncWakeUp());
            out.put("cpu_set", row.broker().cpuSet());
        }
        // A reference row has no unfiltered twin: it is complete with its own runs.
        boolean complete = m.runs().size() >= runsAsked && (row.baselineCall() == null || m.baseline().size() >= runsAsked);
        out.put("status", m.failure() != null ? "failed" : complete ? "ok" : "interrupted");
        out.put("failure", m.failure());
        out.put("runs_asked", runsAsked);
        out.put("runs_completed", m.runs().size());
        out.put("runs_none_completed", m.baseline().size());
        out.put("interrupted", interrupted && !complete && m.failure() == null);
        put(out, "", m.runs());
        put(out, "_none", m.baseline());
        Object median = out.get("median_ns");
        Object none = out.get("median_none_ns");
        out.put("added_ns", median instanceof Long a && none instanceof Long b ? a - b : null);
        out.put("baseline_row", m.baselineRow() >= 0 ? m.baselineRow() : null);
        out.put("load_avg_runs", m.loadPerRun());
        out.put("cpu_granted", m.cpuGranted());
        if (!m.supervisor().isEmpty()) {
            out.put("supervisor_served", m.supervisor().stream().mapToLong(s -> s.received()).sum());
        }
        out.put("published", row.published());
        Object publishedAdded = row.published() == null ? null : row.published().get("added_ns");
        Object added = out.get("added_ns");
        out.put("added_vs_published", added instanceof Long a && publishedAdded instanceof Number p && p.doubleValue() != 0
                ? round3(a / p.doubleValue()) : null);
        return out;
    }

    private static void put(Map<String, Object> out, String suffix, List<long[]> runs) {
        if (runs.isEmpty()) {
            out.put("median" + suffix + "_ns", null);
            out.put("p99" + suffix + "_ns", null);
            out.put("run_medians" + suffix + "_ns", List.of());
            out.put("samples" + suffix, 0);
            if (suffix.isEmpty()) {
                out.put("spread", null);
                out.put("noisy", null);
            }
            return;
        }
        long[][] all = runs.toArray(long[][]::new);
        Stats.Summary s = Stats.ofAll(all);
        long[] medians = Stats.runMedians(all);
        out.put("median" + suffix + "_ns", s.median());
        out.put("p99" + suffix + "_ns", s.p99());
        out.put("run_medians" + suffix + "_ns", Arrays.stream(medians).boxed().toList());
        out.put("samples" + suffix, s.count());
        if (suffix.isEmpty()) {
            double spread = Stats.spread(medians);
            out.put("spread", round3(spread));
            out.put("noisy", spread > Stats.NOISY_SPREAD);
        } else {
            out.put("spread_none", round3(Stats.spread(medians)));
        }
    }

    static double round3(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
