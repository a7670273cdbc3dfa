/**
 * Building blocks for exploring by hand (jshell, notebooks): a fluent API over the library's
 * pieces, each block checking its input up front and returning a value that turns into a Tablesaw
 * table ({@code table()}) and an XChart plot ({@code plot()}) in one call.
 *
 * <ul>
 *   <li>{@link heimdall.lab.explore.Lab#floor(java.nio.file.Path)}: a floor from a profile file, or
 *       built in code ({@link heimdall.lab.explore.Lab#floor(String, heimdall.lab.profile.Profile)}):
 *       {@link heimdall.lab.explore.FloorView}.
 *   <li>{@link heimdall.lab.explore.Lab#measure(String)}: any call under zero or more floors, timed in
 *       the same native runner child as {@code ./lab reproduce floor-cost} (no JVM in the timed loop):
 *       {@link heimdall.lab.explore.Measurement}.
 *   <li>{@link heimdall.lab.explore.Lab#broker(heimdall.lab.broker.Policy)}: a brokered round trip
 *       with a policy written as a lambda: {@link heimdall.lab.explore.RoundTrip}.
 *   <li>{@link heimdall.lab.explore.Lab#graph(java.nio.file.Path, java.nio.file.Path)} and
 *       {@link heimdall.lab.explore.Lab#record(String...)}: a prepared syscall graph, replayed or stepped
 *       by hand: {@link heimdall.lab.explore.GraphView}.
 *   <li>{@link heimdall.lab.explore.Lab#ab} and {@link heimdall.lab.explore.Lab#compare}: two measurements, or
 *       calls under two floors, A/B in one run ({@code explore/Interleaved}'s turns) with
 *       {@code ./lab compare}'s verdicts ({@link heimdall.lab.stats.ChangeTest}).
 * </ul>
 *
 * <p>Bad input to any block is a {@link heimdall.lab.BadInput} whose message names the block, the
 * field and the reason; a block that fails or is interrupted leaves no child and no scratch file.
 *
 * <p>Uses: the packages whose pieces it puts together (measuring, graphs, results, analysis, {@code reproduce}'s
 * floor-cost rows) and {@code command} ({@code ./lab explore check}, {@code ./lab explore ab}); only {@code cli} uses
 * it.
 */
package heimdall.lab.explore;
