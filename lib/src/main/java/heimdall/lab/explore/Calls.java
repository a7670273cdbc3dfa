package heimdall.lab.explore;

import heimdall.lab.BadInput;
import heimdall.lab.child.Call;
import heimdall.lab.graph.Graph;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Call names and numbers as the exploring API takes them, checked before anything runs. */
final class Calls {
    private Calls() {}

    /** The runner's named calls. */
    static final Map<String, Call> NAMED = Map.of(
            "getppid", Call.GETPPID,
            "gettid", Call.GETTID,
            "getpid", Call.GETPID,
            "sched_yield", Call.SCHED_YIELD,
            "prctl", Call.PRCTL_SET_NAME,
            "mprotect", Call.MPROTECT);

    /** The highest system call number the runner is asked to make by number (the graph's limit). */
    static final int MAX_NR = Graph.SYSCALL_LIMIT - 1;

    static Call named(String name) {
        if (name == null || name.isBlank()) {
            throw BadInput.at("measure", "call", "no call named");
        }
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("openat")) {
            throw BadInput.at("measure", "call", "openat needs its file: Lab.measure(Call.openat(path))");
        }
        Call c = NAMED.get(n);
        if (c == null) {
            throw BadInput.at(
                    "measure",
                    "call",
                    "'" + name + "' is not a call the runner knows by name ("
                            + String.join(", ", new TreeSet<>(NAMED.keySet()))
                            + "); any other call by number: Lab.measure(nr, args...)");
        }
        return c;
    }

    static Call numbered(int nr, long... args) {
        if (nr < 0 || nr > MAX_NR) {
            throw BadInput.at("measure", "nr", "system call number " + nr + " is not 0.." + MAX_NR);
        }
        if (args != null && args.length > 6) {
            throw BadInput.at("measure", "args", "a system call takes at most six arguments, got " + args.length);
        }
        return Call.syscall(nr, args == null ? new long[0] : args);
    }
}
