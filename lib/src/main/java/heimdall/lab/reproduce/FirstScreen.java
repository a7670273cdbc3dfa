package heimdall.lab.reproduce;

import heimdall.lab.bench.ResultsFolder;
import heimdall.lab.results.EnvironmentInfo;
import heimdall.lab.results.Findings;
import heimdall.lab.results.Headline;
import heimdall.lab.results.ReproductionKind;
import heimdall.lab.results.ResultRow;
import heimdall.lab.results.RowStatus;
import heimdall.lab.results.SummaryJson;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code ./lab reproduce} prints first, before the full table: at most {@link #MAX_LINES} lines a
 * reader sees at a glance. A quick run says it is one ({@link ResultsFolder#QUICK_LINE}); then the rows
 * counted (measured, failed, noisy by the seeds' 25% rule), the host's load during the run
 * (environment.json's load averages, and the rows' per-run loads where they have them), and a few
 * findings with their intervals: the first row of each floor (or row name) with a headline, as its kind
 * gives it ({@link ReproductionKind#headline}: floor-cost's added cost where it has one, else its median),
 * or the findings a kind chooses over all its rows ({@link ReproductionKind#findings}: workload-cost's largest
 * overhead per mechanism).
 * Made from the typed rows in memory, as they were written to summary.json, so it says only what
 * summary.json holds, and names no key of any kind; a kind whose rows carry no interval says so rather
 * than printing figures without one.
 */
public final class FirstScreen {
    /** The most lines the first screen has. */
    public static final int MAX_LINES = 15;
    /** The most findings it lists. */
    static final int FINDINGS = 8;

    private FirstScreen() {}

    /**
     * The first screen of a run of {@code name} whose rows are {@code rows}, written into {@code folder}
     * ({@code environment.json}'s load averages are taken from the copy it wrote, in memory); a
     * {@code --quick} run's when {@code quick}.
     */
    public static List<String> of(String name, List<? extends ResultRow> rows, ResultsFolder folder, boolean quick) {
        EnvironmentInfo env = folder.written()
                .map(ResultsFolder.Written::environment)
                .filter(bytes -> bytes != null)
                .map(bytes -> SummaryJson.environment(
                        folder.path(), SummaryJson.tree(folder.path().resolve("environment.json"), bytes)))
                .orElse(null);
        return of(name, rows, env, quick);
    }

    /** The first screen of {@code rows} of the reproduction {@code name}, run on a host whose facts are {@code env}. */
    public static List<String> of(String name, List<? extends ResultRow> rows, EnvironmentInfo env, boolean quick) {
        List<ResultRow> typed = List.copyOf(rows);
        List<String> lines = new ArrayList<>();
        lines.add(name + (quick ? ": " + ResultsFolder.QUICK_LINE : ": summary") + " (full table below)");
        lines.add(counts(typed));
        lines.add(load(env, typed));
        Optional<Findings> chosen = ReproductionKind.find(name).flatMap(kind -> kind.findingsOf(typed));
        if (chosen.isPresent() && !chosen.get().lines().isEmpty()) {
            lines.add(chosen.get().title());
            chosen.get().lines().forEach(f -> lines.add("  " + f));
            return lines.size() > MAX_LINES ? lines.subList(0, MAX_LINES) : lines;
        }
        List<String> findings =
                ReproductionKind.find(name).map(kind -> findings(kind, typed)).orElse(List.of());
        if (findings.isEmpty()) {
            lines.add("no row of this reproduction carries an interval yet: see the table below");
        } else {
            lines.add("findings ([95% CI] over the runs; the coverage reached where the runs are too few):");
            findings.forEach(f -> lines.add("  " + f));
        }
        return lines.size() > MAX_LINES ? lines.subList(0, MAX_LINES) : lines;
    }

    private static String counts(List<ResultRow> rows) {
        // each row says whether it is noisy (ResultRow.noisy): kernel-bitmap's flags are per loop
        int noisy =
                (int) rows.stream().filter(r -> Boolean.TRUE.equals(r.noisy())).count();
        int failed = (int) rows.stream()
                .filter(r -> RowStatus.FAILED.label().equals(r.status()))
                .count();
        int notMeasured = (int) rows.stream()
                .filter(r -> RowStatus.NOT_MEASURED.label().equals(r.status()))
                .count();
        return String.format(
                Locale.ROOT,
                "%d rows: %d failed, %d not measured; %d noisy (run medians spread over 25%%)",
                rows.size(),
                failed,
                notMeasured,
                noisy);
    }

    private static String load(EnvironmentInfo env, List<ResultRow> rows) {
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
        for (ResultRow r : rows) {
            for (Double x : r.loadAvgRuns() == null ? List.<Double>of() : r.loadAvgRuns()) {
                double v = x == null ? 0 : x;
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        if (lo <= hi) {
            s.append(String.format(Locale.ROOT, "; %.2f to %.2f during the runs", lo, hi));
        }
        return s.toString();
    }

    /**
     * One finding per distinct first label part (the floor or row name), in file order, up to {@link #FINDINGS}:
     * each row's headline as its kind gives it ({@link ReproductionKind#headlineOf}).
     */
    private static List<String> findings(ReproductionKind<?, ?> kind, List<ResultRow> rows) {
        List<String> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < rows.size() && out.size() < FINDINGS; i++) {
            Optional<Headline> h = kind.headlineOf(rows.get(i));
            List<String> parts = rows.get(i).labelParts();
            if (h.isEmpty() || !seen.add(parts.isEmpty() ? "" : String.valueOf(parts.get(0)))) {
                continue;
            }
            Headline f = h.get();
            out.add(String.format(
                    Locale.ROOT,
                    "%s: %s %s %s [%s, %s]%s",
                    rows.get(i).label(),
                    f.figure(),
                    f.estimate(),
                    f.unit(),
                    f.low(),
                    f.high(),
                    coverage(f)));
        }
        return out;
    }

    private static String coverage(Headline f) {
        if (f.runs() == 1) {
            return " (one " + f.over().replaceAll("e?s$", "") + ": its samples only)";
        }
        if (f.coverage() >= f.level() - 1e-9) {
            return "";
        }
        return String.format(Locale.ROOT, " (only %s%% over %d %s)", trim(f.coverage() * 100), f.runs(), f.over());
    }

    private static String trim(double pc) {
        double r = Math.round(pc * 10) / 10.0;
        return r == Math.rint(r) ? String.valueOf((long) r) : String.valueOf(r);
    }
}
