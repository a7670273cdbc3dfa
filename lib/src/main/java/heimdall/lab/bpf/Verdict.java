package heimdall.lab.bpf;

import heimdall.lab.profile.Action;

/**
 * What a filter (or a stack of filters) answered: the full 32-bit return value and how many
 * instructions ran to get it (over all programs, for a stack).
 */
public record Verdict(int action, long insnsExecuted) {
    /** The return value's action bits only (the kernel's {@code ACTION_ONLY}, a signed int). */
    public int actionOnly() {
        return action & 0xffff0000;
    }

    /** Whether the call is allowed to proceed as if unfiltered. */
    public boolean allows() {
        return actionOnly() == Action.Kind.ALLOW.base;
    }

    @Override
    public String toString() {
        return Action.describe(action) + " after " + insnsExecuted + " instructions";
    }
}
