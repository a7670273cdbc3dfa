package heimdall.lab.load;

import heimdall.lab.BadInput;
import heimdall.lab.sys.Cpus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One load thread: what it does, where, at which nice level and how hard.
 *
 * @param kind spin on the CPU, or make system calls
 * @param cpu the CPU it is pinned to, or -1 to leave it to the scheduler
 * @param nice its nice level, -20..19 (below 0 needs CAP_SYS_NICE)
 * @param intensity the busy fraction of every 10 ms period, in (0, 1]: 1 never rests, 0.5 works 5 ms
 *     and sleeps 5 ms
 */
public record Worker(Kind kind, int cpu, int nice, double intensity) {
    /** What a load thread does while busy. */
    public enum Kind {
        /** Arithmetic in a loop: occupies the CPU without entering the kernel. */
        SPIN,
        /** {@code getppid} again and again: kernel entries and exits, the measured calls' own path. */
        SYSCALL
    }

    /** The length of one busy-then-rest period. */
    public static final long PERIOD_NS = 10_000_000;

    public Worker {
        if (kind == null) {
            throw BadInput.at("load worker", "kind", "missing");
        }
        if (cpu < -1 || (cpu >= 0 && !Cpus.allowed().contains(cpu))) {
            throw BadInput.at(
                    "load worker", "cpu", "CPU " + cpu + " is not one this process may use " + Cpus.allowed());
        }
        if (nice < -20 || nice > 19) {
            throw BadInput.at("load worker", "nice", nice + " is not in -20..19");
        }
        if (!(intensity > 0 && intensity <= 1)) {
            throw BadInput.at("load worker", "intensity", intensity + " is not in (0, 1]");
        }
    }

    /**
     * Parses {@code kind:cpu[:nice[:intensity]]}, e.g. {@code spin:1}, {@code syscall:0:10:0.5};
     * a cpu of {@code any} leaves the thread unpinned.
     */
    public static Worker parse(String text) {
        String[] f = text.trim().split(":");
        if (f.length < 2 || f.length > 4) {
            throw BadInput.at("load worker", text, "expected kind:cpu[:nice[:intensity]], e.g. spin:1:0:1.0");
        }
        Kind kind;
        try {
            kind = Kind.valueOf(f[0].toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw BadInput.at("load worker", text, "kind '" + f[0] + "' is not spin or syscall");
        }
        try {
            int cpu = f[1].equals("any") ? -1 : Integer.parseInt(f[1]);
            int nice = f.length > 2 ? Integer.parseInt(f[2]) : 0;
            double intensity = f.length > 3 ? Double.parseDouble(f[3]) : 1.0;
            return new Worker(kind, cpu, nice, intensity);
        } catch (NumberFormatException e) {
            throw BadInput.at("load worker", text, "cpu, nice and intensity must be numbers");
        }
    }

    /** Parses a comma-separated list of {@link #parse} forms. */
    public static List<Worker> parseList(String text) {
        return Arrays.stream(text.split(","))
                .filter(s -> !s.isBlank())
                .map(Worker::parse)
                .toList();
    }

    /** One spinning and one syscall-making thread on every allowed CPU, at {@code nice}, full intensity. */
    public static List<Worker> everyCpu(int nice) {
        List<Worker> out = new ArrayList<>();
        for (int cpu : Cpus.allowed()) {
            out.add(new Worker(Kind.SPIN, cpu, nice, 1.0));
            out.add(new Worker(Kind.SYSCALL, cpu, nice, 1.0));
        }
        return List.copyOf(out);
    }

    /** The {@link #parse} form. */
    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + ":" + (cpu < 0 ? "any" : cpu) + ":" + nice + ":" + intensity;
    }
}
