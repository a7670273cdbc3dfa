package heimdall.lab.reproduce.kernelmatrix;

import heimdall.lab.analysis.Charts;
import heimdall.lab.analysis.Results;
import heimdall.lab.results.KernelMatrixRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.Chart;

/** kernel-matrix's plots: the added ratios by kernel, the brokered round trip on a panel of its own. Its
 * kind's plots facet ({@link KernelMatrixRun#plots}). */
public final class KernelMatrixPlots {
    private KernelMatrixPlots() {}

    /** kernel-matrix's plots: the added ratios by kernel, the brokered round trip on a panel of its own. */
    public static Map<String, Chart<?, ?>> of(Results r) {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        // the brokered round trip (hundreds of times the call) on a panel of its own, so that the calls'
        // and the follower's ratios (tenths) are not flattened against it
        if (r.kernelMatrix().stream().anyMatch(row -> row.figures().addedRatio() != null && !brokeredRow(row))) {
            charts.put("added-ratio-by-kernel.png", kernelMatrixRatios(r, false));
        }
        if (r.kernelMatrix().stream().anyMatch(row -> row.figures().addedRatio() != null && brokeredRow(row))) {
            charts.put("added-ratio-broker-by-kernel.png", kernelMatrixRatios(r, true));
        }
        return charts;
    }

    /**
     * kernel-matrix: each measured row's added cost as a ratio to its kernel's own unfiltered call, one
     * dot series per kernel (emulated kernels named so): ratios, never nanoseconds, so an emulated
     * guest's figures sit beside a native kernel's only in the terms they share. {@code brokered}: the
     * brokered rows only, else every other row.
     */
    public static CategoryChart kernelMatrixRatios(Results r, boolean brokered) {
        List<String> x = new ArrayList<>();
        // every kernel with a ratio in either panel, in one order: a kernel has one colour in both
        List<String> kernels = new ArrayList<>();
        Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        for (KernelMatrixRow row : r.kernelMatrix()) {
            if (row.figures().addedRatio() == null) {
                continue;
            }
            String series = row.kernel().name() + " " + row.kernel().release()
                    + (row.kernel().emulated() ? " (emulated)" : "");
            if (!kernels.contains(series)) {
                kernels.add(series);
            }
            if (brokeredRow(row) != brokered) {
                continue;
            }
            String label = kernelMatrixLabel(row);
            if (!x.contains(label)) {
                x.add(label);
            }
            cells.computeIfAbsent(series, k -> new LinkedHashMap<>())
                    .put(label, row.figures().addedRatio());
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        cells.forEach(
                (kernel, byX) -> series.put(kernel, x.stream().map(byX::get).toList()));
        return Charts.categoryDots(
                (brokered ? "Brokered openat round trip" : "Calls under a floor, and the follower")
                        + ": added / unfiltered call, per kernel",
                "row",
                "added / the kernel's own unfiltered call (ratio)",
                x,
                series,
                kernels);
    }

    /** A kernel-matrix row timed through the broker (a supervisor's round trip, not a filter's cost). */
    public static boolean brokeredRow(KernelMatrixRow row) {
        return row.section() == KernelMatrixRow.Section.FLOOR_COST && row.what().contains("broker");
    }

    /** A short x label for a kernel-matrix row (the table keeps the whole name). */
    public static String kernelMatrixLabel(KernelMatrixRow row) {
        String w = row.what();
        if (row.section() == KernelMatrixRow.Section.FLOOR_COST) {
            return "floor " + w.replaceFirst("^[^·]*· ", "");
        }
        if (row.section() == KernelMatrixRow.Section.FOLLOWER_COST) {
            // measure · hook · process [· call]: the hook shortened, t_idle named by its process, t_follow by its call
            String[] p = w.split(" · ");
            if (p.length >= 3) {
                String hook =
                        p[1].equals("syscall-tracepoint") ? "tp" : p[1].equals("seccomp-fentry") ? "fentry" : p[1];
                String which = p[0].equals("t_idle") ? p[2].replace("unrelated, ", "") : p.length > 3 ? p[3] : p[2];
                return p[0] + " " + hook + " · " + which;
            }
        }
        return row.section().label() + " " + w;
    }
}
