package heimdall.lab.probe;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code profile probe}: traces a command several times and aggregates what every run called into
 * {@link Observations}. Several runs, because one run of a multi-threaded program need not make
 * every call it makes in general (the seed's fixtures were probed 3 times).
 */
public final class Probe {
    private final Tracer tracer;
    private final SyscallNames names;

    public Probe(Tracer tracer, SyscallNames names) {
        this.tracer = tracer;
        this.names = names;
    }

    /**
     * Traces {@code command} {@code runs} times and aggregates the runs.
     *
     * @param recorded the command as it should appear in the observations
     */
    public Result probe(List<String> command, int runs, List<String> recorded)
            throws IOException, InterruptedException {
        return probe(command, runs, recorded, null);
    }

    /** {@link #probe(List, int, List)} with {@code dir} as the command's working folder (null: ours). */
    public Result probe(List<String> command, int runs, List<String> recorded, Path dir)
            throws IOException, InterruptedException {
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1");
        }
        List<Tracer.Run> done = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            done.add(tracer.run(command, dir));
        }
        return new Result(
                aggregate(
                        done.stream().map(Tracer.Run::events).toList(),
                        done.stream().map(Tracer.Run::status).toList(),
                        recorded,
                        names),
                done);
    }

    /** The observations with the runs they came from (statuses, captured output). */
    public record Result(Observations observations, List<Tracer.Run> runs) {}

    /**
     * Aggregates traced runs: per syscall number, the count in each run and, for the calls in
     * {@link ArgumentSensitive#TABLE}, the distinct tuples of the listed arguments over all runs.
     */
    public static Observations aggregate(
            List<List<TraceEvent>> runs, List<Integer> statuses, List<String> command, SyscallNames names) {
        Map<Integer, long[]> counts = new TreeMap<>();
        Map<Integer, TreeSet<List<Long>>> tuples = new TreeMap<>();
        for (int r = 0; r < runs.size(); r++) {
            for (TraceEvent e : runs.get(r)) {
                if (!(e instanceof TraceEvent.Syscall s)) {
                    continue;
                }
                counts.computeIfAbsent(s.nr(), k -> new long[runs.size()])[r]++;
                Optional<ArgumentSensitive.Call> rule = ArgumentSensitive.of(names.name(s.nr()));
                if (rule.isPresent()) {
                    List<Long> tuple = new ArrayList<>();
                    for (int index : rule.get().indices()) {
                        tuple.add(s.arg(index));
                    }
                    tuples.computeIfAbsent(s.nr(), k -> new TreeSet<>(UNSIGNED_TUPLES))
                            .add(List.copyOf(tuple));
                }
            }
        }
        List<Observations.Call> calls = new ArrayList<>();
        for (Map.Entry<Integer, long[]> c : counts.entrySet()) {
            String name = names.name(c.getKey());
            List<Long> perRun = new ArrayList<>();
            for (long n : c.getValue()) {
                perRun.add(n);
            }
            Optional<Observations.Args> args = ArgumentSensitive.of(name)
                    .map(rule -> new Observations.Args(
                            rule.indices(), rule.names(), new ArrayList<>(tuples.get(c.getKey()))));
            calls.add(new Observations.Call(name, c.getKey(), perRun, args));
        }
        return new Observations("x86_64", command, runs.size(), statuses, calls);
    }

    /** Tuples of unsigned 64-bit values, element by element. */
    static final Comparator<List<Long>> UNSIGNED_TUPLES = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = Long.compareUnsigned(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };
}
