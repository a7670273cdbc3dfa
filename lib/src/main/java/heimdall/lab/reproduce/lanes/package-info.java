/**
 * The {@code lanes} reproduction, one folder: batches of graph lookups through lanes, wall time per variant
 * ({@link heimdall.lab.reproduce.lanes.Lanes}, its workload {@link heimdall.lab.reproduce.lanes.LaneWorkload}); its
 * kind, options and plots ({@link heimdall.lab.reproduce.lanes.LanesRun}) and settings. Its row record is
 * {@code results.LanesRow}; it registers itself as a {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.lanes.LanesPlots}, drawn with the chart kit in {@code analysis}; its first-screen
 * finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code reproduce.graphlookup}, the graph packages,
 * {@code bench}, {@code stats}, {@code results}, {@code analysis}, {@code sys} and {@code command}; nothing uses it
 * by name.
 */
package heimdall.lab.reproduce.lanes;
