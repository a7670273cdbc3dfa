package heimdall.lab.probe;

import java.util.List;
import java.util.Optional;

/**
 * What a probe saw: every syscall the command made in each run, with counts, and for the
 * argument-sensitive calls ({@link ArgumentSensitive}) the distinct values of the arguments that
 * matter. Written and read by {@link ObservationsJson}.
 *
 * @param arch always {@code x86_64} for now
 * @param command the command as recorded (for the fixtures, a portable form, not absolute paths)
 * @param runs how many traced runs were aggregated
 * @param statuses each run's exit status (128+signal when killed)
 * @param calls one entry per syscall seen in any run, sorted by number
 */
public record Observations(String arch, List<String> command, int runs, List<Integer> statuses, List<Call> calls) {
    public Observations {
        command = List.copyOf(command);
        statuses = List.copyOf(statuses);
        calls = List.copyOf(calls);
    }

    /**
     * One syscall.
     *
     * @param counts how many entries each run made, in run order
     * @param args the recorded arguments, for an argument-sensitive call
     */
    public record Call(String name, int nr, List<Long> counts, Optional<Args> args) {
        public Call {
            counts = List.copyOf(counts);
        }

        public long total() {
            return counts.stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The distinct values of some arguments of one call, as tuples in {@code indices} order, sorted
     * (unsigned, element by element). Values are the 64-bit register contents, unsigned, as bits.
     */
    public record Args(List<Integer> indices, List<String> names, List<List<Long>> values) {
        public Args {
            indices = List.copyOf(indices);
            names = List.copyOf(names);
            values = values.stream().map(List::copyOf).toList();
        }
    }

    public Optional<Call> call(String name) {
        return calls.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
