/**
 * The {@code graph-jmh} kind, one folder: {@code ./lab graph jmh}
 * ({@link heimdall.lab.reproduce.graphjmh.GraphJmhCommand}), graph-lookup's layouts timed under JMH; its kind and plots
 * ({@link heimdall.lab.reproduce.graphjmh.GraphJmhKind}) and settings; no {@code ./lab reproduce} NAME. Its row record
 * is {@code results.GraphJmhRow}; it registers itself as a {@code results.ReproductionKind} service.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), {@code reproduce.graphlookup}, the graph packages,
 * {@code bench}, {@code fixtures}, {@code results}, {@code analysis}, {@code sys} and {@code command}; used by
 * {@code cli} (the command).
 */
package heimdall.lab.reproduce.graphjmh;
