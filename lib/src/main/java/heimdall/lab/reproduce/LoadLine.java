package heimdall.lab.reproduce;

import heimdall.lab.results.MeasuredCallRow;
import heimdall.lab.sys.Host;
import java.util.List;
import java.util.Locale;

/**
 * The sentence a table's header gives this host's load in, beside the published host's: the load
 * average when the run started, and the range of the rows' per-run load averages, so a reader sees
 * both hosts' load before any figure.
 */
public final class LoadLine {
    private LoadLine() {}

    /** {@code "Load here: 2.31 at the start (1 min), 2.10 to 2.70 during the runs, on 2 CPUs."} */
    public static String of(Host host, List<? extends MeasuredCallRow> rows) {
        StringBuilder s = new StringBuilder("Load here: ");
        Host.LoadAverage la = host.load();
        s.append(
                la == null || la.one() < 0
                        ? "not read at the start"
                        : String.format(Locale.ROOT, "%.2f at the start (1 min)", la.one()));
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (MeasuredCallRow r : rows) {
            for (Double x : r.loadAvgRuns() == null ? List.<Double>of() : r.loadAvgRuns()) {
                if (x != null) {
                    lo = Math.min(lo, x);
                    hi = Math.max(hi, x);
                }
            }
        }
        if (lo <= hi) {
            s.append(String.format(Locale.ROOT, ", %.2f to %.2f during the runs", lo, hi));
        }
        return s.append(String.format(Locale.ROOT, ", on %d CPUs.", host.onlineCpus()))
                .toString();
    }
}
