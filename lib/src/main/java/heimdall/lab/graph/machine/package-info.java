/**
 * From graph to deterministic machine: {@link heimdall.lab.graph.machine.MachineCompiler} (reachable
 * frames, the step rule, construction budgets), {@link heimdall.lab.graph.machine.Minimizer}
 * (Valmari–Lehtinen partition refinement for partial DFAs), {@link heimdall.lab.graph.machine.Coalescer}
 * (equivalent sites merged before compiling, with an original-site map) and
 * {@link heimdall.lab.graph.machine.Equivalence} (product construction: do two machines decide alike?).
 *
 * <p>Uses: {@code graph} and {@code heimdall.lab}; one concern with {@code graph} and {@code graph.prepared}.
 */
package heimdall.lab.graph.machine;
