/**
 * Measured children: {@link heimdall.lab.child.ChildSpec} (what a child runs: calls, counts, CPU, programs),
 * {@link heimdall.lab.child.MeasuredChild} and {@link heimdall.lab.child.RunningChild} (a fresh
 * {@code heimdall-runner} process per run, no Java in it, never outliving the JVM),
 * {@link heimdall.lab.child.ChildResult} and {@link heimdall.lab.child.Fate} (its samples and how it ended),
 * {@link heimdall.lab.child.Call}, {@link heimdall.lab.child.Phase}, {@link heimdall.lab.child.AttachBudget},
 * {@link heimdall.lab.child.Clocksource}, and {@code ./lab child run} ({@link heimdall.lab.child.ChildRunCommand}).
 *
 * <p>Uses: {@code heimdall.lab}, {@code sys}, {@code command} and {@code landlock} (a child's ruleset).
 */
package heimdall.lab.child;
