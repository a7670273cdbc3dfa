package heimdall.lab.reproduce.kernelbitmap;

import heimdall.lab.analysis.CallPlots;
import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.KernelBitmapRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** kernel-bitmap's plots: the call rows' ({@link CallPlots}) and the configurations by code placement, per
 * loop. Its kind's plots facet ({@link KernelBitmapRun#plots}). */
public final class KernelBitmapPlots {
    private KernelBitmapPlots() {}

    /** kernel-bitmap's plots: {@link CallPlots#callPlots} and the configurations by code placement, per loop. */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = CallPlots.callPlots(r);
        if (!placementRows(r, KernelBitmapRow.Loop.BARE).isEmpty()) {
            charts.put("by-placement.png", byPlacement(r));
        }
        if (!placementRows(r, KernelBitmapRow.Loop.SELFTEST).isEmpty()) {
            charts.put("by-placement-selftest-loop.png", byPlacement(r, SELFTEST_LOOP));
        }
        return charts;
    }

    public static final String PER_CALL_BY_PLACEMENT = "per_call_ns_by_placement";
    public static final String BATCH_BY_PLACEMENT = "batch_ns_per_call_by_placement";
    public static final String BATCH_MONOTONIC_BY_PLACEMENT = "batch_monotonic_ns_per_call_by_placement";
    /** kernel-bitmap's prefix for the fields of the selftest's loop (glibc {@code syscall()}, the pid compared). */
    public static final String SELFTEST_LOOP = "selftest_";

    /**
     * A figure by code placement of the runner's timed loop (kernel-bitmap's {@code
     * per_call_ns_by_placement} and {@code batch_ns_per_call_by_placement}): a column per row, a
     * circle per placement for the per-call figure and a diamond in the same colour for the batch
     * one (CPU time), a square for the batch on the monotonic clock where the rows have it. A
     * placement whose circles sit above the others in every filtered column is a bias of the per-call
     * harness at that placement, not noise. This is the bare loop's chart; {@link #byPlacement(Results,
     * String)} with {@link #SELFTEST_LOOP} draws the selftest loop's.
     */
    public static CategoryChart byPlacement(Results r) {
        return byPlacement(r, "");
    }

    /** {@link #byPlacement(Results)} for the fields named with {@code prefix} ("" or {@link #SELFTEST_LOOP}). */
    public static CategoryChart byPlacement(Results r, String prefix) {
        KernelBitmapRow.Loop loop =
                prefix.equals(SELFTEST_LOOP) ? KernelBitmapRow.Loop.SELFTEST : KernelBitmapRow.Loop.BARE;
        if (!prefix.isEmpty() && loop == KernelBitmapRow.Loop.BARE) {
            throw new IllegalArgumentException("unknown loop prefix '" + prefix + "': \"\" or " + SELFTEST_LOOP);
        }
        List<Integer> rows = placementRows(r, loop);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no row has " + prefix + PER_CALL_BY_PLACEMENT + " in " + r.dir());
        }
        List<String> categories = CallPlots.rowCategories(r, rows);
        String title = "Median ns per call by code placement" + (prefix.isEmpty() ? "" : " (selftest's loop)")
                + ": ● per call, ◆ batch, ■ monotonic batch";
        CategoryChart c = Charts.rowScatter(title, "ns per call", rows.size());
        int placements = rows.stream()
                .mapToInt(i -> configuration(r, i).perCallByPlacement(loop).size())
                .max()
                .orElse(0);
        Map<String, Function<KernelBitmapRow.Configuration, List<Long>>> figures = new LinkedHashMap<>();
        figures.put("per call", x -> x.perCallByPlacement(loop));
        figures.put("batch", x -> x.batchByPlacement(loop));
        figures.put("batch (monotonic)", x -> x.batchMonotonicByPlacement(loop));
        int kind = 0;
        Set<Integer> legendPlacements = new HashSet<>();
        for (var f : figures.entrySet()) {
            for (int p = 0; p < placements; p++) {
                List<Double> y = new ArrayList<>();
                boolean any = false;
                for (int i : rows) {
                    List<Long> list = f.getValue().apply(configuration(r, i));
                    Long v = list != null && p < list.size() ? list.get(p) : null;
                    y.add(v == null ? null : v.doubleValue());
                    any |= v != null;
                }
                if (!any) {
                    continue;
                }
                var s = c.addSeries(f.getKey() + ", placement " + p, categories, y);
                s.setMarker(
                        kind == 0 ? SeriesMarkers.CIRCLE : kind == 1 ? SeriesMarkers.DIAMOND : SeriesMarkers.SQUARE);
                s.setMarkerColor(Charts.PALETTE[p % Charts.PALETTE.length]);
                // a legend entry per placement (its colour); the title gives the marker of each figure
                s.setShowInLegend(!legendPlacements.contains(p) && legendPlacements.add(p));
            }
            kind++;
        }
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    /** kernel-bitmap's configuration rows that have per-call figures by placement for {@code loop}, in row order. */
    public static List<Integer> placementRows(Results r, KernelBitmapRow.Loop loop) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < r.resultRows().size(); i++) {
            if (configuration(r, i) != null && configuration(r, i).perCallByPlacement(loop) != null) {
                rows.add(i);
            }
        }
        return rows;
    }

    public static KernelBitmapRow.Configuration configuration(Results r, int i) {
        return r.row(i) instanceof KernelBitmapRow.Configuration c ? c : null;
    }
}
