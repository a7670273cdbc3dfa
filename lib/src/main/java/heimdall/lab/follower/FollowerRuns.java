package heimdall.lab.follower;

import com.sun.jna.StringArray;
import heimdall.lab.Refusal;
import heimdall.lab.bench.Stats;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.child.Phase;
import heimdall.lab.child.RunningChild;
import heimdall.lab.results.FollowerCostRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One run of a follower-cost row's measured child with something attached ({@link FollowerCost}): the follower
 * (the full step or a step's variant, {@link FollowStep}), or the empty program alone on the row's hook; timed,
 * or with the kernel's BPF run-time statistics on (the program's count).
 */
final class FollowerRuns {
    private FollowerRuns() {}

    /** A run with the follower attached: the child's samples, and the program's statistics when they were on. */
    record WithRun(long[] samples, Follower.ProgramStats program, long stepped) {}

    /**
     * A program's own cost over a row's statistics run, or why there is none.
     *
     * @param timedMedianNs the median of the calls the child timed in that run, or null
     */
    record ProgramRun(Follower.ProgramStats stats, Long timedMedianNs, String note) {
        ProgramRun(String note) {
            this(null, null, note);
        }

        FollowerCostRow.ProgramCost cost() {
            return stats == null
                    ? FollowerCostRow.ProgramCost.none(note)
                    : new FollowerCostRow.ProgramCost(
                            stats.runCount(), stats.runTimeNs(), stats.nsPerRun(), note, timedMedianNs);
        }
    }

    static final ProgramRun STOPPED = new ProgramRun("statistics run not made: stopped");

    /** One run with only the empty program on {@code hook}: the child's samples. */
    static long[] withEmptyHook(Hook hook, ChildSpec spec) {
        try (EmptyHook h = EmptyHook.attach(hook)) {
            return MeasuredChild.run(spec).requireCompleted().samples();
        }
    }

    /**
     * One more run of the row with BPF run-time statistics on (apart from the timed runs: statistics add
     * two clock reads to every program run), with the follower stopped after {@code step}. On the tracepoint
     * the program runs for every call of every task on the host (the unfollowed ones only test their process
     * id); on fentry for every call of every filtered task: the note says how many of the runs were the followed
     * child's stepped calls (where the variant counts them).
     */
    static ProgramRun programRun(Hook hook, boolean followed, ChildSpec spec, FollowerCost.Options o, FollowStep step) {
        WithRun w;
        try {
            w = withFollower(hook, followed, spec, o, step, true);
        } catch (Refusal e) {
            return new ProgramRun("statistics run refused: " + e.getMessage());
        }
        Follower.ProgramStats p = w.program();
        String note = String.format(
                Locale.ROOT,
                "one run with BPF_ENABLE_STATS%s: the program ran %,d times (%s)",
                step == FollowStep.FULL ? "" : " and the follower stopped after its " + step.part(),
                p.runCount(),
                runsOf(hook));
        if (step.compareTo(FollowStep.COUNTERS) >= 0) {
            note += String.format(Locale.ROOT, ", %,d of them the followed child's stepped calls", w.stepped());
        }
        if (statsAlreadyOn()) {
            note += "; kernel.bpf_stats_enabled was already 1: the timed runs include the statistics' own cost";
        }
        return new ProgramRun(p, Stats.of(w.samples()).median(), note);
    }

    /**
     * The same statistics run as {@link #programRun}'s, with the empty program alone on the row's hook: what the
     * kernel counts for the hook's entry into a program that does nothing, against which the follower's count is
     * its own work (both carry the statistics' two clock reads a run).
     */
    static ProgramRun emptyProgramRun(Hook hook, ChildSpec spec) {
        try (Follower.RunTimeStats on = Follower.RunTimeStats.enable();
                EmptyHook h = EmptyHook.attach(hook)) {
            ChildResult res = MeasuredChild.run(spec).requireCompleted();
            Follower.ProgramStats p = h.programStats();
            return new ProgramRun(
                    p,
                    Stats.of(res.samples()).median(),
                    String.format(
                            Locale.ROOT,
                            "one run with BPF_ENABLE_STATS and the empty program alone: it ran %,d times (%s)",
                            p.runCount(),
                            runsOf(hook)));
        } catch (Refusal e) {
            return new ProgramRun("statistics run refused: " + e.getMessage());
        }
    }

    /** Which calls run a program on {@code hook}. */
    private static String runsOf(Hook hook) {
        return hook == Hook.SECCOMP_FENTRY ? "every call of every filtered task" : "every call of every task";
    }

    private static boolean statsAlreadyOn() {
        try {
            return "1"
                    .equals(Files.readString(Path.of("/proc/sys/kernel/bpf_stats_enabled"))
                            .strip());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * One run with the follower attached, stopped after {@code step}: following the child itself, or an idle
     * bystander.
     *
     * @throws Refusal the kernel refused the program, or the follower was pointed at the child too late
     */
    static WithRun withFollower(
            Hook hook,
            boolean followed,
            ChildSpec spec,
            FollowerCost.Options o,
            FollowStep step,
            boolean programStats) {
        int[] gate = new int[1];
        int idle = FollowerNative.hf_spawn("/bin/true", new StringArray(new String[] {"/bin/true"}), 0, gate);
        if (idle < 0) {
            throw new IllegalStateException("cannot fork the idle bystander: errno " + -idle);
        }
        try (Follower.RunTimeStats on = programStats ? Follower.RunTimeStats.enable() : null;
                Follower f = Follower.attachArmed(KernelTables.allowingEverything(), idle, hook, step)) {
            ChildResult res;
            Phase pointedAt = null;
            try (RunningChild child = MeasuredChild.start(spec)) {
                if (followed) {
                    f.follow(child.pid());
                    pointedAt = child.phase();
                }
                res = child.await().requireCompleted();
            }
            Follower.ProgramStats prog = programStats ? f.programStats() : null;
            Follower.Stats s = f.stats();
            if (followed) {
                requireFollowedInTime(s, o, step, pointedAt);
            }
            if (!followed && s.calls() != 0) {
                throw new IllegalStateException("the follower stepped " + s.calls() + " calls of the idle bystander");
            }
            return new WithRun(res.samples(), prog, s.calls());
        } finally {
            FollowerNative.hf_close_gate(gate[0]);
            int[] st = new int[1];
            FollowerNative.hf_kill(idle);
            FollowerNative.hf_wait(idle, -1, st);
        }
    }

    /**
     * The follower is pointed at the child once its pid is known, while the child already runs: it must have
     * followed every timed call. Where it counts the calls ({@link FollowStep#COUNTERS} on), it must have been
     * following before the second half of the warm-up, so that every timed call (the last ones the child makes,
     * bar its exit) was stepped; a variant that stops before counting must have been pointed before the child
     * published its measurement phase (read just after pointing it).
     */
    private static void requireFollowedInTime(
            Follower.Stats s, FollowerCost.Options o, FollowStep step, Phase pointedAt) {
        if (step.compareTo(FollowStep.COUNTERS) >= 0) {
            long expected = o.count() + o.warmup() / 2;
            if (s.calls() < expected) {
                throw new Refusal("the follower was pointed at the child too late: it stepped " + s.calls()
                        + " calls, fewer than the " + o.count() + " timed calls and half the " + o.warmup()
                        + " warm-up calls (a busy host: raise the warm-up)");
            }
        } else if (pointedAt == Phase.MEASURE || pointedAt == Phase.DONE) {
            throw new Refusal("the follower (stopped after its " + step.part() + ") was pointed at the child too"
                    + " late: the child had begun its timed calls (a busy host: raise the warm-up)");
        }
    }
}
