package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** A row's status, as {@code summary.json} spells it ({@link #label()}): every status a reproduction writes. */
public enum RowStatus {
    /** Measured in full. */
    OK,
    /** Measured (a reproduction whose rows say so rather than {@code ok}). */
    MEASURED,
    /** A stop cut the row short: fewer runs than asked. */
    INTERRUPTED,
    /** The row's own measurement failed ({@code failure} says why). */
    FAILED,
    /** Not measured (no runs, or not measurable here). */
    NOT_MEASURED,
    /** The kernel refused what the row needs. */
    REFUSED,
    /** The expected outcome, checked. */
    EXPECTED,
    /** What the row looks for cannot be seen on this kernel. */
    NOT_OBSERVABLE;

    /** The status as written: the name in lower case, words apart ({@code "not measured"}). */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Every label, in declaration order. */
    public static List<String> labels() {
        return Arrays.stream(values()).map(RowStatus::label).toList();
    }
}
