/**
 * The {@code kernel-matrix} reproduction, one folder: the added ratios of the calls, the follower and the broker on
 * each kernel, this one and guests booted under QEMU ({@link heimdall.lab.reproduce.kernelmatrix.KernelMatrix}, the
 * guest's part {@link heimdall.lab.reproduce.kernelmatrix.GuestPart}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.kernelmatrix.KernelMatrixRun}), table and settings. Its row record is
 * {@code results.KernelMatrixRow}; it registers itself as a {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.kernelmatrix.KernelMatrixPlots}, drawn with the chart kit in {@code analysis}; its
 * first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code reproduce.floorcost} and
 * {@code reproduce.kernelbitmap} (their floors and estimates), {@code bench}, {@code bpf}, {@code broker},
 * {@code child}, {@code features}, {@code follower}, {@code fixtures}, {@code results}, {@code analysis},
 * {@code sys} and {@code command}; nothing uses it by name.
 */
package heimdall.lab.reproduce.kernelmatrix;
