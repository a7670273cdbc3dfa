package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.bench.FloorRow;
import heimdall.lab.child.Call;
import heimdall.lab.floor.Floor;
import heimdall.lab.landlock.Landlock;

/**
 * One row to measure: a call under a mechanism.
 *
 * @param mechanism its name in the table ({@code landlock}, {@code floor + broker}, ...)
 * @param base the call, the seccomp programs and who answers a brokered call, as a floor-cost row has them
 * @param landlock the ruleset the child builds, or null
 * @param name the name the call gives, from {@code in/}
 * @param depth the name's components
 * @param admitted whether {@code readBeneath(in/)} admits the name
 */
record MechanismRow(String mechanism, FloorRow base, Landlock landlock, String name, int depth, boolean admitted) {
    static MechanismRow of(
            String mechanism,
            Floor floor,
            Landlock landlock,
            Call call,
            FloorRow.Brokering broker,
            String name,
            int depth,
            boolean admitted) {
        return new MechanismRow(
                mechanism, new FloorRow(mechanism, floor, call, broker, null), landlock, name, depth, admitted);
    }

    Call call() {
        return base.call();
    }

    boolean brokered() {
        return base.brokered();
    }

    String label() {
        return base.label() + " " + (admitted ? "admitted" : "refused") + " depth " + depth;
    }
}
