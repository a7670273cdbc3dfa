package heimdall.lab.sys;

import heimdall.lab.BadInput;
import heimdall.lab.Errno;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The CPUs this process may use, and which of them measure and supervise.
 *
 * <p>The allowed set is the process's: {@code Cpus_allowed_list} of {@code /proc/self/status} (the
 * thread group leader, which nobody here pins), falling back to {@code sched_getaffinity} of the
 * calling thread. Reading the calling thread's mask alone would be wrong once a supervisor thread has
 * pinned itself: it would see one CPU.
 *
 * <p>How the pins are chosen, so defaults suit the machine they run on:
 * <ul>
 *   <li>{@link #measuring()}: the highest allowed CPU. CPU 0 usually takes more of the host's
 *       interrupts and housekeeping, so the measured child stays away from it where it can.
 *   <li>{@link #supervisor()}: the highest allowed CPU other than the measuring one (a neighbour,
 *       so both share as much cache topology as the numbering suggests), or the measuring CPU itself
 *       when only one is allowed.
 * </ul>
 * On a 2-core machine that is CPU 1 measuring and CPU 0 supervising. The system properties
 * {@code heimdall.lab.cpu} and {@code heimdall.lab.supervisorCpu} override either; a CPU outside the
 * allowed set is bad input.
 */
public final class Cpus {
    private Cpus() {}

    /** The CPUs this process may run on, ascending. */
    public static List<Integer> allowed() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the thread's own mask
        }
        long[] mask = new long[16];
        int n = NativeLib.hl_allowed_cpus(mask, mask.length);
        if (n < 0) {
            throw new IllegalStateException("sched_getaffinity: " + Errno.name(-n));
        }
        List<Integer> cpus = new ArrayList<>();
        for (int c = 0; c < mask.length * 64; c++) {
            if ((mask[c / 64] >>> (c % 64) & 1) != 0) {
                cpus.add(c);
            }
        }
        return List.copyOf(cpus);
    }

    /** The CPU a measured child pins to by default; see the class comment for the choice. */
    public static int measuring() {
        List<Integer> cpus = allowed();
        return override("heimdall.lab.cpu", cpus).orElse(cpus.get(cpus.size() - 1));
    }

    /** The CPU a supervisor thread pins to by default; see the class comment for the choice. */
    public static int supervisor() {
        List<Integer> cpus = allowed();
        int measuring = measuring();
        int chosen = measuring;
        for (int i = cpus.size() - 1; i >= 0; i--) {
            if (cpus.get(i) != measuring) {
                chosen = cpus.get(i);
                break;
            }
        }
        return override("heimdall.lab.supervisorCpu", cpus).orElse(chosen);
    }

    /**
     * Pins the calling thread to {@code cpu}.
     *
     * @return the CPU the thread runs on afterwards (equals {@code cpu} unless the kernel disagrees)
     */
    public static int pinCurrentThread(int cpu) {
        int r = NativeLib.hl_pin_self(cpu);
        if (r < 0) {
            throw new IllegalStateException("sched_setaffinity to CPU " + cpu + ": " + Errno.name(-r));
        }
        return r;
    }

    /** The CPU the calling thread runs on now ({@code sched_getcpu}). */
    public static int current() {
        int r = NativeLib.hl_current_cpu();
        if (r < 0) {
            throw new IllegalStateException("sched_getcpu: " + Errno.name(-r));
        }
        return r;
    }

    /** Parses a kernel CPU list such as {@code "0-3,8,10-11"}. */
    public static List<Integer> parseList(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",")) {
            part = part.trim();
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            if (dash < 0) {
                cpus.add(Integer.parseInt(part));
            } else {
                int lo = Integer.parseInt(part.substring(0, dash));
                int hi = Integer.parseInt(part.substring(dash + 1));
                for (int c = lo; c <= hi; c++) {
                    cpus.add(c);
                }
            }
        }
        return List.copyOf(cpus);
    }

    private static Optional<Integer> override(String property, List<Integer> allowed) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return Optional.empty();
        }
        int cpu;
        try {
            cpu = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw BadInput.at("system property", property, "'" + v + "' is not a CPU number");
        }
        if (!allowed.contains(cpu)) {
            throw BadInput.at("system property", property, "CPU " + cpu + " is not in the allowed set " + allowed);
        }
        return Optional.of(cpu);
    }
}
