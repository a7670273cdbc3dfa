package heimdall.lab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * {@code %%time} (first line of a cell: times the rest of the cell) and {@code %time CODE} (times the
 * code on that line; the lines before it run first, the lines after it afterwards). Both print the
 * wall-clock time and the CPU time the kernel process spent meanwhile, then the timed code's value
 * is the cell's value (unless lines after it have one).
 *
 * <p>The CPU time is the whole process's (compiling the snippet, the JIT, the garbage collector
 * included): a snippet runs on a thread of its own, so the thread running this has nothing to count.
 */
final class TimeMagic {
    private TimeMagic() {}

    /** A cell cut around its timed part. */
    record Split(String before, String timed, String after) {}

    /** Evaluates a piece of a cell as a whole cell (magics included). */
    interface Eval {
        DisplayData eval(String code) throws Exception;
    }

    /** The cell cut around its first {@code %%time}/{@code %time}, or null when it has none. */
    static Split find(String code) {
        List<String> lines = code.lines().toList();
        int first = 0;
        while (first < lines.size() && lines.get(first).isBlank()) {
            first++;
        }
        if (first < lines.size() && isMagic(lines.get(first).strip(), "%%time")) {
            return new Split("", join(lines, first + 1, lines.size()), "");
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (isMagic(line, "%time")) {
                return new Split(
                        join(lines, 0, i), line.substring("%time".length()).strip(), join(lines, i + 1, lines.size()));
            }
        }
        return null;
    }

    private static boolean isMagic(String line, String name) {
        return line.startsWith(name)
                && (line.length() == name.length() || Character.isWhitespace(line.charAt(name.length())));
    }

    private static String join(List<String> lines, int from, int to) {
        return String.join("\n", lines.subList(from, to));
    }

    /** Runs the three parts in order, timing the middle one; the times go to {@code out} even when it fails. */
    static DisplayData run(Split split, Eval eval, PrintStream out) throws Exception {
        if (split.timed().isBlank()) {
            throw new CellError.MagicError(
                    "%time needs code to time: %time EXPRESSION, or %%time as the first line " + "of a cell",
                    List.of("usage: %time EXPRESSION   |   %%time (first line), then the cell"));
        }
        DisplayData value = split.before().isBlank() ? null : eval.eval(split.before());
        long cpu0 = processCpuNanos();
        long wall0 = System.nanoTime();
        try {
            DisplayData timed = eval.eval(split.timed());
            value = timed != null ? timed : value;
        } finally {
            long wall = System.nanoTime() - wall0;
            long cpu1 = processCpuNanos();
            out.println(report(wall, cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0));
            out.flush();
        }
        if (!split.after().isBlank()) {
            DisplayData after = eval.eval(split.after());
            value = after != null ? after : value;
        }
        return value;
    }

    /** "CPU time: ...\nWall time: ..." (no CPU line when the JVM cannot tell the process's CPU time). */
    static String report(long wallNanos, long cpuNanos) {
        String wall = "Wall time: " + duration(wallNanos);
        return cpuNanos < 0 ? wall : "CPU time: " + duration(cpuNanos) + " (kernel process)\n" + wall;
    }

    static String duration(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
        }
        if (nanos >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
