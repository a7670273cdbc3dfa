package heimdall.lab.analysis;

import heimdall.lab.BadInput;
import heimdall.lab.Printable;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * What {@code results distill} reads from a {@code samples.arrow}, held to the rules the reader of the
 * {@code distributions.json} it writes applies ({@link Distributions#read}), so that a file those
 * rules would refuse is refused here, naming samples.arrow, its column and row, before anything is
 * written: per-call samples need all of row, variant, run and ns, and one series' values must lie
 * within one 64-bit span of each other (its quantiles are stored as non-negative steps); batch samples
 * (graph-lookup, lanes) are numbers only, with a row and a sample column, none null, none NaN or
 * infinite (JSON has no such numbers).
 */
final class DistillInput {
    private DistillInput() {}

    /** The columns of per-call samples ({@link SamplesReader#readCallSamples}). */
    static final List<String> CALL_COLUMNS = List.of("row", "variant", "run", "ns");
    /** The columns every batch samples file has ({@link heimdall.lab.bench.BatchSamples}). */
    static final List<String> BATCH_KEYS = List.of("row", "sample");

    /**
     * Whether {@code columns} are per-call samples: all of {@link #CALL_COLUMNS}. A file with some of
     * them but not all (a {@code run} or {@code ns} column missing) is neither kind: bad input naming
     * the first column missing.
     */
    static boolean perCall(Path samples, List<String> columns) {
        List<String> missing =
                CALL_COLUMNS.stream().filter(c -> !columns.contains(c)).toList();
        if (missing.isEmpty()) {
            return true;
        }
        boolean callShaped = columns.stream().anyMatch(c -> CALL_COLUMNS.contains(c) && !BATCH_KEYS.contains(c));
        if (callShaped) {
            throw BadInput.at(
                    samples,
                    missing.get(0),
                    "column missing: per-call samples have " + String.join(", ", CALL_COLUMNS) + " (columns present: "
                            + columns + ")");
        }
        return false;
    }

    /**
     * Checks a series' sorted values span at most what a 64-bit step can hold: its quantiles are
     * written as steps from one to the next, each non-negative.
     */
    static void span(Path samples, SampleKey key, long[] sorted) {
        if (sorted.length == 0) {
            return;
        }
        long min = sorted[0];
        long max = sorted[sorted.length - 1];
        if (max - min < 0) { // the difference overflowed: more than 2^63 - 1 apart
            throw BadInput.at(
                    samples,
                    "ns",
                    String.format(
                            Locale.ROOT,
                            "row %d, variant %s: values from %d to %d are further apart than a 64-bit number holds"
                                    + " (no measured duration is)",
                            key.row(),
                            Printable.of(key.variant()),
                            min,
                            max));
        }
    }

    /**
     * Checks a batch samples table ({@link SamplesReader#readArrow}) holds what distributions.json's
     * {@code batches} may: numbers only, {@link #BATCH_KEYS} among its columns, every value present and
     * finite.
     */
    static void batches(Path samples, Table t) {
        List<String> names = t.columnNames();
        for (String key : BATCH_KEYS) {
            if (!names.contains(key)) {
                throw BadInput.at(
                        samples,
                        key,
                        "column missing: samples are per call (" + String.join(", ", CALL_COLUMNS) + ") or per batch ("
                                + String.join(", ", BATCH_KEYS) + " and the measured values); columns present: "
                                + names);
            }
        }
        for (Column<?> c : t.columns()) {
            boolean numbers = c instanceof IntColumn || c instanceof LongColumn || c instanceof DoubleColumn;
            if (!numbers) {
                throw BadInput.at(
                        samples, c.name(), "holds text; batch samples are numbers (row, sample and measured values)");
            }
            for (int i = 0; i < c.size(); i++) {
                if (c.isMissing(i)) {
                    // a table stands for null by NaN, or by the type's smallest number: neither is a sample
                    String what = c instanceof DoubleColumn
                            ? "null or NaN"
                            : "null (or " + (c instanceof IntColumn ? Integer.MIN_VALUE : Long.MIN_VALUE)
                                    + ", which stands for null)";
                    throw BadInput.at(
                            samples, c.name(), "row " + i + ": " + what + "; every batch sample is a finite number");
                }
                if (c instanceof DoubleColumn d && !Double.isFinite(d.getDouble(i))) {
                    throw BadInput.at(
                            samples, c.name(), "row " + i + ": " + d.getDouble(i) + " is not a measured value");
                }
            }
        }
    }
}
