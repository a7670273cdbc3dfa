/**
 * The {@code attach-cost} reproduction, one folder: what attaching a filter costs (attach, fork and attach), against
 * the published attach table ({@link heimdall.lab.reproduce.attachcost.AttachCost}, the floors, model, rows and
 * entry points; its runs of children {@link heimdall.lab.reproduce.attachcost.AttachCostMeasuring}, its
 * {@code table.md} {@link heimdall.lab.reproduce.attachcost.AttachCostTable}); its kind, options and plots
 * ({@link heimdall.lab.reproduce.attachcost.AttachCostRun}) and settings. Its row record is
 * {@code results.AttachCostRow} (published twin {@code results.PublishedAttachCost}); it registers itself as a
 * {@code results.ReproductionKind} service.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code reproduce.kernelbitmap} (its filters), {@code bench},
 * {@code bpf}, {@code child}, {@code profile}, {@code fixtures}, {@code results}, {@code analysis}, {@code sys}
 * and {@code command}; nothing uses it by name.
 */
package heimdall.lab.reproduce.attachcost;
