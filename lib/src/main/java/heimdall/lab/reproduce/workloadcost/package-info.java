/**
 * {@code ./lab reproduce workload-cost} (issue 31, DESIGN.md "Workloads"): real programs run whole, each run a
 * fresh process, interleaved run by run under each mechanism (no filter, the program's own generated profile,
 * Podman's and Docker's default profiles, the broker floor with the native and the Java supervisor, the kernel
 * follower on the program's recorded graph, Landlock), with the overhead B/A, its interval and verdict per
 * workload and mechanism; a program a profile kills is a refused row naming the call, a changed exit status or
 * stdout is flagged. {@link heimdall.lab.reproduce.workloadcost.Suite} is the default suite (inputs generated in
 * a private scratch folder), {@code heimdall-workload} (native) runs one run,
 * {@link heimdall.lab.reproduce.workloadcost.WorkloadCost} the rounds,
 * {@link heimdall.lab.reproduce.workloadcost.Enforcers} sets up the mechanisms that are not a filter,
 * {@link heimdall.lab.reproduce.workloadcost.WorkloadCostKind} registers the kind.
 *
 * <p>Uses: the reproduce framework ({@code Reproduction}, {@code Kept}), {@code bench} (session, samples),
 * {@code broker} (supervisors), {@code floor} (the broker floor), {@code probe} (recorded runs, generated
 * profiles), {@code profile} and {@code bpf} (profiles compiled), {@code follower} and {@code graph} (the
 * follower on a recorded graph, t_follow), {@code landlock} (the child's ruleset), {@code stats},
 * {@code results} (its row), {@code sys}, {@code command} and {@code heimdall.lab}.
 */
package heimdall.lab.reproduce.workloadcost;
