/**
 * The {@code follower-cost} reproduction, one folder: its kind, options, run and plots
 * ({@link heimdall.lab.reproduce.followercost.FollowerCostRun}) over the measuring in {@code follower} (the eBPF
 * follower and its bench; its settings are {@code follower.FollowerCostSettings}). Its row record is
 * {@code results.FollowerCostRow}; it registers itself as a {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.followercost.FollowerCostPlots}, drawn with the chart kit in {@code analysis}; its
 * first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code follower}, {@code bench}, {@code child},
 * {@code results}, {@code analysis}, {@code sys} and {@code command}; nothing uses it by name.
 */
package heimdall.lab.reproduce.followercost;
