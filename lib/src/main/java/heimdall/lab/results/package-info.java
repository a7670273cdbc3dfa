/**
 * The results format: the typed rows of each reproduction's {@code summary.json}
 * ({@link heimdall.lab.results.ResultRow} and its records, each named by its
 * {@link heimdall.lab.results.ReproductionKind}), what a run {@link heimdall.lab.results.Recorded} in memory,
 * {@link heimdall.lab.results.SummaryJson} (reading and writing them), {@link heimdall.lab.results.Summary},
 * {@link heimdall.lab.results.EnvironmentInfo}, and the published tables a run is compared with
 * ({@code Published*}, from the checked-in fixtures).
 *
 * <p>Uses: {@code heimdall.lab}, {@code fixtures}, {@code stats} and {@code sys} (a run's host) only: the benches,
 * the reproductions and the analysis use it, so it uses none of them.
 */
package heimdall.lab.results;
