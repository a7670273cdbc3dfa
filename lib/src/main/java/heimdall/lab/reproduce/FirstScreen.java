package heimdall.lab.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.EnvironmentInfo;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.SummaryJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code ./lab reproduce} prints first, before the full table: at most {@link #MAX_LINES} lines a
 * reader sees at a glance. A quick run says it is one ({@link ResultsFolder#QUICK_LINE}); then the rows
 * counted (measured, failed, noisy by the seeds' 25% rule), the host's load during the run
 * (environment.json's load averages, and the rows' per-run loads where they have them), and a few
 * findings with their intervals: the first row of each floor (or row name) with an interval, its
 * added cost where it has one, else its median. Made from the rows in memory, as they were written to
 * summary.json (the same tree), so it says only what summary.json holds; a kind whose rows carry no
 * interval says so rather than printing figures without one.
 */
final class FirstScreen {
    /** The most lines the first screen has. */
    static final int MAX_LINES = 15;
    /** The most findings it lists. */
    static final int FINDINGS = 8;

    private FirstScreen() {}

    /**
     * The first screen of a run of {@code name} whose rows are {@code rows}, written into {@code folder}
     * ({@code environment.json}'s load averages are taken from the copy it wrote, in memory); a
     * {@code --quick} run's when {@code quick}.
     */
    static List<String> of(String name, List<? extends ResultRow> rows, ResultsFolder folder, boolean quick) {
        EnvironmentInfo env = folder.written()
                .map(ResultsFolder.Written::environment)
                .filter(bytes -> bytes != null)
                .map(bytes -> SummaryJson.environment(
                        folder.path(), SummaryJson.tree(folder.path().resolve("environment.json"), bytes)))
                .orElse(null);
        return of(name, rows, env, quick);
    }

    /** The first screen of {@code rows} of the reproduction {@code name}, run on a host whose facts are {@code env}. */
    static List<String> of(String name, List<? extends ResultRow> rows, EnvironmentInfo env, boolean quick) {
        List<ResultRow> typed = List.copyOf(rows);
        List<ObjectNode> trees = SummaryJson.trees(typed);
        List<String> lines = new ArrayList<>();
        lines.add(name + (quick ? ": " + ResultsFolder.QUICK_LINE : ": summary") + " (full table below)");
        lines.add(counts(typed, trees));
        lines.add(load(env, trees));
        List<String> findings = findings(typed, trees);
        if (findings.isEmpty()) {
            lines.add("no row of this reproduction carries an interval yet: see the table below");
        } else {
            lines.add("findings ([95% CI] over the runs; the coverage reached where the runs are too few):");
            findings.forEach(f -> lines.add("  " + f));
        }
        return lines.size() > MAX_LINES ? lines.subList(0, MAX_LINES) : lines;
    }

    private static String counts(List<ResultRow> typed, List<ObjectNode> rows) {
        int failed = 0;
        // each row says whether it is noisy (ResultRow.noisy): kernel-bitmap's flags are per loop
        int noisy =
                (int) typed.stream().filter(r -> Boolean.TRUE.equals(r.noisy())).count();
        int notMeasured = 0;
        for (ObjectNode r : rows) {
            String status = r.path("status").asText("");
            failed += status.equals("failed") ? 1 : 0;
            notMeasured += status.equals("not measured") ? 1 : 0;
        }
        return String.format(
                Locale.ROOT,
                "%d rows: %d failed, %d not measured; %d noisy (run medians spread over 25%%)",
                rows.size(),
                failed,
                notMeasured,
                noisy);
    }

    private static String load(EnvironmentInfo env, List<ObjectNode> rows) {
        StringBuilder s = new StringBuilder("host load: ");
        EnvironmentInfo.LoadAverage la = env == null ? null : env.loadAverage();
        if (la == null || la.one() == null) {
            s.append("not recorded at the start");
        } else {
            s.append(String.format(
                    Locale.ROOT, "%.2f, %.2f, %.2f (1, 5, 15 min) at the start", la.one(), la.five(), la.fifteen()));
        }
        if (env != null && env.onlineCpus() != null) {
            s.append(" on ").append(env.onlineCpus()).append(" CPUs");
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (ObjectNode r : rows) {
            for (JsonNode x : r.path("load_avg_runs")) {
                lo = Math.min(lo, x.asDouble());
                hi = Math.max(hi, x.asDouble());
            }
        }
        if (lo <= hi) {
            s.append(String.format(Locale.ROOT, "; %.2f to %.2f during the runs", lo, hi));
        }
        return s.toString();
    }

    /** One finding per distinct first label part (the floor or row name), in file order, up to {@link #FINDINGS}. */
    private static List<String> findings(List<ResultRow> rows, List<ObjectNode> trees) {
        List<String> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < rows.size() && out.size() < FINDINGS; i++) {
            ObjectNode t = trees.get(i);
            String figure = t.has("added_ci_low_ns")
                    ? "added"
                    : t.has("median_ci_low_ns") ? "median" : t.has("wall_ms_ci_low") ? "wall_ms" : null;
            List<String> parts = rows.get(i).labelParts();
            if (figure == null || !seen.add(parts.isEmpty() ? "" : String.valueOf(parts.get(0)))) {
                continue;
            }
            if (figure.equals("wall_ms")) {
                // lanes: a batch's wall time, in milliseconds to 3 decimals (FigureCi), not nanoseconds
                out.add(String.format(
                        Locale.ROOT,
                        "%s: median wall %.3f ms [%.3f, %.3f]%s",
                        rows.get(i).label(),
                        t.path("wall_ms_median").asDouble(),
                        t.path("wall_ms_ci_low").asDouble(),
                        t.path("wall_ms_ci_high").asDouble(),
                        coverage(t, figure, rows.get(i).intervalsOver())));
                continue;
            }
            // the row names the key of its figure (attach-cost's); a follower-cost row's median is the one with the
            // hook
            String key = rows.get(i).intervalFigureKey(figure);
            JsonNode estimate = t.has(key) ? t.path(key) : t.path(figure + "_with_ns");
            out.add(String.format(
                    Locale.ROOT,
                    "%s: %s %s %s [%,d, %,d]%s",
                    rows.get(i).label(),
                    figure,
                    !estimate.isNumber()
                            ? "?"
                            : estimate.isIntegralNumber()
                                    ? String.format(Locale.ROOT, "%,d", estimate.asLong())
                                    : String.format(Locale.ROOT, "%.3f", estimate.asDouble()),
                    rows.get(i).intervalUnit(),
                    t.path(figure + "_ci_low_ns").asLong(),
                    t.path(figure + "_ci_high_ns").asLong(),
                    coverage(t, figure, rows.get(i).intervalsOver())));
        }
        return out;
    }

    private static String coverage(ObjectNode t, String figure, String over) {
        double level = t.path(figure + "_ci_level").asDouble(0.95);
        double reached = t.path(figure + "_ci_coverage").asDouble(0);
        if (t.path(figure + "_ci_runs").asLong() == 1) {
            return " (one " + over.replaceAll("e?s$", "") + ": its samples only)";
        }
        if (reached >= level - 1e-9) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                " (only %s%% over %d %s)",
                trim(reached * 100),
                t.path(figure + "_ci_runs").asLong(),
                over);
    }

    private static String trim(double pc) {
        double r = Math.round(pc * 10) / 10.0;
        return r == Math.rint(r) ? String.valueOf((long) r) : String.valueOf(r);
    }
}
