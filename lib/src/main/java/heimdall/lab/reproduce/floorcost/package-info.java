/**
 * The {@code floor-cost} reproduction, one folder: what a call costs under each floor (no filter, the static floors,
 * the broker with both supervisors, answers, placements and wake-ups), against the published floor table
 * ({@link heimdall.lab.reproduce.floorcost.FloorCost}: plan and run; the cross-row ratios in
 * {@link heimdall.lab.reproduce.floorcost.FloorCostRatios}; {@code table.md} in
 * {@link heimdall.lab.reproduce.floorcost.FloorCostTable}; the notify-loop round trip in
 * {@link heimdall.lab.reproduce.floorcost.NotifyLoopFloor}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.floorcost.FloorCostRun}) and settings. Its row record is {@code results.FloorCostRow}
 * (published twin {@code results.PublishedFloorCost}); it registers itself as a {@code results.ReproductionKind}
 * service. Its plots are {@link heimdall.lab.reproduce.floorcost.FloorCostPlots}, drawn with the chart kit in
 * {@code analysis}; its first-screen finding is its kind's {@code headline}.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), the measuring packages ({@code bench}, {@code broker},
 * {@code child}, {@code floor}, {@code bpf}, {@code profile}), {@code results}, {@code analysis}, {@code fixtures},
 * {@code sys} and {@code command}; used by {@code reproduce.hostload} and {@code reproduce.kernelmatrix} (its floors
 * and job folders) and by {@code explore} (its options).
 */
package heimdall.lab.reproduce.floorcost;
