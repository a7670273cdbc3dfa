/**
 * The {@code host-load} reproduction, one folder: floor-cost's floors under generated load on the host, with the p99
 * against the load average ({@link heimdall.lab.reproduce.hostload.HostLoad}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.hostload.HostLoadRun}) and settings. Its row record is {@code results.HostLoadRow}; it
 * registers itself as a {@code results.ReproductionKind} service. Its plots are
 * {@link heimdall.lab.reproduce.hostload.HostLoadPlots}, drawn with the chart kit in {@code analysis}; its first-screen
 * finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code reproduce.floorcost} (its floors), {@code load},
 * {@code bench}, {@code results}, {@code analysis}, {@code sys} and {@code command}; nothing uses it by name.
 */
package heimdall.lab.reproduce.hostload;
