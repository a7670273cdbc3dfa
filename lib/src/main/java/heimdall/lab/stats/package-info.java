/**
 * Distribution-free intervals and change detection for timing figures, over runs as well as samples.
 *
 * <p>Why runs are the unit: on a shared machine a run's figures move together (one run lands on a busy
 * CPU, another on a cache-friendly code placement), so millions of samples within a run are not
 * millions of independent looks. Every interval here treats a run's figure (its median, its p99) as
 * one observation of what a run measures; an interval over the runs' figures covers both the
 * within-run sampling error (each run's figure carries it) and the run-to-run spread, and one noisy
 * run, being one of the figures ranked, widens it.
 *
 * <ul>
 *   <li>{@link OrderStatistics}: an interval for a quantile (median, p99) from the runs' own figures,
 *       exact by the binomial law of order statistics.</li>
 *   <li>{@link MannWhitney}: the Hodges–Lehmann shift between two sets of runs with its
 *       Mann–Whitney interval ({@code added}, B/A), and the U test with ties handled exactly.</li>
 *   <li>{@link ChangeTest}: B against A: the ratio with its interval and a {@link Verdict} beyond a
 *       noise threshold.</li>
 * </ul>
 *
 * <p>The package depends on nothing of the project (plain arrays in, records out), so a row type,
 * the fluent API and compare all use the same arithmetic. Everything is exact and deterministic:
 * no resampling, so no seed.
 */
package heimdall.lab.stats;
