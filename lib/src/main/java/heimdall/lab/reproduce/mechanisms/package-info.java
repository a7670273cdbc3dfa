/**
 * The {@code mechanisms} reproduction, one folder: which mechanism for the policy "read beneath {@code in/}"?
 * Landlock ({@code heimdall.lab.landlock}) beside the seccomp broker on the same calls in one run
 * ({@link heimdall.lab.reproduce.mechanisms.Mechanisms}: openat admitted and refused at path depths, stat;
 * under Landlock, the static floor, the broker with both supervisors and answers, and the floor with each),
 * timed floor-cost's way ({@link heimdall.lab.reproduce.mechanisms.MechanismsBench}); the two policies'
 * decisions on a grid of names ({@link heimdall.lab.reproduce.mechanisms.DecisionGrid}); its kind, options,
 * table and plots ({@link heimdall.lab.reproduce.mechanisms.MechanismsKind}). Its row record is
 * {@code results.MechanismsRow}; it registers itself as a {@code results.ReproductionKind} service.
 *
 * <p>Uses: the reproduce framework ({@code reproduce}), the measuring packages ({@code bench}, {@code broker},
 * {@code child}, {@code floor}, {@code bpf}, {@code landlock}), {@code results}, {@code analysis},
 * {@code fixtures}, {@code sys}, {@code command} and {@code heimdall.lab}; nothing uses it by name.
 */
package heimdall.lab.reproduce.mechanisms;
