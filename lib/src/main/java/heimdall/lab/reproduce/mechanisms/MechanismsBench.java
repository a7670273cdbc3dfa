package heimdall.lab.reproduce.mechanisms;

import heimdall.lab.Errno;
import heimdall.lab.Refusal;
import heimdall.lab.bench.FloorBench;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.child.ChildResult;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.sys.Host;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Times the rows floor-cost's way ({@link FloorBench}'s method): every run a fresh child that builds its
 * Landlock ruleset and installs its programs, then makes only the measured call, W warm-up calls and N
 * timed ones; runs interleaved with the order rotated each round; one baseline (the same call, nothing
 * installed) per distinct call, measured in the same invocation. What differs from FloorBench: a child may
 * carry a Landlock ruleset, and a call that fails (a refused name) is the row's result, not its failure.
 */
final class MechanismsBench {
    private MechanismsBench() {}

    /** One row's measurement and the outcome of its last measured call (the same in every run). */
    record Measured(FloorBench.Measured measured, String result, int landlockAbi) {}

    static List<Measured> run(
            List<MechanismRow> rows,
            FloorBench.Counts counts,
            int cpu,
            int supervisorCpu,
            Path in,
            SamplesFile samples,
            Host.LoadSampler loads,
            Session session,
            String landlockRefusal) {
        Map<String, Integer> baselineOwner = new LinkedHashMap<>();
        int[] baselineOf = new int[rows.size()];
        List<Variant> variants = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            MechanismRow row = rows.get(i);
            String key = row.call().label() + "/" + warmup(counts, row) + "/" + count(counts, row);
            Integer owner = baselineOwner.get(key);
            if (owner == null) {
                owner = i;
                baselineOwner.put(key, i);
                variants.add(new Variant(i, true, row, new State()));
            }
            baselineOf[i] = owner;
        }
        State[] baselineState = new State[rows.size()];
        for (Variant v : variants) {
            baselineState[v.row] = v.state;
        }
        for (int i = 0; i < rows.size(); i++) {
            State s = new State();
            if (rows.get(i).landlock() != null && landlockRefusal != null) {
                s.failure = landlockRefusal; // refused before any child: the kernel cannot confine as asked
            }
            variants.add(new Variant(i, false, rows.get(i), s));
        }
        int total = counts.runs() * variants.size();
        int done = 0;
        measuring:
        for (int run = 0; run < counts.runs(); run++) {
            for (int k = 0; k < variants.size(); k++) {
                if (session.stopRequested()) {
                    break measuring;
                }
                Variant v = variants.get((k + run) % variants.size());
                done++;
                if (v.state.failure != null) {
                    continue;
                }
                String label = v.source.label() + (v.baseline ? " (nothing)" : "");
                double before = loads.sample().one();
                try {
                    ChildResult r = measure(v, counts, cpu, supervisorCpu, run, in);
                    long[] got = r.samples();
                    v.state.runs.add(got);
                    v.state.loads.add((before + loads.sample().one()) / 2);
                    v.state.cpuGranted = r.cpuGranted();
                    v.state.result = r.lastErrno() == 0 ? "ok" : Errno.name(r.lastErrno());
                    v.state.landlockAbi = r.landlockAbi();
                    samples.append(v.row, v.baseline ? "none" : "filtered", run, got);
                    session.progress()
                            .accept(String.format(
                                    Locale.ROOT,
                                    "[%d/%d] run %d · %s: median %,d ns (%s)",
                                    done,
                                    total,
                                    run + 1,
                                    label,
                                    Stats.of(got).median(),
                                    v.state.result));
                } catch (Refusal e) {
                    if (session.stopRequested()) {
                        break measuring;
                    }
                    v.state.failure = e.getMessage();
                    session.progress()
                            .accept(String.format(
                                    Locale.ROOT,
                                    "[%d/%d] run %d · %s: FAILED: %s",
                                    done,
                                    total,
                                    run + 1,
                                    label,
                                    e.getMessage()));
                } catch (RuntimeException e) {
                    if (!session.stopOn(e)) {
                        throw e;
                    }
                    break measuring;
                }
            }
        }
        List<Measured> out = new ArrayList<>();
        for (Variant v : variants) {
            if (v.baseline) {
                continue;
            }
            State s = v.state;
            State b = baselineState[baselineOf[v.row]];
            String failure = s.failure != null ? s.failure : b.failure != null ? "baseline: " + b.failure : null;
            out.add(new Measured(
                    new FloorBench.Measured(
                            v.source.base(),
                            List.copyOf(s.runs),
                            List.copyOf(b.runs),
                            baselineOf[v.row],
                            List.copyOf(s.loads),
                            failure,
                            s.cpuGranted,
                            List.of()),
                    s.result,
                    s.landlockAbi));
        }
        return out;
    }

    static long warmup(FloorBench.Counts c, MechanismRow row) {
        return row.brokered() ? c.brokerWarmup() : c.warmup();
    }

    static long count(FloorBench.Counts c, MechanismRow row) {
        return row.brokered() ? c.brokerCount() : c.count();
    }

    /** One fresh child: the baseline (nothing installed), or the row's ruleset, programs and supervisor. */
    private static ChildResult measure(
            Variant v, FloorBench.Counts counts, int cpu, int supervisorCpu, int run, Path in) {
        MechanismRow row = v.source;
        ChildSpec spec = ChildSpec.of(row.call(), warmup(counts, row), count(counts, row))
                .withCpu(cpu)
                .withPlacementForRun(run);
        if (v.baseline) {
            return MeasuredChild.run(spec).requireCompleted();
        }
        spec = spec.withPrograms(row.base().floor().bytes()).withLandlock(row.landlock());
        if (!row.brokered()) {
            return MeasuredChild.run(spec).requireCompleted();
        }
        return Brokered.run(
                        spec,
                        row.base().floor(),
                        row.base().broker().supervisor(),
                        row.base().broker().answer(),
                        supervisorCpu,
                        in)
                .requireCompleted();
    }

    private record Variant(int row, boolean baseline, MechanismRow source, State state) {}

    private static final class State {
        final List<long[]> runs = new ArrayList<>();
        final List<Double> loads = new ArrayList<>();
        String failure;
        String result;
        int cpuGranted = -1;
        int landlockAbi;
    }
}
