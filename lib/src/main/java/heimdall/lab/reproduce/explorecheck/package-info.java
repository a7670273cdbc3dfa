/**
 * The {@code explore-check} kind, one folder: its kind, table and plots
 * ({@link heimdall.lab.reproduce.explorecheck.ExploreCheckKind}) and settings; the run itself is
 * {@code ./lab explore check} (in {@code explore}, which uses this package). Its row record is
 * {@code results.ExploreCheckRow}; it registers itself as a {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.explorecheck.ExploreCheckPlots}, drawn with the chart kit in {@code analysis}; its
 * first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: {@code results}, {@code analysis}, {@code bench}, {@code stats} and {@code sys}; used by {@code explore}.
 */
package heimdall.lab.reproduce.explorecheck;
