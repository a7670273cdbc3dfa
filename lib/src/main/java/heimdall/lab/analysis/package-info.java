/**
 * Reading results back: {@link heimdall.lab.analysis.Results} (a folder loaded as typed rows and tables, its
 * summary table from {@link heimdall.lab.analysis.SummaryTable}, its samples from
 * {@link heimdall.lab.analysis.FolderSamples} over {@link heimdall.lab.analysis.SamplesReader}),
 * {@link heimdall.lab.analysis.Tables}, {@link heimdall.lab.analysis.Plots} (writing a folder's plots, which each kind
 * draws through its plots facet, {@link heimdall.lab.analysis.KindPlots}) over the chart kit
 * ({@link heimdall.lab.analysis.Charts}, {@link heimdall.lab.analysis.CallPlots}), {@link heimdall.lab.analysis.Ecdf},
 * {@link heimdall.lab.analysis.Distributions}, comparing two folders ({@link heimdall.lab.analysis.Compare},
 * {@link heimdall.lab.analysis.CompareSpec}, its table {@link heimdall.lab.analysis.CompareTable} and text
 * {@link heimdall.lab.analysis.CompareText}, {@code ./lab compare}) and {@code ./lab distill}.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code arrow}, {@code results}, {@code bench} (its statistics and
 * results folders) and {@code command}; never the reproductions that write the folders.
 */
package heimdall.lab.analysis;
