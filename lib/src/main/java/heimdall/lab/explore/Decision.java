package heimdall.lab.explore;

/**
 * One event a {@link Stepper} judged.
 *
 * @param step 1-based position
 * @param event the event as written: a call's name, {@code reset}, {@code signal:SIGUSR1}
 * @param nr the call's number; -1 for a reset, -2 - k for signal k
 * @param allowed whether the cursor moved (a denied call or refused delivery leaves it where it was)
 * @param stateBefore the machine state before (-1 on the hash layout)
 * @param stateAfter the machine state after
 * @param depth open signal frames after
 */
public record Decision(int step, String event, int nr, boolean allowed, int stateBefore, int stateAfter, int depth) {
    @Override
    public String toString() {
        return step + ": " + event + (allowed ? " allowed" : " DENIED") + ", state " + stateBefore + " -> " + stateAfter
                + (depth > 0 ? ", depth " + depth : "");
    }
}
