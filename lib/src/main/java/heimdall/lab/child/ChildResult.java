package heimdall.lab.child;

import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import java.util.Arrays;

/**
 * What a measured child left behind.
 *
 * @param spec what was asked
 * @param samples per-call durations in ns ({@code PER_CALL}, {@code TIMER}); empty for {@code BATCH}
 *     and for a child that did not finish measuring
 * @param batchTotalNs {@code BATCH}: ns around all calls; 0 otherwise
 * @param cpuGranted the CPU the child ran on after pinning; -1 when it died before knowing
 * @param fate how it ended
 * @param lastReturn the last measured call's return value (-1 on failure)
 * @param lastErrno its errno, 0 when it succeeded
 * @param landlockAbi the Landlock ABI the child's kernel answered when it built a ruleset; 0 for none
 * @param landlockStep where building the ruleset stopped ({@code enum hl_landlock_step}: 0 none asked for,
 *     1 description, 2 ABI, 3 ruleset, 4 opening a rule's path, 5 adding a rule, 6 restricting, 7 done)
 */
public record ChildResult(
        ChildSpec spec,
        long[] samples,
        long batchTotalNs,
        int cpuGranted,
        Fate fate,
        long lastReturn,
        int lastErrno,
        int landlockAbi,
        int landlockStep) {

    /** A child that built no Landlock ruleset. */
    public ChildResult(
            ChildSpec spec,
            long[] samples,
            long batchTotalNs,
            int cpuGranted,
            Fate fate,
            long lastReturn,
            int lastErrno) {
        this(spec, samples, batchTotalNs, cpuGranted, fate, lastReturn, lastErrno, 0, 0);
    }

    /** The words for {@link #landlockStep()}. */
    static final String[] LANDLOCK_STEPS = {
        "none", "checking the description", "asking the kernel's ABI", "creating the ruleset",
        "opening a rule's path", "adding a rule", "restricting itself", "enforced"
    };

    /**
     * Whether the child measured: it exited 0 after its measuring phase ({@link Fate#ok()}) and left
     * every sample asked for (all {@code count} of them; none in the batch modes).
     */
    public boolean completed() {
        return fate.ok() && samples.length == expectedSamples();
    }

    /** The samples a completed run leaves: {@code count}, or none in the batch modes. */
    public long expectedSamples() {
        return spec.mode().batch() ? 0 : spec.count();
    }

    /**
     * How the child ended, in one sentence ({@link Fate#describe()}), with the samples it left when it
     * did not complete ({@code "exited with 0 during warm-up, before it finished measuring; 0 of 100
     * samples"}).
     */
    public String outcome() {
        String f = fate.describe();
        if (fate instanceof Fate.Exited e
                && e.code() == 73
                && landlockStep >= 0
                && landlockStep < LANDLOCK_STEPS.length) {
            f += " at step '" + LANDLOCK_STEPS[landlockStep] + "' (kernel Landlock ABI " + landlockAbi + ")";
        }
        if (completed() || expectedSamples() == 0) {
            return f;
        }
        return f + "; " + samples.length + " of " + expectedSamples() + " samples";
    }

    /** This result, or a refusal carrying {@link #outcome()} when the child did not complete. */
    public ChildResult requireCompleted() {
        if (!completed()) {
            throw new Refusal("measured child " + outcome());
        }
        return this;
    }

    /** The median sample (the lower of the two middle ones for an even count); -1 without samples. */
    public long median() {
        if (samples.length == 0) {
            return -1;
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    public long min() {
        return Arrays.stream(samples).min().orElse(-1);
    }

    public long max() {
        return Arrays.stream(samples).max().orElse(-1);
    }

    /** {@code "-1 EPERM"} or {@code "3"}. */
    public String lastOutcome() {
        return lastErrno != 0 ? lastReturn + " " + Errno.name(lastErrno) : Long.toString(lastReturn);
    }
}
