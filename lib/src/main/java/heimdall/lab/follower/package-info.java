/**
 * The kernel follower (DESIGN.md, "Kernel follower"): a prepared graph enforced in the kernel by an
 * eBPF program for each thread of one followed process.
 *
 * <p>{@link heimdall.lab.follower.KernelTables} lays a compiled, minimized machine out as the
 * {@code dfa-offsets} cells the program reads; {@link heimdall.lab.follower.Follower} loads and
 * attaches the program (from {@code libheimdall-follower.so}, libbpf, through JNA) with one of two
 * {@link heimdall.lab.follower.Hook}s; {@link heimdall.lab.follower.FollowedRun} spawns a child held
 * before its exec, follows it from its first call after exec and reports how it ended.
 * {@code FollowerCost} measures what it costs, against an empty program alone on the same hook
 * ({@code EmptyHook}: t_hook), and {@code FollowerCostTable} writes its table.
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code child}, {@code floor}, {@code profile}, {@code probe},
 * {@code fixtures}, {@code results}, {@code bench}, {@code command} and the graph packages.
 */
package heimdall.lab.follower;
