/**
 * The {@code graph-lookup} reproduction, one folder: a policy graph's lookups per layout, with the time to prepare each
 * ({@link heimdall.lab.reproduce.graphlookup.GraphLookup}, the run: its cases in {@code GraphCases}, the timed loop in
 * {@code CaseReplay}, the warm preparation in {@code WarmPreparation}, the rows in {@code GraphLookupRows} and
 * {@code table.md} in {@code GraphLookupTable}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.graphlookup.GraphLookupRun}), its settings and those every graph bench shares
 * ({@link heimdall.lab.reproduce.graphlookup.GraphBenchSettings}). Its row record is {@code results.GraphLookupRow}
 * (published twin {@code results.PublishedGraphLookup}); it registers itself as a {@code results.ReproductionKind}
 * service. Its plots are {@link heimdall.lab.reproduce.graphlookup.GraphLookupPlots}, drawn with the chart kit in
 * {@code analysis}; its first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), the graph packages ({@code graph}, {@code graph.machine},
 * {@code graph.prepared}), {@code bench}, {@code stats}, {@code fixtures}, {@code results}, {@code analysis},
 * {@code sys} and {@code command}; used by {@code reproduce.graphjmh} and {@code reproduce.lanes}.
 */
package heimdall.lab.reproduce.graphlookup;
