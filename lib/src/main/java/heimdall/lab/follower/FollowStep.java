package heimdall.lab.follower;

import java.util.List;

/**
 * The parts of a followed call's step, in the order the program runs them ({@code follow_call} in
 * {@code native/follower/follower.bpf.c}), and where a cost measurement's variant of the program stops
 * ({@code HF_STEP_*} of {@code follower.h}): follower-cost times the same object stopped after each part, in
 * the same runs, so that the follower's own work is split by part. Only {@link #FULL} judges a call; the
 * loader refuses the others to a follower armed at exec (the one that follows a real run).
 */
public enum FollowStep {
    /** {@code followed()}: the process id compare and {@code armed}, then the {@code killed} test. */
    CHECK("check", "the followed() test (process id, armed) and the killed test"),
    /** The task and its cursor in task storage ({@code bpf_task_storage_get}, created at the first call). */
    CURSOR("cursor", "the task and its cursor in task storage"),
    /** The calls counters: every thread's count (read by the loader) and the thread's own. */
    COUNTERS("counters", "the calls counters"),
    /** The bounds checks, the cell lookup, the clone branch and the cursor's move: the whole step. */
    FULL("cell", "the bounds checks, the cell lookup and the cursor's move");

    /** The variants a cost measurement times beside the full follower: every part but the last. */
    public static final List<FollowStep> PARTIAL = List.of(CHECK, CURSOR, COUNTERS);

    private final String part;
    private final String does;

    FollowStep(String part, String does) {
        this.part = part;
        this.does = does;
    }

    /** The part this step adds, as results name it ({@code "cursor"}). */
    public String part() {
        return part;
    }

    /** What this part does, in words. */
    public String does() {
        return does;
    }

    /** The variant's name in samples.arrow: {@code "step-cursor"} (the full step is the {@code "with"} variant). */
    public String variant() {
        return "step-" + part;
    }

    /** The native constant ({@code follower.h}'s {@code HF_STEP_*}). */
    public int code() {
        return ordinal() + 1;
    }
}
