package heimdall.lab.graph.machine;

import heimdall.lab.BadInput;

/**
 * Resource bounds of {@link MachineCompiler#compile}: subset construction can blow up exponentially, so the
 * compiler stops and refuses once it has built more transitions or frames (states) than allowed.
 * These are bounds on work and memory, not targets.
 */
public record CompileBudget(long maxTransitions, long maxFrames) {
    /** The legacy follower's construction budget. */
    public static final long DEFAULT_MAX_TRANSITIONS = 1_048_576;
    /** Frames (states) are bounded too: a state costs a row in every dense layout. */
    public static final long DEFAULT_MAX_FRAMES = 1_048_576;

    public CompileBudget {
        if (maxTransitions < 1 || maxFrames < 1) {
            throw new BadInput("compile budget: maxTransitions and maxFrames must be positive, got " + maxTransitions
                    + " and " + maxFrames);
        }
    }

    public static CompileBudget defaults() {
        return new CompileBudget(DEFAULT_MAX_TRANSITIONS, DEFAULT_MAX_FRAMES);
    }

    public CompileBudget withMaxTransitions(long n) {
        return new CompileBudget(n, maxFrames);
    }

    public CompileBudget withMaxFrames(long n) {
        return new CompileBudget(maxTransitions, n);
    }
}
