package heimdall.lab.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Locale;

/**
 * The row of {@code ./lab graph jmh}'s {@code summary.json}: JMH's figure for one graph, trace and
 * layout beside the replay harness's, in ns per event, and JMH's own confidence interval of its score
 * ({@link ScoreInterval}, after every other key; folders made before it have none).
 *
 * @param jmhErrorNsPerEvent JMH's {@code scoreError}: the half-width of its 99.9% interval of the mean
 * @param jmhMeanCi JMH's {@code scoreConfidence}, the interval of {@code jmh_mean_ns_per_event} (null: none)
 */
@JsonSerialize(using = FlatRows.Writer.class)
public record GraphJmhRow(
        @JsonProperty(value = "graph", required = true) String graph,
        @JsonProperty(value = "trace", required = true) String trace,
        @JsonProperty(value = "layout", required = true) String layout,
        @JsonProperty("events") Long events,
        @JsonProperty("harness_ns_per_event") Double harnessNsPerEvent,
        @JsonProperty("harness_run_medians_ns_per_event") List<Double> harnessRunMediansNsPerEvent,
        @JsonProperty("jmh_median_ns_per_event") Double jmhMedianNsPerEvent,
        @JsonProperty("jmh_mean_ns_per_event") Double jmhMeanNsPerEvent,
        @JsonProperty("jmh_error_ns_per_event") Double jmhErrorNsPerEvent,
        @JsonProperty("jmh_over_harness") Double jmhOverHarness,
        @JsonProperty("agrees_within_15_percent") Boolean agreesWithin15Percent,
        @Flat(prefix = "jmh_mean_ci_") ScoreInterval jmhMeanCi)
        implements ResultRow {

    /** JMH's level for {@code scoreConfidence} and {@code scoreError} (its {@code Result}'s, fixed): 99.9%. */
    public static final double JMH_LEVEL = 0.999;

    /**
     * JMH's confidence interval of its score, the mean time of a replay, as JMH computes it
     * ({@code scoreConfidence}: its Student's t interval at {@link #JMH_LEVEL}, so it assumes the
     * mean is near normal, unlike the order-statistic intervals of the other rows), in ns per event,
     * written flat as {@code jmh_mean_ci_low_ns_per_event}, {@code jmh_mean_ci_high_ns_per_event} and
     * {@code jmh_mean_ci_level}.
     *
     * @param low its lower end
     * @param high its upper end
     * @param level its confidence, JMH's 0.999
     */
    public record ScoreInterval(
            @JsonProperty("low_ns_per_event") Double low,
            @JsonProperty("high_ns_per_event") Double high,
            @JsonProperty("level") Double level) {
        /** Ends in order, the level a fraction. */
        public ScoreInterval {
            if (low != null && high != null && !(low <= high)) {
                throw new IllegalArgumentException("interval low " + low + " above high " + high);
            }
            if (level != null && !(level > 0 && level < 1)) {
                throw new IllegalArgumentException("a level is a fraction in (0, 1), not " + level);
            }
        }

        /** The table cell, {@code "[1.418, 1.442]"}; {@code "—"} when an end is missing. */
        public String cell() {
            if (low == null || high == null) {
                return "—";
            }
            return String.format(Locale.ROOT, "[%.3f, %.3f]", low, high);
        }
    }

    @Override
    public List<String> labelParts() {
        return List.of(graph + " / " + trace + " / " + layout);
    }
}
