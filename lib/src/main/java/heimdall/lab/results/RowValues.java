package heimdall.lab.results;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The values a typed row may hold, checked after it is read: the type alone lets through figures no
 * run can produce ({@code median_ns: -5}, {@code runs_completed: 99} of 7, {@code status:
 * "exploded"}, {@code spread: "NaN"}), which would then be plotted and compared as if measured. Each
 * is bad input naming the file, the row and the field.
 *
 * <p>The rules, by the field's JSON name (so one rule covers every reproduction's rows):
 * <ul>
 *   <li>every floating-point figure is finite (JSON has no NaN, but a string {@code "NaN"} would be read as one);
 *   <li>a spread ({@code spread}, {@code *_spread}, {@code spread_*}) is 0 or more;
 *   <li>counts (runs, batches, samples, instructions, programs, events, sites, states, ...), row
 *       indices ({@code *_row}) and times that are statistics of samples (medians, p99s, each run's
 *       median) are 0 or more; an added cost (a difference noise can make negative), estimates made
 *       by subtraction and CPU numbers (-1: none) are not checked for sign;
 *   <li>what was completed is at most what was asked ({@code runs_completed <= runs_asked},
 *       {@code runs_none_completed <= runs_asked}, {@code batches_completed <= batches_asked}, ...);
 *   <li>a {@code status} is one the reproductions write: {@link #STATUSES}.
 * </ul>
 */
final class RowValues {
    private RowValues() {}

    /** Every status a reproduction writes into a row. */
    static final Set<String> STATUSES = Set.copyOf(RowStatus.labels());

    /** Fields that may be negative: differences of two medians, and a CPU number where -1 means "none" or "unknown". */
    private static final Pattern SIGNED =
            Pattern.compile("(^|_)added(_|$)|(^|_)diff|difference|_vs_|^vs_|(^|_)cpu(_|$)");

    /** Counts and indices: never negative. */
    private static final Pattern COUNT = Pattern.compile("^(runs|batches|batch_runs)(_|$)|(^|_)samples(_|$)|_row$"
            + "|^(insns|programs|events|sites|states|transitions|minimized_states|filters|workers|collectors|calls"
            + "|batch_calls|writes_per_worker|supervisor_served|entries|rejected)$");

    /**
     * Times that are statistics of samples (a median, a p99, each run's median): never negative. Other
     * {@code *_ns} figures may be estimates made by subtraction (kernel-bitmap's per-filter costs),
     * which noise can push below 0, and are left to their reproduction.
     */
    private static final Pattern SAMPLED_TIME = Pattern.compile("(^|_)(median|medians|p99)(_[a-z0-9]+)*_ns$");

    /** Checks {@code row} (a record read from {@code file} at {@code where}, e.g. {@code rows[3]}). */
    static void check(Path file, String where, Object row) {
        Map<String, Object> values = components(row);
        values.forEach((name, value) -> value(file, where + "." + name, name, value));
        completedAtMostAsked(file, where, values);
        Object status = values.get("status");
        if (status instanceof String s && !STATUSES.contains(s)) {
            throw BadInput.at(
                    file,
                    where + ".status",
                    "unknown status \"" + Printable.of(s) + "\" (known: " + new TreeSet<>(STATUSES) + ")");
        }
    }

    private static void value(Path file, String at, String name, Object value) {
        if (value == null) {
            return;
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                value(file, at + "[" + i + "]", name, list.get(i));
            }
        } else if (value instanceof Double d) {
            if (!Double.isFinite(d)) {
                throw BadInput.at(file, at, "expected a finite number, found " + d);
            }
            if (name.contains("spread") && d < 0) {
                throw BadInput.at(file, at, "a spread is 0 or more, found " + d);
            }
        } else if (value instanceof Long || value instanceof Integer) {
            long n = ((Number) value).longValue();
            if (n < 0
                    && !SIGNED.matcher(name).find()
                    && (COUNT.matcher(name).find() || SAMPLED_TIME.matcher(name).find())) {
                throw BadInput.at(
                        file,
                        at,
                        (COUNT.matcher(name).find() ? "a count" : "a measured time") + " is 0 or more, found " + n);
            }
        } else if (value instanceof Record nested) {
            Map<String, Object> inner = components(nested);
            inner.forEach((n, v) -> value(file, at + "." + n, n, v));
        }
    }

    /** {@code X_completed} at most {@code X_asked}; {@code runs_none_completed} at most {@code runs_asked}. */
    private static void completedAtMostAsked(Path file, String where, Map<String, Object> values) {
        values.forEach((name, value) -> {
            if (!name.endsWith("_completed") || !(value instanceof Number done)) {
                return;
            }
            String prefix = name.substring(0, name.length() - "_completed".length());
            String askedName = (prefix.equals("runs_none") ? "runs" : prefix) + "_asked";
            if (values.get(askedName) instanceof Number asked && done.longValue() > asked.longValue()) {
                throw BadInput.at(
                        file,
                        where + "." + name,
                        done + " completed of " + asked + " asked (" + askedName + "): more than were asked");
            }
        });
    }

    /** A record's components by their JSON names, in order; a {@link Flat} part's fields in its place, as written. */
    private static Map<String, Object> components(Object record) {
        return FlatRows.values(record);
    }
}
