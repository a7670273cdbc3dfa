/**
 * The words every package shares: {@link heimdall.lab.BadInput} (exit 2) and {@link heimdall.lab.Refusal}
 * (exit 1), {@link heimdall.lab.Io} (reading a file a user names, and saying what went wrong in our words)
 * through {@link heimdall.lab.HostileFiles} (the one opener for hostile names: no link followed, no FIFO
 * waited on, bounded), {@link heimdall.lab.Errno}, {@link heimdall.lab.JsonInput},
 * {@link heimdall.lab.Printable}, {@link heimdall.lab.EditDistance} and {@link heimdall.lab.WholeNumbers}.
 *
 * <p>The package rule, for every package of the project: each {@code package-info.java} says what the
 * package owns and which packages it uses; no package uses one that uses it back, except inside
 * {@code {bench, broker}} and {@code {graph, graph.machine, graph.prepared}}, which are one concern each.
 * {@code heimdall.lab.PackageCyclesTest} (ArchUnit, in the lib suite) fails the build on any other cycle.
 *
 * <p>Uses: nothing of the project (the JDK, JNA and Jackson only); every other package may use it.
 */
package heimdall.lab;
