/**
 * The reproductions of DESIGN.md, one class each ({@code FloorCost} with {@code NotifyLoopFloor}, {@code AttachCost},
 * {@code HostLoad},
 * {@code KernelBitmap}, {@code KernelMatrix}, {@code GraphLookup}, {@code Lanes}, {@code FollowerCostRun}, with
 * their {@code *Settings}), the framework that runs one into a results folder ({@code ReproduceCommand},
 * {@code Reproduction}, {@code Reproductions}, {@code Stoppable}) and {@code ./lab graph jmh}.
 *
 * <p>Uses: the measuring packages ({@code bench}, {@code broker}, {@code child}, {@code floor}, {@code bpf},
 * {@code profile}, {@code load}, {@code features}, {@code follower}, the graph packages), the format and its
 * readers ({@code results}, {@code analysis}), {@code stats}, {@code fixtures}, {@code sys}, {@code heimdall.lab} and
 * {@code command}; only {@code cli} and {@code explore} use it.
 */
package heimdall.lab.reproduce;
