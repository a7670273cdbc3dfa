package heimdall.lab;

/**
 * A measurement or import that was refused for a stated reason: a budget exceeded, an unmapped
 * function, a kernel feature missing, a child killed by its floor. Never papered over with a
 * permissive fallback; the command line prints the reason and exits with status 1.
 */
public class Refusal extends RuntimeException {
    public Refusal(String reason) {
        super(reason);
    }

    public Refusal(String reason, Throwable cause) {
        super(reason, cause);
    }
}
