package heimdall.lab.reproduce.workloadcost;

import heimdall.lab.Refusal;
import heimdall.lab.bpf.CachePredictor;
import heimdall.lab.bpf.Emulator;
import heimdall.lab.bpf.Program;
import heimdall.lab.bpf.SeccompData;
import heimdall.lab.bpf.Verdict;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The prediction beside the measurement: the program's recorded call mix (calls a run, by number) times each
 * call's added cost under the mechanism, measured in the same run by the floor bench's child
 * ({@code heimdall-runner}): a call the filter answers from the kernel's action cache costs what a cached
 * harmless call (getppid, ...) costs under that filter; a call that runs the program costs what a harmless call
 * that runs it costs, scaled by the instructions each executes. A brokered call adds the supervisor's round
 * trip ({@code broker.BrokerBench}, same run).
 */
final class Prediction {
    private Prediction() {}

    /**
     * Harmless calls, tried in this order as probes of a filter's per-call cost: identity calls, then calls on
     * descriptor -1 or with nothing to do (EBADF, or 0), so that a program's own profile, which allows what the
     * program called and nothing else, still has one.
     */
    static final List<long[]> PROBES = List.of(
            new long[] {110}, // getppid
            new long[] {39}, // getpid
            new long[] {186}, // gettid
            new long[] {102}, // getuid
            new long[] {104}, // getgid
            new long[] {107}, // geteuid
            new long[] {108}, // getegid
            new long[] {3, -1}, // close(-1): EBADF
            new long[] {5, -1, 0}, // fstat(-1, NULL): EBADF
            new long[] {0, -1, 0, 0}, // read(-1, NULL, 0): EBADF
            new long[] {1, -1, 0, 0}, // write(-1, NULL, 0): EBADF
            new long[] {8, -1, 0, 0}, // lseek(-1, 0, 0): EBADF
            new long[] {72, -1, 1}, // fcntl(-1, F_GETFD): EBADF
            new long[] {14, 0, 0, 0, 8}, // rt_sigprocmask(SIG_BLOCK, NULL, NULL, 8): nothing changed
            new long[] {12, 0}); // brk(0): the current break

    /**
     * A filter's per-call figures, measured.
     *
     * @param cachedNs the added cost of a call answered from the action cache, or null (no harmless cached call)
     * @param programNs the added cost of a call that runs the program, or null
     * @param programInsns the instructions that call executes
     */
    record PerCall(Double cachedNs, Double programNs, Long programInsns) {}

    /**
     * The harmless calls that probe a filter: the first answered from the action cache, the first that runs the
     * program (null where the filter allows none), and the instructions that one executes.
     */
    record Probes(long[] cached, long[] running, Long runningInsns) {}

    /** The probes of {@code p}, in {@link #PROBES}' order. */
    static Probes probes(Program p) {
        long[] cached = null;
        long[] running = null;
        for (long[] c : PROBES) {
            SeccompData d = data(c);
            if (!Emulator.run(p, d).allows()) {
                continue;
            }
            if (CachePredictor.cacheable(p, (int) c[0])) {
                cached = cached == null ? c : cached;
            } else {
                running = running == null ? c : running;
            }
        }
        return new Probes(
                cached,
                running,
                running == null ? null : Emulator.run(p, data(running)).insnsExecuted());
    }

    /** Measures {@code p}'s per-call figures: {@code runs} interleaved pairs (under it, none) a probe call. */
    static PerCall measure(Program p, int runs, long calls) {
        Probes pr = probes(p);
        return new PerCall(
                pr.cached() == null ? null : added(p, pr.cached(), runs, calls),
                pr.running() == null ? null : added(p, pr.running(), runs, calls),
                pr.runningInsns());
    }

    private static SeccompData data(long[] call) {
        return SeccompData.x86_64((int) call[0], Arrays.copyOfRange(call, 1, call.length));
    }

    /** The median over runs of {@link #addedOnce}. */
    static double added(Program p, long[] call, int runs, long calls) {
        long[] d = new long[runs];
        for (int i = 0; i < runs; i++) {
            d[i] = addedOnce(p, call, i, calls);
        }
        return WorkloadCost.median(d);
    }

    /**
     * One pair: the mean of {@code calls} calls {@code call} (its number, then its arguments) under {@code p}
     * less the same with no filter, the child on the CPUs this process may use, as a workload runs (not pinned:
     * a figure measured on one CPU while the workload moves between them is of another placement).
     */
    static long addedOnce(Program p, long[] call, int run, long calls) {
        ChildSpec spec = ChildSpec.of(
                        Call.syscall((int) call[0], Arrays.copyOfRange(call, 1, call.length)), calls / 10, calls)
                .withPlacementForRun(run)
                .withCpu(-1);
        long under = Math.round(trimmedMean(MeasuredChild.run(spec.withPrograms(p.toBytes()))
                .requireCompleted()
                .samples()));
        long none = Math.round(
                trimmedMean(MeasuredChild.run(spec).requireCompleted().samples()));
        return under - none;
    }

    /** The share of a run's samples above which a sample is taken for a time off the CPU, not a call's cost. */
    static final double OFF_CPU_SHARE = 0.001;

    /**
     * The mean of {@code samples} without their top {@value #OFF_CPU_SHARE} share. A run's added time is the
     * sum of its calls' costs, so a call's figure to multiply by a count is a mean, not a median: the median
     * leaves out the slower calls (the first after a switch, its filter's code and data cold) that a run pays
     * too (a test's floor added 12-14% more CPU than the medians predicted, on a loaded host). The few samples
     * that span a preemption (milliseconds off the CPU, which no CPU time counts) are left out.
     */
    static double trimmedMean(long[] samples) {
        if (samples.length == 0) {
            return Double.NaN;
        }
        long[] s = samples.clone();
        Arrays.sort(s);
        int keep = Math.max(1, s.length - (int) Math.ceil(s.length * OFF_CPU_SHARE));
        double sum = 0;
        for (int i = 0; i < keep; i++) {
            sum += s[i];
        }
        return sum / keep;
    }

    /**
     * The added time a run of {@code mix} (calls a run by number) is predicted to pay under {@code p}, in ns;
     * null when a call of the mix has no figure (its kind of answer had no harmless probe).
     */
    static Double floorAddedNs(Map<Integer, Long> mix, Program p, PerCall f) {
        double sum = 0;
        for (Map.Entry<Integer, Long> e : mix.entrySet()) {
            int nr = e.getKey();
            Double each;
            if (CachePredictor.cacheable(p, nr)) {
                each = f.cachedNs();
            } else if (f.programNs() != null) {
                long insns = Emulator.run(p, SeccompData.x86_64(nr)).insnsExecuted();
                each = f.programNs() * insns / Math.max(1, f.programInsns());
            } else {
                each = f.cachedNs();
            }
            if (each == null) {
                return null;
            }
            sum += e.getValue() * each;
        }
        return sum;
    }

    /**
     * gVisor's weighted instruction count: the BPF instructions {@code p} executes for each call of the mix
     * (zero arguments; the action cache ignored, as the count is of the program), weighted by the calls a run
     * makes: instructions a run.
     */
    static long weightedInsns(Map<Integer, Long> mix, Program p) {
        long sum = 0;
        for (Map.Entry<Integer, Long> e : mix.entrySet()) {
            Verdict v = Emulator.run(p, SeccompData.x86_64(e.getKey()));
            sum += e.getValue() * v.insnsExecuted();
        }
        return sum;
    }

    /** Fails loudly when a probe child did not complete (never a time from a killed child). */
    static Refusal failed(String what, RuntimeException e) {
        return new Refusal("the per-call figures of " + what + " could not be measured: " + e.getMessage());
    }
}
