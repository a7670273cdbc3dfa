package heimdall.lab.features;

/**
 * One feature of one kernel, predicted from its version and observed on it.
 *
 * @param feature the feature's label ({@link Feature#label()})
 * @param since the release it arrived in
 * @param predicted what the version predicts ({@link Feature#predict})
 * @param observed what the running kernel showed, in the prediction's terms; null when it could not be observed
 * @param agrees whether observation and prediction agree; null when nothing was observed
 * @param note how it was observed, the raw answer, or why it could not be; where the two differ, the
 *     observation is what holds and this says so
 */
public record FeatureRecord(
        String feature, String since, String predicted, String observed, Boolean agrees, String note) {
    /** A feature observed as {@code observed} (null: not observable), with {@code note}. */
    static FeatureRecord of(Feature f, KernelVersion v, String observed, String note) {
        String predicted = f.predict(v);
        Boolean agrees = observed == null ? null : predicted.equals(observed);
        String said = Boolean.FALSE.equals(agrees)
                ? "differs from the prediction for " + v + "; the observation holds. " + note
                : note;
        return new FeatureRecord(f.label(), f.since(), predicted, observed, agrees, said);
    }
}
