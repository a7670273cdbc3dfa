package heimdall.lab.results;

import java.util.Locale;
import java.util.Optional;

/**
 * What the first screen says of one row: its headline figure with its interval, as the row's kind chooses
 * them ({@link ReproductionKind#headline}), already written as text so that the screen reads no key of any
 * kind. Printed {@code <label>: <figure> <estimate> <unit> [<low>, <high>]} and, where the runs fall short of
 * the level, the coverage they reach.
 *
 * @param figure what the figure is ({@code added}, {@code median}, {@code median wall})
 * @param estimate the figure, as text ({@code ?} when the row has none)
 * @param unit its unit ({@code ns}, {@code ns/event}, {@code ms})
 * @param low the interval's lower end, as text
 * @param high the interval's upper end, as text
 * @param level the confidence asked
 * @param coverage the coverage the runs reach (0 when not written)
 * @param runs the runs (or batches) it is over (0 when not written)
 * @param over what it is over, plural ({@code runs}, {@code batches})
 */
public record Headline(
        String figure,
        String estimate,
        String unit,
        String low,
        String high,
        double level,
        double coverage,
        long runs,
        String over) {

    /** The level a row that does not write its own is read at. */
    static final double DEFAULT_LEVEL = 0.95;

    /**
     * The headline of a row timed in whole nanoseconds with {@link RowIntervals}: its added cost where it has
     * an interval for it, else its median where it has one, else none.
     *
     * @param intervals the row's intervals (null: none)
     * @param added the added cost the {@code added} interval is about (null: the row has none)
     * @param median the median the {@code median} interval is about (null: the row has none)
     * @param unit the figures' unit
     * @param over what the intervals are over, plural
     */
    public static Optional<Headline> of(RowIntervals intervals, Number added, Number median, String unit, String over) {
        if (intervals == null) {
            return Optional.empty();
        }
        if (intervals.added() != null && intervals.added().lowNs() != null) {
            return Optional.of(ofCi("added", added, intervals.added(), unit, over));
        }
        if (intervals.median() != null && intervals.median().lowNs() != null) {
            return Optional.of(ofCi("median", median, intervals.median(), unit, over));
        }
        return Optional.empty();
    }

    /** The headline of a row that times one call under a floor (floor-cost's, host-load's, mechanisms'). */
    public static Optional<Headline> of(MeasuredCallRow row) {
        return of(row.intervals(), row.addedNs(), row.medianNs(), "ns", "runs");
    }

    /**
     * The headline of a figure that is not whole nanoseconds ({@link FigureCi}: lanes' wall time), ends and
     * figure to 3 decimals; none when the interval has no lower end.
     */
    public static Optional<Headline> of(String figure, Double estimate, FigureCi ci, String unit, String over) {
        if (ci == null || ci.low() == null) {
            return Optional.empty();
        }
        return Optional.of(new Headline(
                figure,
                decimals(estimate),
                unit,
                decimals(ci.low()),
                decimals(ci.high()),
                ci.level() == null ? DEFAULT_LEVEL : ci.level(),
                ci.coverage() == null ? 0 : ci.coverage(),
                ci.runs() == null ? 0 : ci.runs(),
                over));
    }

    private static Headline ofCi(String figure, Number estimate, RowIntervals.Ci ci, String unit, String over) {
        return new Headline(
                figure,
                estimate == null
                        ? "?"
                        : estimate instanceof Double || estimate instanceof Float
                                ? String.format(Locale.ROOT, "%.3f", estimate.doubleValue())
                                : String.format(Locale.ROOT, "%,d", estimate.longValue()),
                unit,
                String.format(Locale.ROOT, "%,d", ci.lowNs()),
                String.format(Locale.ROOT, "%,d", ci.highNs() == null ? 0 : ci.highNs()),
                ci.level() == null ? DEFAULT_LEVEL : ci.level(),
                ci.coverage() == null ? 0 : ci.coverage(),
                ci.runs() == null ? 0 : ci.runs(),
                over);
    }

    private static String decimals(Double v) {
        return String.format(Locale.ROOT, "%.3f", v == null ? 0 : v);
    }
}
