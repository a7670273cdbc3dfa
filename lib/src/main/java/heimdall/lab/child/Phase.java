package heimdall.lab.child;

/**
 * The step a measured child had reached; the runner publishes it before each step, so a death is
 * attributed to the step it happened in. Order and codes are {@code enum hl_phase} of heimdall_shm.h.
 */
public enum Phase {
    SPAWNED("before it started"),
    SETUP("setup"),
    PIN("pinning"),
    PREPARE("preparation"),
    NO_NEW_PRIVS("setting no_new_privs"),
    INSTALL("installation"),
    LISTENER("listener handover"),
    LISTENER_READY("listener handover"),
    WARMUP("warm-up"),
    MEASURE("measurement"),
    DONE("exit"),
    /** Building and enforcing the Landlock ruleset: after {@link #NO_NEW_PRIVS}, before {@link #INSTALL}. */
    LANDLOCK("building the Landlock ruleset");

    private final String text;

    Phase(String text) {
        this.text = text;
    }

    /** Words for a sentence: {@code "warm-up"}, {@code "measurement"}, … */
    public String text() {
        return text;
    }

    static Phase of(long code) {
        return code >= 0 && code < values().length ? values()[(int) code] : SPAWNED;
    }
}
