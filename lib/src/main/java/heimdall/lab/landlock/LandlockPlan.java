package heimdall.lab.landlock;

import heimdall.lab.Refusal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A ruleset on one kernel: what it handles there, what was dropped and why. The project fails closed: a
 * ruleset that handles a right the kernel's ABI lacks (so the kernel would leave that access unconfined)
 * is refused, naming each right and the ABI that brings it, unless the ruleset asked for
 * {@link Landlock#bestEffort()}; then the right is dropped and a warning says so. Never silently widened.
 * The child applies the same rule itself against the ABI its kernel answers ({@code hl_landlock_install}).
 *
 * @param abi the kernel's Landlock ABI (0: none)
 * @param installed the rights handled on that kernel
 * @param dropped the rights asked for that the kernel lacks (empty unless best effort)
 * @param warnings one sentence per dropped right, or for a kernel without Landlock
 */
public record LandlockPlan(int abi, Set<LandlockRight> installed, Set<LandlockRight> dropped, List<String> warnings) {
    public LandlockPlan {
        installed = Set.copyOf(installed);
        dropped = Set.copyOf(dropped);
        warnings = List.copyOf(warnings);
    }

    /** Whether the child installs a ruleset at all (not so with best effort on a kernel without Landlock). */
    public boolean enforced() {
        return !installed.isEmpty();
    }

    /** The plan for {@code ruleset} on a kernel answering {@code abi}; a {@link Refusal} where it must not run. */
    public static LandlockPlan of(Landlock ruleset, int abi) {
        if (abi <= 0) {
            if (!ruleset.bestEffort()) {
                throw new Refusal("Landlock ruleset refused: this kernel has no Landlock (ABI 0; Landlock came with "
                        + "Linux 5.13 and must be enabled with CONFIG_SECURITY_LANDLOCK and lsm=landlock), so "
                        + "nothing would be confined; ask for best effort to run unconfined with a warning");
            }
            return new LandlockPlan(
                    0,
                    Set.of(),
                    ruleset.handled(),
                    List.of(
                            "Landlock: this kernel has no Landlock: best effort runs the child UNCONFINED (every right dropped)"));
        }
        Set<LandlockRight> known = LandlockRight.knownBy(abi);
        Set<LandlockRight> missing = EnumSet.noneOf(LandlockRight.class);
        Set<LandlockRight> kept = EnumSet.noneOf(LandlockRight.class);
        for (LandlockRight r : ruleset.handled()) {
            (known.contains(r) ? kept : missing).add(r);
        }
        if (!missing.isEmpty() && !ruleset.bestEffort()) {
            throw new Refusal("Landlock ruleset refused: the kernel answers ABI " + abi + ", which lacks "
                    + describe(missing) + ", so that access would not be confined; handle fewer rights "
                    + "(handlingFsUpToAbi(" + abi + ")) or ask for best effort to drop them with a warning");
        }
        List<String> warnings = new ArrayList<>();
        for (LandlockRight r : missing) {
            warnings.add("Landlock: " + r.cName() + " dropped: the kernel answers ABI " + abi + ", it needs ABI "
                    + r.abi() + "; that access is NOT confined on this kernel");
        }
        if (kept.isEmpty()) {
            warnings.add("Landlock: no right left on ABI " + abi + ": best effort runs the child UNCONFINED");
        }
        return new LandlockPlan(abi, kept, missing, warnings);
    }

    private static String describe(Set<LandlockRight> rights) {
        return rights.stream().map(r -> r.cName() + " (ABI " + r.abi() + ")").collect(Collectors.joining(", "));
    }
}
