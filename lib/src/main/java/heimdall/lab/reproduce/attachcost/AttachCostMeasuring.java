package heimdall.lab.reproduce.attachcost;

import heimdall.lab.Refusal;
import heimdall.lab.bench.SamplesFile;
import heimdall.lab.bench.Session;
import heimdall.lab.bench.Stats;
import heimdall.lab.bpf.Compiler;
import heimdall.lab.child.AttachBudget;
import heimdall.lab.child.Call;
import heimdall.lab.child.ChildSpec;
import heimdall.lab.child.MeasuredChild;
import heimdall.lab.fixtures.Fixtures;
import heimdall.lab.profile.Profile;
import heimdall.lab.profile.ProfileJson;
import heimdall.lab.reproduce.attachcost.AttachCost.Floor;
import heimdall.lab.reproduce.attachcost.AttachCost.FloorFigures;
import heimdall.lab.reproduce.attachcost.AttachCost.Measurement;
import heimdall.lab.reproduce.attachcost.AttachCost.Options;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * attach-cost's measuring: for each floor its runs of fresh children (attaches in a loop, fork and attach), the
 * library's compile times, then the fork-alone baseline, gathered into a {@link Measurement}. Its own class because
 * it is the one part of the kind that runs children; the rows ({@link AttachCost#summary}) and the table
 * ({@link AttachCostTable}) only read what it gathered.
 */
final class AttachCostMeasuring {
    private AttachCostMeasuring() {}

    /** {@link AttachCost#measure(Options, List, SamplesFile, Session)}: every floor, then the fork-alone baseline. */
    static Measurement measure(Options o, List<Floor> floors, SamplesFile samples, Session session) {
        Consumer<String> progress = session.progress();
        List<FloorFigures> figures = new ArrayList<>();
        int row = 0;
        for (Floor f : floors) {
            int budget = AttachBudget.maxFilters(f.loopProgram().toBytes());
            int k = Math.min(o.attaches(), budget);
            Runs runs = new Runs();
            String failure = null;
            for (int run = 0; run < o.runs() && failure == null && !session.stopRequested(); run++) {
                try {
                    measureRun(f, row, run, k, o, samples, runs, progress);
                } catch (RuntimeException e) {
                    if (session.stopRequested()) {
                        break; // the stop ended the child: its run is not kept, and it is not the floor's failure
                    }
                    if (!(e instanceof Refusal)) {
                        if (!session.stopOn(e)) {
                            throw e;
                        }
                        break; // a failure, not the floor's refusal: the runs before it are kept
                    }
                    failure = e.getMessage();
                    progress.accept("run " + (run + 1) + " · " + f.name() + ": FAILED: " + failure);
                }
            }
            long[] compile = session.stopRequested() ? new long[0] : timeCompile(f, o, progress);
            figures.add(new FloorFigures(
                    f,
                    k,
                    budget,
                    List.copyOf(runs.attach),
                    List.copyOf(runs.attachLoop),
                    List.copyOf(runs.fork),
                    List.copyOf(runs.forkLoop),
                    compile,
                    failure));
            row++;
        }
        List<long[]> forkRuns = new ArrayList<>();
        List<Long> forkLoop = new ArrayList<>();
        for (int run = 0; run < o.runs() && !session.stopRequested(); run++) {
            ChildSpec fork = ChildSpec.of(Call.FORK, o.forkWarmup(), o.forks()).withCpu(o.cpu());
            long[] s;
            long total;
            try {
                s = MeasuredChild.run(fork).requireCompleted().samples();
                total = MeasuredChild.run(fork.withMode(ChildSpec.Mode.BATCH))
                        .requireCompleted()
                        .batchTotalNs();
            } catch (RuntimeException e) {
                if (session.stopRequested() || session.stopOn(e)) {
                    break; // the stop ended the child, or this failure is the stop: its run is not kept
                }
                throw e;
            }
            forkRuns.add(s);
            forkLoop.add(total);
            if (samples != null) {
                samples.append(row, "fork", run, s);
            }
            progress.accept(String.format(
                    Locale.ROOT,
                    "run %d · fork alone: median %,d ns",
                    run + 1,
                    Stats.of(s).median()));
        }
        return new Measurement(o, List.copyOf(figures), List.copyOf(forkRuns), List.copyOf(forkLoop));
    }

    /** One floor's runs as they come. */
    private static final class Runs {
        final List<long[]> attach = new ArrayList<>();
        final List<Long> attachLoop = new ArrayList<>();
        final List<long[]> fork = new ArrayList<>();
        final List<Long> forkLoop = new ArrayList<>();
    }

    /** One run of each variant of one floor: attaches timed inside and outside, fork+attach likewise. */
    private static void measureRun(
            Floor f, int row, int run, int k, Options o, SamplesFile samples, Runs runs, Consumer<String> progress) {
        ChildSpec attach = ChildSpec.attaching(Call.ATTACH, f.loopProgram().toBytes(), 0, k)
                .withCpu(o.cpu());
        long[] s = MeasuredChild.run(attach).requireCompleted().samples();
        long loop = MeasuredChild.run(attach.withMode(ChildSpec.Mode.BATCH))
                .requireCompleted()
                .batchTotalNs();
        ChildSpec fork = ChildSpec.attaching(Call.FORK_ATTACH, f.program().toBytes(), o.forkWarmup(), o.forks())
                .withCpu(o.cpu());
        long[] fs = MeasuredChild.run(fork).requireCompleted().samples();
        long forkLoop = MeasuredChild.run(fork.withMode(ChildSpec.Mode.BATCH))
                .requireCompleted()
                .batchTotalNs();
        runs.attach.add(s);
        runs.attachLoop.add(loop);
        runs.fork.add(fs);
        runs.forkLoop.add(forkLoop);
        if (samples != null) {
            samples.append(row, "attach", run, s);
            samples.append(row, "fork+attach", run, fs);
        }
        progress.accept(String.format(
                Locale.ROOT,
                "run %d · %s (%d insns): attach median %,d ns (loop %,d ns/attach, %d attaches); fork+attach median "
                        + "%,d ns",
                run + 1,
                f.name(),
                f.insns(),
                Stats.of(s).median(),
                loop / k,
                k,
                Stats.of(fs).median()));
    }

    /** Compile times in this JVM after a warm-up, each compile timed alone. */
    static long[] timeCompile(Floor f, Options o, Consumer<String> progress) {
        Profile p = profileOf(f);
        if (p == null) {
            return new long[0];
        }
        long sink = 0;
        for (int i = 0; i < o.compileWarmup(); i++) {
            sink += Compiler.compile(p).length();
        }
        long[] ns = new long[o.compiles()];
        for (int i = 0; i < ns.length; i++) {
            long a = System.nanoTime();
            sink += Compiler.compile(p).length();
            ns[i] = System.nanoTime() - a;
        }
        if (sink == 42) {
            progress.accept(""); // keeps the compiles observable to the JIT
        }
        progress.accept(String.format(
                Locale.ROOT, "%s: compile median %,d ns", f.name(), Stats.of(ns).median()));
        return ns;
    }

    /** The profile behind a floor, for timing the compiler (null for the hand-written filter). */
    static Profile profileOf(Floor f) {
        if (f.source().startsWith("fixtures/profiles/")) {
            return Fixtures.profile(f.source().split("/")[2]);
        }
        if (f.source().startsWith("/")) {
            return ProfileJson.load(Path.of(f.source())).profile();
        }
        return null;
    }
}
