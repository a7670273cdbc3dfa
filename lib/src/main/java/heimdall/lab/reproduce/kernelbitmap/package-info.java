/**
 * The {@code kernel-bitmap} reproduction, one folder: the kernel's action cache (the seccomp bitmap) against filters
 * that walk their instructions, by code placement and loop ({@link heimdall.lab.reproduce.kernelbitmap.KernelBitmap},
 * the model and entry points; its rounds of children {@link heimdall.lab.reproduce.kernelbitmap.KernelBitmapMeasuring},
 * its rows {@link heimdall.lab.reproduce.kernelbitmap.KernelBitmapSummary}, its {@code table.md}
 * {@link heimdall.lab.reproduce.kernelbitmap.KernelBitmapTable}), the estimates and their rules
 * ({@link heimdall.lab.reproduce.kernelbitmap.BitmapEstimates}, every method's side by side
 * {@link heimdall.lab.reproduce.kernelbitmap.MethodEstimates}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.kernelbitmap.KernelBitmapRun}) and settings. Its row record is
 * {@code results.KernelBitmapRow} (published twin {@code results.PublishedKernelBitmap}); it registers itself as a
 * {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.kernelbitmap.KernelBitmapPlots}, drawn with the chart kit in {@code analysis}; its
 * first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code bench}, {@code bpf}, {@code child}, {@code stats},
 * {@code results}, {@code analysis}, {@code sys} and {@code command}; used by {@code reproduce.attachcost} and
 * {@code reproduce.kernelmatrix} (its filters and estimates).
 */
package heimdall.lab.reproduce.kernelbitmap;
