/**
 * The framework that runs a reproduction into a results folder ({@code ReproduceCommand}, {@code Reproduction},
 * {@code ReproductionOption}, {@code Reproductions}, {@code Stoppable}, {@code Kept}, the first screen
 * {@code FirstScreen}, the load line {@code LoadLine}). Each reproduction of DESIGN.md is a package of its own below
 * this one, {@code reproduce.<kind>} ({@code floorcost}, {@code hostload}, {@code attachcost}, {@code kernelbitmap},
 * {@code kernelmatrix}, {@code graphlookup}, {@code graphjmh}, {@code lanes}, {@code followercost},
 * {@code explorecheck}, {@code mechanisms}, {@code workloadcost}), registered with one line of
 * {@code META-INF/services/heimdall.lab.results.ReproductionKind}: this package never names them (a cycle), it reads
 * them through {@code ReproductionKind.all()}.
 *
 * <p>Uses: the measuring packages ({@code bench}, {@code child}, {@code sys}), the format and its readers
 * ({@code results}, {@code analysis}), {@code heimdall.lab} and {@code command}; used by the kinds' packages,
 * {@code cli} and {@code explore}.
 */
package heimdall.lab.reproduce;
